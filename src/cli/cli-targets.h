/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Targets: -a -p -t -G -C --idle and the command after the options. */
#ifndef BPFPROF_CLI_TARGETS_H
#define BPFPROF_CLI_TARGETS_H

#include "cli.h"

/* -a -p -t -G -C --idle */
extern const struct argp cli_targets_argp;

/* The command from its first argument @arg to the end of argv. */
void cli_targets__command(struct argp_state *state, struct session_opts *opts, char *arg);
/* At ARGP_KEY_END: -a against -p/-t, and whether the run is system-wide. */
void cli_targets__finish(const struct argp_state *state, struct cli_parser *p);
void cli_targets__free(struct target_opts *t);

#endif /* BPFPROF_CLI_TARGETS_H */
