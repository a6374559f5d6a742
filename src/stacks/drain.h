/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The stack sets' counts and stacks maps -> a symbolized profile. */
#ifndef BPFPROF_DRAIN_H
#define BPFPROF_DRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "loader.h"
#include "session.h"
#include "profile.h"
#include "symbolizer.h"

struct drain;

/*
 * A drain of the stack sets (bpfprof.h) into @p, in two steps. A take
 * empties a set that no program writes any more: its stacks are kept in
 * user space and its counts entries queued, quickly, so the set can take
 * samples again. Symbolizing then turns each queued entry into one profile
 * stack (merged with the same stack drained before): the user stack root
 * first, then the kernel stack root first; "[truncated]" after the process
 * when either was cut at max_depth. With @ranges (bpfprof range --stacks,
 * several ranges), the first frame names the sample's range: @ranges[id]
 * (a mark frame). @by_pid: the profile keeps processes apart (else their
 * tgid is 0). NULL + errno.
 */
struct drain *drain__new(struct loader *l, struct symbolizer *sym, enum stack_mode mode,
			 const char *const *ranges, bool by_pid, struct profile *p);
void drain__free(struct drain *d);
/*
 * @after: the sampled ip is the instruction after the one that caused the
 * sample (a data breakpoint traps after the access): the interrupted
 * stack's leaf is looked up as a return address is, so it names that
 * instruction's function and line.
 */
void drain__set_leaf_after(struct drain *d, bool after);
/* Take set @set, which no program writes any more (loader__switch_stack_set). 0 or -errno. */
int drain__take(struct drain *d, unsigned int set);
/*
 * Symbolize queued entries for about @budget_ns at most, less when a stop
 * signal waits to be read (the entry it cut short is named again later).
 * 0 or -errno.
 */
int drain__symbolize(struct drain *d, uint64_t budget_ns);
/* Entries queued and not symbolized yet. */
size_t drain__pending(const struct drain *d);
/* How many takes are wholly symbolized (the first n). */
unsigned int drain__symbolized(const struct drain *d);
/*
 * The profile was emptied (profile__free between two windows: an
 * interval's file, a refresh of the live top): forget its ids of binaries.
 */
void drain__profile_emptied(struct drain *d);
/* Once sampling has stopped: both sets taken, everything symbolized. 0 or -errno. */
int drain__all(struct drain *d);

#endif /* BPFPROF_DRAIN_H */
