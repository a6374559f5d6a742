// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `bpfprof report FILE`: a saved profile (pprof, ours or another
 * producer's, or folded stacks) read back and written in any profile
 * format. Its options are the output's (-o, -q, -f and the writers'
 * options) and --value, --max-input, --lines; `diff` (cli-diff.c) shares them. No
 * targets, no sampling: nothing here needs root.
 */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-report.h"
#include "escape.h"
#include "exit.h"
#include "number.h"
#include "output.h"

enum {
	OPT_VALUE = CLI_KEY_SUBCOMMAND,
	OPT_LINES,
	OPT_MAX_INPUT,
};

/* --max-input's range: a small profile's bound, to what a big machine holds */
#define MAX_INPUT_MIN (64ull << 10)
#define MAX_INPUT_MAX (16ull << 30)

static const char doc[] =
	"Read a saved profile back and write it in any format: a pprof profile "
	"(bpfprof's own, Go's runtime/pprof's or any other producer's; gzipped or not) "
	"or folded stacks, written as folded stacks (to bpfprof.folded in the working "
	"directory unless -o), a flame graph (-o FILE.svg), pprof (-o FILE.pb.gz), a "
	"table of functions (-o FILE.top) or JSON (-o FILE.json)."
	"\v"
	"Examples:\n"
	"  bpfprof report -o - app.pb.gz\n"
	"      bpfprof's (or Go's) pprof profile as folded stacks on standard output.\n"
	"  bpfprof report -o app.svg app.folded\n"
	"      A flame graph of a folded file.\n"
	"  bpfprof report --value=cpu -f top -o - cpu.pprof\n"
	"      Go's CPU profile by its cpu/nanoseconds values, as a table of functions.\n"
	"\n"
	"A truncated, corrupt or foreign file is refused with one line saying why (exit "
	"status 64). See bpfprof-report(1) for the details.";

const struct argp_option cli_report_options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "value", OPT_VALUE, "TYPE", 0,
	  "pprof: count the values of sample type TYPE (default: the profile's "
	  "default_sample_type, else the first: bpfprof's samples; Go's: samples or cpu)",
	  1 },
	{ "max-input", OPT_MAX_INPUT, "SIZE", 0,
	  "The most a gzipped profile may inflate to (K, M, G suffixes; default: 64 "
	  "times its size, at least 1M, at most 256M)", 1 },
	{ NULL, 0, NULL, 0, "Output:", CLI_GROUP_OUTPUT },
	{ "lines", OPT_LINES, NULL, 0,
	  "Add the source FILE:LINE a pprof gives to each frame name", CLI_GROUP_OUTPUT },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

const struct argp_child cli_report_children[] = {
	{ &cli_output_argp },
	{ &cli_format_argp },
	{ 0 },
};

/* diff writes a flame graph or folded lines, and by default the flame graph. */
static void cli_report__diff_format(const struct argp_state *state,
				    struct cli_report_parser *p)
{
	struct output_opts *out = &p->r->opts.out;
	struct report_opts *o = &p->r->opts;

	if (out->format != &output_svg && out->format != &output_folded)
		cli__usage_error(state, "invalid %s%s: diff writes svg (a differential flame "
				 "graph) or folded ('stack BASE NEW' lines); expected -f svg, -f "
				 "folded, -o FILE.svg or -o FILE.folded",
				 p->fmt.format_given ? "--format " : "--output ",
				 p->fmt.format_given ? out->format->name : p->so.output);
	if (!out->svg.title)
		out->svg.title = "Differential Flame Graph";
	if (!out->svg.subtitle &&
	    asprintf(&p->r->subtitle, "%s -> %s: sized by the second; red: its share grew, "
		     "blue: shrank", o->base, o->input) >= 0)
		out->svg.subtitle = p->r->subtitle;
}

