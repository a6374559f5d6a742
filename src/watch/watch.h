/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch`: the capture core (session.h) with the watch mode. Its
 * events are hardware breakpoints (one per location per target thread,
 * inherited by the threads and children created later, or one per CPU
 * for kernel data), each access one run of the program; more locations
 * than debug registers take turns on them. It writes the accessing stacks
 * in the -f format and a per-location summary.
 */
#ifndef BPFPROF_WATCH_H
#define BPFPROF_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfprof.h"
#include "output.h"
#include "session.h"
#include "unwinder.h"
#include "watchspec.h"

struct watch_opts {
	struct session_opts session; /* targets, symbols, -o, -q, -d */
	struct output_opts out;      /* the profile format and its options */
	struct unwind_opts unwind;
	char **locations;            /* LOCATION arguments, checked by watchspec */
	size_t nr_locations;
	enum watch_access access;    /* --access */
	unsigned int rotate_ms;      /* --rotate: a turn (more locations than registers) */
	const char *cond;            /* --if as given, or NULL */
	struct watch_term terms[WATCH_MAX_TERMS];
	unsigned int nr_terms;
	bool values;                 /* --values: a histogram of the values seen */
	uint64_t count;              /* --count: stop after this many matching accesses; 0: no */
	bool trap;                   /* --trap: a matching access sends its thread SIGTRAP */
};

/*
 * Resolve the locations (a usage error when one cannot be), watch, write
 * the stacks and the summary. Reports errors itself and returns the exit
 * status (session.h).
 */
int watch__run(const struct watch_opts *o);

#endif /* BPFPROF_WATCH_H */
