/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exit statuses (sysexits.h where one fits). Only the top level of a
 * subcommand returns them; everything below it returns 0 or -errno.
 */
#ifndef BPFPROF_EXIT_H
#define BPFPROF_EXIT_H

#define EXIT_USAGE 64  /* EX_USAGE: bad option or value */
#define EXIT_NOPERM 77 /* EX_NOPERM: missing capabilities */
#define EXIT_RUNTIME 1 /* anything else that failed */
#define EXIT_NOCMD 127 /* the command could not be run (the shell's status for it) */
/*
 * Otherwise a run with a command exits with the command's status, as a
 * shell gives it: its exit code, or this + N when signal N ended it.
 */
#define EXIT_SIGNALED 128

#endif /* BPFPROF_EXIT_H */
