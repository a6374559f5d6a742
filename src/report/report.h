/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof report and diff: saved profiles read back (profileread.c) and
 * written by the output registry's writers, as record writes them. No BPF,
 * no perf events, no session: nothing here needs root.
 */
#ifndef BPFPROF_REPORT_H
#define BPFPROF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"

struct report_opts {
	const char *input; /* report's FILE, diff's NEW */
	const char *base;  /* diff's BASE; NULL for report */
	const char *value; /* --value: a pprof's sample type; NULL: the first */
	uint64_t max_input; /* --max-input: the most a gzipped profile inflates to;
			       0: pprofread's bound (64 times its size, at most 256 MiB) */
	const char *output; /* the file written; "-": standard output */
	bool output_default; /* -o not given: output is the format's default file */
	struct output_opts out;
};

/* What a run read and wrote, for the summary line. */
struct report_summary {
	uint64_t samples, base_samples;
	size_t rows; /* as the writer counts them (a folded file's lines) */
	const char *format, *base_format; /* "pprof", "folded" */
};

/*
 * Read @o->input (and for a diff @o->base), write @o->output. 0, or
 * -errno with why in @why: *@usage says whether the user is to blame (an
 * output that cannot be opened, an input file missing, unreadable or
 * corrupt) rather than memory or a failed write.
 */
int report__run(const struct report_opts *o, struct report_summary *sum, char *why,
		size_t size, bool *usage);

#endif /* BPFPROF_REPORT_H */
