/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The stack sets drained while sampling runs (session.h plug): a timer
 * checks how full the set samples go to is; when it is a quarter full, or a
 * drain interval has passed, the sets are switched and the old one drained
 * into the profile (drain.c), symbolized while its processes are still
 * known. Processes that exited are forgotten from the process table once a
 * drain after their exit has symbolized their samples. With windows
 * (record --interval, top) the profile is handed over and emptied at each
 * window's end. After sampling, drain_session__final drains both sets.
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
 * A window's end (record --interval, top): the profile holds the window's
 * samples, counters, duration and CPUs; 0, or the exit status after its
 * one line (the run stops with it). The profile is emptied after.
 */
typedef int (*drain_window_fn)(struct session *s, struct profile *p, void *ctx);
/*
 * Before start: windows of @seconds from the start of sampling, each at
 * least as long (one that ends late, after a long symbolizing, does not
 * shorten the next). At each end, checked with the fill (every 20 ms):
 * the sets switched and the one samples went to taken, so every sample
 * counted before is in the window and none after; the program's counters read right then (the window's are the
 * difference from the last end's, so they add up to the run's);
 * everything taken symbolized; @done called; the profile emptied (its
 * flags kept). A stop signal that cuts the symbolizing short leaves the
 * window's samples to the end's drain (its profile is kept).
 */
void drain_session__set_window(struct drain_session *ds, double seconds, drain_window_fn done,
			       void *ctx);
/*
 * After drain_session__profile, with windows: the profile's counters,
 * duration and side-band losses become the last window's (the run's
 * since the last end).
 */
void drain_session__last_window(struct drain_session *ds);
void drain_session__stats(const struct drain_session *ds, struct drain_session_stats *st);

/* Its hooks; the plug's priv is the struct drain_session. */
extern const struct session_hooks drain_session_hooks;

#endif /* BPFPROF_DRAIN_SESSION_H */
