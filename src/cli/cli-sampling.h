/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Sampling: -F -c -e -d. */
#ifndef BPFPROF_CLI_SAMPLING_H
#define BPFPROF_CLI_SAMPLING_H

#include "cli.h"

/* -F -c -e -d */
extern const struct argp cli_sampling_argp;

/* The defaults, and the kernel limits -F and --max-depth are checked against. */
void cli_sampling__defaults(struct cli_parser *p, struct sampling_opts *so);
/* At ARGP_KEY_END: -F against -c; the perf_event_attr the run opens. */
void cli_sampling__finish(const struct argp_state *state, struct cli_parser *p);
/* Free what parsing allocated in @so (the event's name). */
void cli_sampling__free(struct sampling_opts *so);

#endif /* BPFPROF_CLI_SAMPLING_H */
