/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Symbols: --demangle --no-demangle --debug-dir. */
#ifndef BPFPROF_CLI_SYMBOLS_H
#define BPFPROF_CLI_SYMBOLS_H

#include "cli.h"

/* --demangle --no-demangle --debug-dir */
extern const struct argp cli_symbols_argp;

void cli_symbols__defaults(struct symbol_opts *so);
void cli_symbols__free(struct symbol_opts *so);

#endif /* BPFPROF_CLI_SYMBOLS_H */
