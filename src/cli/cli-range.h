/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof range` command line. */
#ifndef BPFPROF_CLI_RANGE_H
#define BPFPROF_CLI_RANGE_H

#include "range.h"

/*
 * Parse `range` arguments (argv[0] is "range") like cli_record__parse: a
 * usage error exits with status 64.
 */
void cli_range__parse(int argc, char **argv, struct range_opts *opts);
void cli_range__free(struct range_opts *opts);

#endif /* BPFPROF_CLI_RANGE_H */
