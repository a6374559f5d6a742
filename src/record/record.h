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

/* A whole recording; reports errors itself and returns the exit status (session.h). */
int record__run(const struct record_opts *o);

#endif /* BPFPROF_RECORD_H */
