/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The stack sets drained while sampling runs (session.h plug): a timer
 * checks how full the set samples go to is; when it is a quarter full, or a
 * drain interval has passed, the sets are switched and the old one drained
 * into the profile (drain.c), symbolized while its processes are still
 * known. Processes that exited are forgotten from the process table once a
 * drain after their exit has symbolized their samples. After sampling,
 * drain_session__final drains both sets.
 */
#ifndef BPFPROF_DRAIN_SESSION_H
#define BPFPROF_DRAIN_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"
#include "session.h"

struct drain_session;

/* What --stats tells of the drains. */
struct drain_session_stats {
	unsigned int drains;   /* sets drained while sampling */
	unsigned int by_fill;  /* of those, because the set was a quarter full */
	double max_use;        /* the fullest a set was when it was switched (0..1) */
	double max_drain_s;    /* the longest drain, seconds */
	uint64_t forgotten;    /* exited processes forgotten */
	uint64_t released;     /* binaries freed: mapped by no process any more */
	uint64_t jit_maps_freed; /* JIT maps of forgotten processes freed */
	int switch_err;        /* -errno: the grace period failed; drains only at the end */
};

/*
 * Drains into @p; @by_pid: keep processes apart in it (--per-pid,
 * --per-thread); @forget: forget exited processes once their samples are
 * symbolized (and their JIT maps), then free the binaries no process maps
 * (session__release_binaries); not when the mode looks processes and
 * binaries up at the end, as range does. NULL on ENOMEM.
 */
struct drain_session *drain_session__new(struct profile *p, bool by_pid, bool forget);
/* range --stacks: the first frame of a sample in range i + 1 is @ranges[i] (before start). */
void drain_session__set_ranges(struct drain_session *ds, const char *const *ranges);
/* watch: the sampled ip follows the access (drain__set_leaf_after; before start). */
void drain_session__set_leaf_after(struct drain_session *ds, bool after);
void drain_session__free(struct drain_session *ds);
/* Sampling has stopped: both sets into the profile. 0 or -errno. */
int drain_session__final(struct drain_session *ds);
/*
 * Sampling has stopped (a mode's finish): the profile's run (CPUs,
 * seconds, side-band records lost), both sets drained into it, then the
 * program's counters, read after the last grace period, so every sample
 * counted is in it. 0, or the exit status after its one line.
 */
int drain_session__profile(struct drain_session *ds, struct session *s);
/*
 * While sampling runs, at the end of a window (an interval's file, a
 * refresh of the live top): the sets switched and the one samples went to
 * taken, so every sample counted before is in it and none after; the
 * program's counters (loader__read_stats: @sum, @max) read right after;
 * then everything taken symbolized into the profile. 0; -EINTR when a stop
 * signal cut the symbolizing short (what is left goes to the end's drain:
 * keep the profile for it); -ENOTSUP when the sets cannot be switched (no
 * grace period, @ds's stats say why); or -errno.
 */
int drain_session__cut(struct drain_session *ds, struct session *s, uint64_t *sum,
		       uint64_t *max);
/* After a cut: empty the profile for the next window (its flags kept). */
void drain_session__restart(struct drain_session *ds);
void drain_session__stats(const struct drain_session *ds, struct drain_session_stats *st);

/* Its hooks; the plug's priv is the struct drain_session. */
extern const struct session_hooks drain_session_hooks;

#endif /* BPFPROF_DRAIN_SESSION_H */
