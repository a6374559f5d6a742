/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Hardware cache events as perf names them (L1-dcache-load-misses,
 * LLC-loads, dTLB-load-misses, branch-loads, and perf's aliases: l1d,
 * Data-TLB, speculative-read, ...; any case): CACHE[-OP][-RESULT], OP
 * defaulting to load and RESULT to refs. Pure.
 */
#ifndef BPFPROF_EVCACHE_H
#define BPFPROF_EVCACHE_H

#include <linux/types.h>

/*
 * @name's PERF_TYPE_HW_CACHE config (id | op << 8 | result << 16) into
 * *@config: 0, or -ENOENT when @name is no cache event.
 */
int evcache__parse(const char *name, __u64 *config);

/* The cache events perf lists, canonical names: the @i-th, or NULL past the end. */
const char *evcache__known(unsigned int i);

#endif /* BPFPROF_EVCACHE_H */
