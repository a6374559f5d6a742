// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hidden `bpfprof debug-cfi FILE` (placeholder) */
#include <stdio.h>

#include "cli.h"

int cli_cfi__run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bpfprof debug-cfi: not built yet\n");
	return 1;
}
