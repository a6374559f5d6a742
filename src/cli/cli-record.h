/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof record` command line. */
#ifndef BPFPROF_CLI_RECORD_H
#define BPFPROF_CLI_RECORD_H

#include "record.h"

/*
 * Parse `record` arguments; argv[0] is "record". Sets defaults, parses,
 * runs the cross-option checks. On a usage error prints one line
 * ("bpfprof record: ...") and exits with status 64, like argp does.
 */
void cli_record__parse(int argc, char **argv, struct record_opts *opts);
void cli_record__free(struct record_opts *opts);

#endif /* BPFPROF_CLI_RECORD_H */
