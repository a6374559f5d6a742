/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The monotonic clock in nanoseconds: durations and latencies. */
#ifndef BPFPROF_MONOTIME_H
#define BPFPROF_MONOTIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotime__ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif /* BPFPROF_MONOTIME_H */
