/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unwinding: --unwind --unwind-memory --no-unwind-hold. */
#ifndef BPFPROF_CLI_UNWIND_H
#define BPFPROF_CLI_UNWIND_H

#include "cli.h"
#include "unwinder.h"

/* --unwind --unwind-memory --no-unwind-hold, into cli_parser.unwind */
extern const struct argp cli_unwind_argp;

void cli_unwind__defaults(struct unwind_opts *uo);
/* --unwind's name of mode @i, NULL past the last: cli__join_names. */
const char *cli_unwind__mode_name(unsigned int i);

#endif /* BPFPROF_CLI_UNWIND_H */
