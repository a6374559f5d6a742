/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a run that samples stacks says of itself, as record gives it and
 * the live top: what was sampled, the run's warnings, each event's line.
 */
#ifndef BPFPROF_RUNSUMMARY_H
#define BPFPROF_RUNSUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "session.h"

/*
 * What was sampled, in words, for a format that describes the run (svg's
 * subtitle) and the live top's header: the command, else the pids, tids
 * and cgroup, else the whole system. In memory of its own (free it); NULL
 * on ENOMEM.
 */
char *run_summary__target(const struct target_opts *t);
/*
 * Several events: a line each on stderr, "@prog: EVENT: ", its samples kept
 * and lost and its rate over @seconds: a clock event's on the busiest CPU
 * (Hz, as the run's line), any other's samples kept a second (its rate
 * follows what it counts). The summaries of record and the live top.
 */
void run_summary__events(const char *prog, const struct profile_event *events, size_t nr,
			 double seconds);
/*
 * The run's warnings on stderr (session__warn), as record gives them: what
 * the symbolizer refused or cut, side-band records lost (@p's), the
 * kernel's throttling, and why no sample was recorded when @samples is 0.
 * The warnings of record and the live top.
 */
void run_summary__warnings(struct session *s, const struct profile *p, uint64_t samples);

#endif /* BPFPROF_RUNSUMMARY_H */
