/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof diff's profile: the stacks of a new profile with their counts,
 * and each stack's count in a base profile (profile.base), the stacks of
 * only one of them included (a count of 0 in the other). The svg and folded
 * writers draw and write it ("stack BASE NEW").
 */
#ifndef BPFPROF_DIFF_H
#define BPFPROF_DIFF_H

#include "profile.h"

/*
 * Fill the empty @d from @base and @cur. When only one of them names
 * processes, the other's stacks start with their process as a frame ("comm",
 * "comm-PID" or "comm-PID/TID" as the folded writer shows it)
 * and @d has none (no_procs). Frames keep no binary. 0, -ENOMEM or -E2BIG.
 */
int diff__profiles(struct profile *d, const struct profile *base, const struct profile *cur);

#endif /* BPFPROF_DIFF_H */
