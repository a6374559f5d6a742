/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof top` command line: --delay and --limit, and the targets,
 * sampling, output and symbols options it shares with record (cli.c's
 * children): -o names a file for the plain tables instead of standard
 * output (no default file), -q drops the line at the end.
 */
#include <argp.h>
#include <string.h>

#include "cli-targets.h"
#include "cli-top.h"
#include "cli.h"
#include "number.h"

/* Options without a short form. */
enum {
	OPT_DELAY = CLI_KEY_SUBCOMMAND,
	OPT_LIMIT,
};

/* --delay: seconds */
#define DELAY_MIN 0.1
#define DELAY_MAX 3600

struct top_parser {
	struct cli_parser base; /* first: the shared children's input */
	struct top_opts *opts;
};

static const char doc[] =
	"Show the hottest functions live, as perf top does: sample stacks on every CPU "
	"and, every --delay seconds, the functions with the most samples of their own in "
	"that window, full screen on a terminal (q or Ctrl-C quits), a plain table a "
	"refresh when standard output is not one."
	"\v"
	"Examples:\n"
	"  bpfprof top\n"
	"      The whole system, refreshed every second.\n"
	"  bpfprof top -p 1234 --delay 2\n"
	"      Process 1234, its threads and children, every 2 seconds.\n"
	"  bpfprof top -d 10 --limit 5 -o top.txt -- ./app\n"
	"      Run ./app for at most 10 s; its 5 hottest functions every second, as text "
	"in top.txt (-o: plain tables to FILE instead of standard output).\n"
	"\n"
	"Each refresh shows only the samples of its own window (no decay, no total since "
	"the start): self% and self are the samples in which the function is the leaf, "
	"total% those that hold it anywhere on the stack. -d is the run's duration, as in "
	"record; perf top's -d is --delay here. See bpfprof-top(1) for details.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Targets (default: the whole system):", CLI_GROUP_TARGETS },
	{ NULL, 0, NULL, 0, "Sampling:", CLI_GROUP_SAMPLING },
	{ NULL, 0, NULL, 0, "Output:", CLI_GROUP_OUTPUT },
	{ "delay", OPT_DELAY, "SECONDS", 0,
	  "Refresh every SECONDS, each refresh showing that window's samples (default 1)",
	  CLI_GROUP_OUTPUT },
	{ "limit", OPT_LIMIT, "N", 0,
	  "At most N functions a refresh (default: what fits the terminal; 20 when "
	  "standard output is not a terminal)",
	  CLI_GROUP_OUTPUT },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct top_parser *p = state->input;
	struct top_opts *opts = p->opts;

	switch (key) {
	case ARGP_KEY_INIT:
		cli__init_children(state, &p->base);
		break;
	case ARGP_KEY_ARG:
		cli_targets__command(state, p->base.opts, arg);
		break;
	case ARGP_KEY_END:
		cli__finish(state, &p->base);
		opts->session.kallsyms = true;
		break;
	case OPT_DELAY:
		if (number__parse_decimal(arg, DELAY_MIN, DELAY_MAX, &opts->delay))
			cli__usage_error(state, "invalid --delay '%s': expected seconds from %g "
					 "to %d, e.g. 2", arg, DELAY_MIN, DELAY_MAX);
		break;
	case OPT_LIMIT:
		opts->limit = cli__parse_integer(state, "limit", arg, 1, ~0ull >> 1);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp top_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[-- COMMAND [ARG...]]",
	.doc = doc,
	.children = cli_children,
};

void cli_top__parse(int argc, char **argv, struct top_opts *opts)
{
	struct top_parser p = { .opts = opts };

	memset(opts, 0, sizeof(*opts));
	cli__defaults(&p.base, &opts->session, &opts->unwind);
	opts->delay = TOP_DEFAULT_DELAY;
	cli__parse(&top_argp, "top", argc, argv, &p);
}

void cli_top__free(struct top_opts *opts)
{
	cli__free(&opts->session);
}
