/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof top` command line. */
#ifndef BPFPROF_CLI_TOP_H
#define BPFPROF_CLI_TOP_H

#include "top.h"

/*
 * Parse `top` arguments (argv[0] is "top") like cli_record__parse: a
 * usage error exits with status 64.
 */
void cli_top__parse(int argc, char **argv, struct top_opts *opts);
void cli_top__free(struct top_opts *opts);

#endif /* BPFPROF_CLI_TOP_H */
