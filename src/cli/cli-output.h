/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Output: -o -q (each subcommand adds its own -f and friends). */
#ifndef BPFPROF_CLI_OUTPUT_H
#define BPFPROF_CLI_OUTPUT_H

#include "cli.h"
#include "output.h"

/* -o -q */
extern const struct argp cli_output_argp;

/*
 * A subcommand's -f @arg: the format of that name that takes @in, else a
 * usage error listing them.
 */
const struct output_format *cli_output__format(const struct argp_state *state,
					       enum output_input in, const char *arg);

/*
 * At ARGP_KEY_END, with the subcommand's -f (@format, when @format_given)
 * and what it writes (@in): a -o name whose extension names a format not
 * written for @in is a usage error; without -f the format is the one the
 * name implies; without -o the output is the format's default file in the
 * working directory ("-" is standard output).
 */
void cli_output__finish(const struct argp_state *state, struct session_opts *opts,
			enum output_input in, const struct output_format **format,
			bool format_given);

/*
 * At ARGP_KEY_END, once the format is known: @option (NULL: none given)
 * is an option of the format @own only; with another @format, a usage
 * error that says how to choose @own.
 */
void cli_output__format_option(const struct argp_state *state, const char *option,
			       const struct output_format *format,
			       const struct output_format *own);

/*
 * A profile format and the options of its writers: -f, svg's --title,
 * --subtitle, --width, --minwidth, --inverted and top's --limit, as one
 * argp child (report and diff list it; its input is a struct cli_format).
 */
struct cli_format {
	struct output_opts *out;
	bool format_given;
	const char *svg_option; /* the last svg option given, for -f's check */
	const char *top_option; /* --limit, when given */
	const char *format_doc; /* -f's --help text for a command that takes fewer formats (diff) */
};

extern const struct argp cli_format_argp;

/* At ARGP_KEY_END, once out->format is known: an svg or top option needs its format. */
void cli_output__finish_format(const struct argp_state *state, const struct cli_format *cf);

#endif /* BPFPROF_CLI_OUTPUT_H */
