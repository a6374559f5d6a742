/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof record`: the capture core (session.h) with the record mode,
 * which drains the stacks into a profile, symbolizes it and writes it in
 * the -f format, then prints the summary and --stats; the unwinder comes
 * along for user stacks.
 */
#ifndef BPFPROF_RECORD_H
#define BPFPROF_RECORD_H

#include <stdbool.h>

#include "output.h"
#include "session.h"
#include "unwinder.h"

struct record_opts {
	struct session_opts session; /* targets, sampling, symbols, -o, -q */
	struct output_opts out;      /* the profile format and its options */
	struct unwind_opts unwind;
	bool stats;                  /* --stats: walk outcomes, tables, BPF run time */
	double interval;             /* --interval seconds: a file per interval (-o's
					%n, %t: interval.h); 0: one profile */
};

/*
 * What was sampled, in words, for a format that describes the run (svg's
 * subtitle) and the live top's header: the command, else the pids, tids
 * and cgroup, else the whole system. In memory of its own (free it); NULL
 * on ENOMEM.
 */
char *record__target(const struct target_opts *t);
/*
 * Several events: a line each on stderr, "@prog: EVENT: ", its samples kept
 * and lost and its rate over @seconds: a clock event's on the busiest CPU
 * (Hz, as the run's line), any other's samples kept a second (its rate
 * follows what it counts). The summaries of record and the live top.
 */
void record__event_summary(const char *prog, const struct profile_event *events, size_t nr,
			   double seconds);
/*
 * The run's warnings on stderr (session__warn), as record gives them: what
 * the symbolizer refused or cut, side-band records lost (@p's), the
 * kernel's throttling, and why no sample was recorded when @samples is 0.
 * The warnings of record and the live top.
 */
void record__warnings(struct session *s, const struct profile *p, uint64_t samples);
/* A whole recording; reports errors itself and returns the exit status (session.h). */
int record__run(const struct record_opts *o);

#endif /* BPFPROF_RECORD_H */
