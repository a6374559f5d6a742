/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof diff` command line: report's options, two profiles, svg or folded out. */
#ifndef BPFPROF_CLI_DIFF_H
#define BPFPROF_CLI_DIFF_H

#include "cli-report.h"

/* Parse `diff` arguments (argv[0] is "diff"); a usage error exits with status 64. */
void cli_diff__parse(int argc, char **argv, struct cli_report *r);

#endif /* BPFPROF_CLI_DIFF_H */
