/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof range`: the capture core (session.h) with the range mode. It
 * resolves the ranges before load (they size the range maps), places them
 * in the processes that map their binaries as they appear, and after
 * sampling writes the per-instruction listing (and --stacks' profile).
 */
#ifndef BPFPROF_RANGE_H
#define BPFPROF_RANGE_H

#include <stddef.h>

#include "output.h"
#include "session.h"
#include "unwinder.h"

struct range_opts {
	struct session_opts session; /* targets, sampling, symbols, -o, -q */
	struct output_opts out;      /* the listing format and its options */
	char **ranges;               /* RANGE arguments as given, checked by rangespec */
	size_t nr_ranges;
	const char *stacks;          /* --stacks=FILE: in-range samples' stacks; NULL: none */
	struct output_opts stacks_out; /* their format, from FILE's extension */
	struct unwind_opts unwind;   /* for --stacks */
};

/*
 * Resolve the ranges (a usage error when one cannot be), sample, write the
 * listing. Reports errors itself and returns the exit status (session.h).
 */
int range__run(const struct range_opts *o);

#endif /* BPFPROF_RANGE_H */
