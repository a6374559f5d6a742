/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Once sampling has stopped: the counts and stacks maps -> a symbolized profile. */
#ifndef BPFPROF_DRAIN_H
#define BPFPROF_DRAIN_H

#include "loader.h"
#include "session.h"
#include "profile.h"
#include "symbolizer.h"

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

#endif /* BPFPROF_DRAIN_H */
