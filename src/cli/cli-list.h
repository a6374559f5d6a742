/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof list` command line. */
#ifndef BPFPROF_CLI_LIST_H
#define BPFPROF_CLI_LIST_H

#include "list.h"

struct cli_list {
	struct list_opts opts;
	char **patterns; /* the PATTERN arguments (argv's own strings) */
};

/* Parse `list` arguments (argv[0] is "list"); a usage error exits with status 64. */
void cli_list__parse(int argc, char **argv, struct cli_list *l);
/* List the events and print the error: the exit status (1: nothing matched). */
int cli_list__run(const struct cli_list *l);
void cli_list__free(struct cli_list *l);

#endif /* BPFPROF_CLI_LIST_H */
