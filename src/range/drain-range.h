/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Once sampling has stopped: the range maps -> a listing (profile/listing.h). */
#ifndef BPFPROF_DRAIN_RANGE_H
#define BPFPROF_DRAIN_RANGE_H

#include <stdbool.h>

#include "listing.h"
#include "loader.h"
#include "proc.h"
#include "rangeset.h"

/*
 * Read the per-address counts and the
 * per-instance hits of every range of @rs and build @ls: each range's
 * instructions (decoded from its code when @code, else only the sampled
 * addresses) with samples, function+offset and source line; its hottest
 * source lines; its processes. The stats and duration are the caller's.
 * 0 or -errno; listing__free() either way.
 */
int drain_range__listing(struct loader *l, struct range_set *rs, struct proc_table *pt,
			 bool code, struct listing *ls);

#endif /* BPFPROF_DRAIN_RANGE_H */
