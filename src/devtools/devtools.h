/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The hidden debug subcommands, for benchmarks and tests: each parses its
 * own arguments, runs, and returns the exit status. Not listed in --help.
 */
#ifndef BPFPROF_DEVTOOLS_H
#define BPFPROF_DEVTOOLS_H

/* `debug-symbolize` (debug-symbolize.c): symbolize addresses of one file. */
int debug_symbolize__run(int argc, char **argv);
/* `debug-cfi` (debug-cfi.c): print a file's compiled unwind table. */
int debug_cfi__run(int argc, char **argv);

#endif /* BPFPROF_DEVTOOLS_H */
