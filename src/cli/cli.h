/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Command-line parsing (argp) for every subcommand. */
#ifndef BPFPROF_CLI_H
#define BPFPROF_CLI_H

#include "range.h"
#include "record.h"

/*
 * Parse `record` arguments; argv[0] is "record". Sets defaults, parses,
 * runs the cross-option checks. On a usage error prints one line
 * ("bpfprof record: ...") and exits with status 64, like argp does.
 */
void cli_record__parse(int argc, char **argv, struct record_opts *opts);
void cli_record__free(struct record_opts *opts);

/*
 * Parse `range` arguments (argv[0] is "range") like cli_record__parse: a
 * usage error exits with status 64.
 */
void cli_range__parse(int argc, char **argv, struct range_opts *opts);
void cli_range__free(struct range_opts *opts);

#endif /* BPFPROF_CLI_H */
