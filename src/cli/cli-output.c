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
#include "number.h"

/* svg's --width: pixels; --minwidth: at most the width itself */
#define SVG_WIDTH_MIN 100
#define SVG_WIDTH_MAX 100000

enum {
	OPT_TITLE = CLI_KEY_FORMAT,
	OPT_SUBTITLE,
	OPT_WIDTH,
	OPT_MINWIDTH,
	OPT_INVERTED,
	OPT_LIMIT,
};

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
	  "bpfprof-range.txt, in the working directory). A symlink in a directory "
	  "another user owns or can write is refused",
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

static const struct argp_option format_options[] = {
	{ "format", 'f', "FORMAT", 0,
	  "Output format: folded, pprof, svg, top or json (default: from the FILE "
	  "extension, .pb.gz for pprof, .svg for svg, .top for top, .json for json, else "
	  "folded)",
	  CLI_GROUP_OUTPUT },
	{ "title", OPT_TITLE, "TEXT", 0, "svg: the title (default: Flame Graph)",
	  CLI_GROUP_OUTPUT },
	{ "subtitle", OPT_SUBTITLE, "TEXT", 0,
	  "svg: the line under the title (default: what ran or was read, the event and rate, "
	  "duration and samples)",
	  CLI_GROUP_OUTPUT },
	{ "width", OPT_WIDTH, "PIXELS", 0, "svg: the image width (default 1200)",
	  CLI_GROUP_OUTPUT },
	{ "minwidth", OPT_MINWIDTH, "PIXELS", 0,
	  "svg: leave out frames narrower than PIXELS (default 0.1), so huge profiles "
	  "stay small",
	  CLI_GROUP_OUTPUT },
	{ "inverted", OPT_INVERTED, NULL, 0, "svg: an icicle graph (the root at the top)",
	  CLI_GROUP_OUTPUT },
	{ "limit", OPT_LIMIT, "N", 0,
	  "top: only the N functions with the most self samples (default: all)",
	  CLI_GROUP_OUTPUT },
	{ 0 },
};

static error_t parse_format(int key, char *arg, struct argp_state *state)
{
	struct cli_format *cf = state->input;
	struct output_opts *out = cf->out;

	switch (key) {
	case 'f':
		out->format = cli_output__format(state, OUTPUT_PROFILE, arg);
		cf->format_given = true;
		break;
	case OPT_TITLE:
		out->svg.title = arg;
		cf->svg_option = "--title";
		break;
	case OPT_SUBTITLE:
		out->svg.subtitle = arg;
		cf->svg_option = "--subtitle";
		break;
	case OPT_WIDTH:
		out->svg.width =
			cli__parse_integer(state, "width", arg, SVG_WIDTH_MIN, SVG_WIDTH_MAX);
		cf->svg_option = "--width";
		break;
	case OPT_MINWIDTH:
		if (number__parse_decimal(arg, 0, SVG_WIDTH_MAX, &out->svg.minwidth))
			cli__usage_error(state, "invalid --minwidth '%s': expected pixels from 0 "
					 "to %d, e.g. 0.5", arg, SVG_WIDTH_MAX);
		out->svg.minwidth_given = true;
		cf->svg_option = "--minwidth";
		break;
	case OPT_INVERTED:
		out->svg.inverted = true;
		cf->svg_option = "--inverted";
		break;
	case OPT_LIMIT:
		out->limit = cli__parse_integer(state, "limit", arg, 1, ~0ull >> 1);
		cf->top_option = "--limit";
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* --help: a command that takes fewer formats says which (argp frees what it gets) */
static char *filter_format_doc(int key, const char *text, void *input)
{
	const struct cli_format *cf = input;

	if (key != 'f' || !cf || !cf->format_doc)
		return (char *)text;
	return strdup(cf->format_doc) ?: (char *)text;
}

const struct argp cli_format_argp = { .options = format_options, .parser = parse_format,
				      .help_filter = filter_format_doc };

void cli_output__finish_format(const struct argp_state *state, const struct cli_format *cf)
{
	cli_output__format_option(state, cf->svg_option, cf->out->format, &output_svg);
	cli_output__format_option(state, cf->top_option, cf->out->format, &output_top);
}
