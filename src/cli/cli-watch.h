/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof watch` command line. */
#ifndef BPFPROF_CLI_WATCH_H
#define BPFPROF_CLI_WATCH_H

#include "watch.h"

/*
 * Parse `watch` arguments (argv[0] is "watch") like cli_record__parse: a
 * usage error exits with status 64.
 */
void cli_watch__parse(int argc, char **argv, struct watch_opts *opts);
void cli_watch__free(struct watch_opts *opts);

#endif /* BPFPROF_CLI_WATCH_H */