static void cli_report__finish(const struct argp_state *state, struct cli_report_parser *p)
{
	struct cli_report *r = p->r;
	bool diff = p->want_args == 2;

	if (p->nr_args < p->want_args)
		cli__usage_error(state, "%s: expected %s", p->nr_args ? "one profile only" :
				 "no profile given", diff ? "BASE and NEW, each a pprof profile or "
				 "folded stacks" : "a FILE, a pprof profile or folded stacks");
	r->opts.input = p->args[p->want_args - 1];
	r->opts.base = diff ? p->args[0] : NULL;
	/* diff without -f or -o: the flame graph */
	if (diff && !p->fmt.format_given && !p->so.output) {
		r->opts.out.format = &output_svg;
		p->fmt.format_given = true;
	}
	cli_output__finish(state, &p->so, OUTPUT_PROFILE, &r->opts.out.format,
			   p->fmt.format_given);
	cli_output__finish_format(state, &p->fmt);
	if (diff)
		cli_report__diff_format(state, p);
	r->opts.output = p->so.output;
	r->opts.output_default = p->so.output_default;
	r->opts.out.run.target = r->opts.input;
	r->quiet = p->so.quiet;
}

error_t cli_report__parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cli_report_parser *p = state->input;
	unsigned long long size;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &p->base;
		state->child_inputs[1] = &p->fmt;
		break;
	case ARGP_KEY_ARG:
		if (p->nr_args == p->want_args)
			cli__usage_error(state, "unexpected argument '%s': expected %s", arg,
					 p->want_args == 2 ? "BASE and NEW only" : "one FILE only");
		p->args[p->nr_args++] = arg;
		break;
	case ARGP_KEY_END:
		cli_report__finish(state, p);
		break;
	case OPT_VALUE:
		p->r->opts.value = arg;
		break;
	case OPT_LINES:
		p->r->opts.out.lines = true;
		break;
	case OPT_MAX_INPUT:
		if (number__parse_size(arg, MAX_INPUT_MIN, MAX_INPUT_MAX, &size))
			cli__usage_error(state, "invalid --max-input '%s': expected a size from "
					 "64K to 16G, e.g. 1G", arg);
		p->r->opts.max_input = size;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp report_argp = {
	.options = cli_report_options,
	.parser = cli_report__parse_opt,
	.args_doc = "FILE",
	.doc = doc,
	.children = cli_report_children,
};

void cli_report__parse(int argc, char **argv, struct cli_report *r)
{
	struct cli_report_parser p = { .r = r, .want_args = 1 };

	memset(r, 0, sizeof(*r));
	p.base.opts = &p.so;
	p.fmt.out = &r->opts.out;
	cli__parse(&report_argp, "report", argc, argv, &p);
}

int cli_report__run(const char *cmd, const struct cli_report *r)
{
	struct report_summary sum;
	char why[1024];
	bool usage;
	int err = report__run(&r->opts, &sum, why, sizeof(why), &usage);

	if (err) {
		fprintf(stderr, "bpfprof %s: ", cmd);
		escape__write(stderr, why, strlen(why));
		fputc('\n', stderr);
		return usage ? EXIT_USAGE : EXIT_RUNTIME;
	}
	if (r->quiet)
		return 0;
	fprintf(stderr, "bpfprof %s: ", cmd);
	if (r->opts.base)
		fprintf(stderr, "%llu base samples (%s), %llu new samples (%s), ",
			(unsigned long long)sum.base_samples, sum.base_format,
			(unsigned long long)sum.samples, sum.format);
	else
		fprintf(stderr, "%llu samples read (%s), ", (unsigned long long)sum.samples,
			sum.format);
	fprintf(stderr, "%zu unique stacks written (%s)", sum.rows, r->opts.out.format->name);
	if (strcmp(r->opts.output, "-")) {
		fputs(" to '", stderr);
		escape__write(stderr, r->opts.output, strlen(r->opts.output));
		fputc('\'', stderr);
	}
	fputc('\n', stderr);
	return 0;
}

void cli_report__free(struct cli_report *r)
{
	free(r->subtitle);
}
