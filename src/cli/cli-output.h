/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Output: -o -q (each subcommand adds its own -f and friends). */
#ifndef BPFPROF_CLI_OUTPUT_H
#define BPFPROF_CLI_OUTPUT_H

#include "cli.h"

/* -o -q */
extern const struct argp cli_output_argp;

#endif /* BPFPROF_CLI_OUTPUT_H */
