// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* -o -q: where the result goes, and whether a summary line follows it. */
#include <argp.h>

#include "cli-output.h"

static error_t parse_output(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct session_opts *opts = p->opts;

	switch (key) {
	case 'o':
		opts->output = arg;
		break;
	case 'q':
		opts->quiet = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option output_options[] = {
	{ "output", 'o', "FILE", 0, "Write the profile to FILE (default: standard output)",
	  CLI_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "No summary line on stderr at the end", CLI_GROUP_OUTPUT },
	{ 0 },
};

const struct argp cli_output_argp = { .options = output_options, .parser = parse_output };
