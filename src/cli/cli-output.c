// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -o -q: where the result goes, and whether a summary line follows it.
 * Without -o it goes to a file named after the format in the working
 * directory (bpfprof.folded), as perf record writes perf.data: never to
 * standard output, which is the command's.
 */
#include <argp.h>
#include <string.h>
#include <unistd.h>

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
	{ "output", 'o', "FILE", 0,
	  "Write to FILE; - is standard output (default: bpfprof.folded, or for range "
	  "bpfprof-range.txt, in the working directory)",
	  CLI_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "No summary line on stderr at the end", CLI_GROUP_OUTPUT },
	{ 0 },
};

const struct argp cli_output_argp = { .options = output_options, .parser = parse_output };

const struct output_format *cli_output__format(const struct argp_state *state,
					       enum output_input in, const char *arg)
{
	const struct output_format *f = output__by_name(in, arg);
	const char *(*name)(unsigned int) =
		in == OUTPUT_LISTING ? output__listing_name : output__profile_name;
	char *names;

	if (f)
		return f;
	names = cli__join_names(name);
	cli__usage_error(state, "invalid --format '%s': expected %s", arg,
			 names ? names : name(0));
}

void cli_output__finish(const struct argp_state *state, struct session_opts *opts,
			enum output_input in, const struct output_format **format,
			bool format_given)
{
	char why[256];

	if (!format_given && output__check_file(in, opts->output, why, sizeof(why)))
		cli__usage_error(state, "invalid --output '%s': %s", opts->output, why);
	if (!format_given)
		*format = output__by_file(in, opts->output);
	if (!opts->output) {
		opts->output = (*format)->default_file;
		opts->output_default = true;
	}
	if ((*format)->binary && !strcmp(opts->output, "-") && isatty(STDOUT_FILENO))
		cli__usage_error(state, "invalid --output '-': %s is binary data and standard "
					"output is a terminal; expected -o FILE or a pipe",
				 (*format)->name);
}

void cli_output__format_option(const struct argp_state *state, const char *option,
			       const struct output_format *format,
			       const struct output_format *own)
{
	if (option && format != own)
		cli__usage_error(state, "%s is an option of the %s format, not of %s: add -f %s "
				 "or -o FILE%s",
				 option, own->name, format->name, own->name, own->ext);
}
