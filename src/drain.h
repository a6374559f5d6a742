/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Once sampling has stopped: BPF maps -> symbolized profile, or range listing. */
#ifndef BPFPROF_DRAIN_H
#define BPFPROF_DRAIN_H

#include "listing.h"
#include "loader.h"
#include "session.h"
#include "profile.h"
#include "ranges.h"
#include "symbolize.h"

/*
 * Read every counts entry, look up its stacks, symbolize every frame and
 * add one profile stack per entry: the user stack root first, then the
 * kernel stack root first; "[truncated]" after the process when either
 * was cut at max_depth. With @ranges (bpfprof range --stacks, several
 * ranges), the first frame names the sample's range: @ranges[id] (a mark
 * frame). 0 or -errno.
 */
int drain__profile(struct loader *l, struct symbolizer *sym, enum stack_mode mode,
		   const char *const *ranges, struct profile *p);

/*
 * bpfprof range (drain-range.c): read the per-address counts and the
 * per-instance hits of every range of @rs and build @ls: each range's
 * instructions (decoded from its code when @code, else only the sampled
 * addresses) with samples, function+offset and source line; its hottest
 * source lines; its processes. The stats and duration are the caller's.
 * 0 or -errno; listing__free() either way.
 */
int drain__listing(struct loader *l, struct range_set *rs, struct proc_table *pt, bool code,
		   struct listing *ls);

#endif /* BPFPROF_DRAIN_H */
