/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof record` and `range`: open, sample until told to stop, drain, write. */
#ifndef BPFPROF_SESSION_H
#define BPFPROF_SESSION_H

#include "options.h"

/* Exit statuses (sysexits.h where one fits). */
#define EXIT_USAGE 64  /* EX_USAGE: bad option or value */
#define EXIT_NOPERM 77 /* EX_NOPERM: missing capabilities */
#define EXIT_RUNTIME 1 /* anything else that failed */
#define EXIT_NOCMD 127 /* the command could not be run (the shell's status for it) */

/*
 * Run a whole recording. Reports errors itself (one line on stderr) and
 * returns the process exit status: 0, EXIT_USAGE, EXIT_NOPERM, EXIT_RUNTIME,
 * EXIT_NOCMD.
 */
int record__run(const struct record_opts *opts);

/*
 * Run `bpfprof range`: resolve the ranges (a usage error when one cannot
 * be), sample like record__run, then write the listing. Same statuses.
 */
int range__run(const struct record_opts *opts, const struct range_opts *ro);

#endif /* BPFPROF_SESSION_H */
