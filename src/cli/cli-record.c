/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof record` command line: its own options (stacks, formats, frame
 * names, perf's spellings) on top of the shared targets, sampling, output,
 * symbols and unwind options (cli.c and its children), and its cross-option
 * checks. Every usage error is one line on stderr naming the bad value and
 * what was expected, then exit status 64, before anything else happens.
 *
 * perf's spellings: --call-graph=fp|dwarf set --unwind; -g,
 * --call-graph=lbr and the SIZE of dwarf,SIZE change nothing and print a
 * note at the end of the parse (cli__note, silenced by -q). -F max is
 * cli-sampling.c's.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli-output.h"
#include "cli-record.h"
#include "cli-targets.h"
#include "cli-unwind.h"
#include "cli.h"
#include "interval.h"
#include "number.h"
#include "output.h"

#define MAX_STACKS_LIMIT (1u << 24)

const char *argp_program_version = "bpfprof " BPFPROF_VERSION;

/* Options without a short form. */
enum {
	OPT_MAX_DEPTH = CLI_KEY_SUBCOMMAND,
	OPT_MAX_STACKS,
	OPT_PER_PID,
	OPT_PER_THREAD,
	OPT_EMPTY_HANDLER,
	OPT_NO_INLINE,
	OPT_LINES,
	OPT_STATS,
	OPT_CALL_GRAPH,
	OPT_INTERVAL,
};

/* --interval: seconds */
#define INTERVAL_MIN 0.1
#define INTERVAL_MAX 86400

struct record_parser {
	struct cli_parser base; /* first: the shared children's input */
	struct record_opts *opts;
	bool user_only, kernel_only;
	struct cli_format fmt; /* -f, svg's and top's options (cli_format_argp) */
	/* perf's spellings that change nothing: a note each at the end */
	bool g_given;        /* -g */
	bool lbr_given;      /* --call-graph=lbr */
	const char *dwarf_size; /* the SIZE of --call-graph=dwarf,SIZE */
};

static const char doc[] =
	"Sample stacks on every CPU, aggregate them in the kernel, write folded stacks "
	"(to bpfprof.folded in the working directory unless -o), an interactive flame "
	"graph (-o FILE.svg), pprof (-o FILE.pb.gz), a table of functions (-o FILE.top) "
	"or JSON (-o FILE.json)."
	"\v"
	"Examples:\n"
	"  bpfprof record -d 10 -o out.folded\n"
	"      Profile the whole system for 10 seconds.\n"
	"  bpfprof record -p 1234 -F 999 -d 5\n"
	"      Profile process 1234, its threads and children, at 999 Hz for 5 s.\n"
	"  bpfprof record -- make -j2\n"
	"      Run make and profile it and its children until it exits; exit with "
	"make's status.\n"
	"  bpfprof record -G system.slice/nginx.service -d 30 --per-pid\n"
	"      Profile one cgroup for 30 s, one stack set per process.\n"
	"  bpfprof record -o make.svg -- make -j2\n"
	"      Profile make and draw its flame graph (open make.svg in a browser).\n"
	"  bpfprof record -f top --limit 20 -o - -- ./app\n"
	"      The 20 functions of ./app with the most samples of their own.\n"
	"\n"
	"Output: one line per unique stack, 'comm;root;...;leaf COUNT'; kernel "
	"frames end in _[k]. -o FILE.svg (or -f svg) writes bpfprof's own flame graph "
	"instead, -f top a table of functions by self and total samples, -f json the "
	"profile for scripts; other tools read the folded file too (flamegraph.pl, "
	"inferno-flamegraph, speedscope). perf's -g, "
	"--call-graph and -F max are understood. See bpfprof-record(1) for details.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Targets (default: the whole system):", CLI_GROUP_TARGETS },

	{ NULL, 0, NULL, 0, "Sampling:", CLI_GROUP_SAMPLING },
	{ "user-only", 'U', NULL, 0, "Keep user frames only (kernel time still counts)",
	  CLI_GROUP_SAMPLING },
	{ "kernel-only", 'K', NULL, 0, "Keep kernel frames only (user time still counts)",
	  CLI_GROUP_SAMPLING },
	{ "max-depth", OPT_MAX_DEPTH, "N", 0,
	  "Frames kept per user and per kernel stack (default and maximum: "
	  "kernel.perf_event_max_stack)",
	  CLI_GROUP_SAMPLING },
	{ "max-stacks", OPT_MAX_STACKS, "N", 0,
	  "Room for N unique stacks in each of the two map sets drained while sampling; "
	  "samples beyond it are counted as lost (default 16384)",
	  CLI_GROUP_SAMPLING },
	{ "call-graph", OPT_CALL_GRAPH, "MODE", 0,
	  "perf's spelling of --unwind: fp or dwarf (perf's dwarf,SIZE: the size is not "
	  "needed); lbr is not used (auto, with a note)",
	  CLI_GROUP_SAMPLING },
	{ NULL, 'g', NULL, 0,
	  "perf's switch for stacks: bpfprof always records them (a note says so)",
	  CLI_GROUP_SAMPLING },
	{ "stats", OPT_STATS, NULL, 0,
	  "Print the samples seen (of the idle task, of no target), how the stack "
	  "walks ended, the unwind tables loaded, the stack sets drained, the "
	  "processes tracked and forgotten and the BPF program's run time per "
	  "sample",
	  CLI_GROUP_OUTPUT },
	{ "empty-handler", OPT_EMPTY_HANDLER, NULL, OPTION_HIDDEN,
	  "Attach a handler that returns at once (benchmarks only)", CLI_GROUP_SAMPLING },

	{ NULL, 0, NULL, 0, "Output:", CLI_GROUP_OUTPUT },
	{ "interval", OPT_INTERVAL, "SECONDS", 0,
	  "A complete profile every SECONDS, each to its own file: -o names them with %n "
	  "(the interval's number, from 0) and %t (its start, UTC YYYYmmddTHHMMSS), e.g. "
	  "-o 'prof-%n.pb.gz'",
	  CLI_GROUP_OUTPUT },
	{ "per-pid", OPT_PER_PID, NULL, 0,
	  "Start each stack with comm-PID (pprof: a pid label)", CLI_GROUP_OUTPUT },
	{ "per-thread", OPT_PER_THREAD, NULL, 0,
	  "Start each stack with comm-PID/TID (pprof: pid and tid labels; implies --per-pid)",
	  CLI_GROUP_OUTPUT },
	{ "no-inline", OPT_NO_INLINE, NULL, 0,
	  "No inlined-call frames (FUNC_[i]); with neither them nor --lines, DWARF is not read",
	  CLI_GROUP_OUTPUT },
	{ "lines", OPT_LINES, NULL, 0,
	  "Add the source FILE:LINE to each frame name; code without a symbol keeps each "
	  "instruction's own [BINARY+0xOFFSET]",
	  CLI_GROUP_OUTPUT },

	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

/*
 * --call-graph=MODE, as perf spells it: fp and dwarf are --unwind's;
 * perf's dwarf,SIZE (the bytes of stack perf copies per sample) has no
 * use here, nor has lbr (the last branch records, which bpfprof does not
 * read): those are noted at the end.
 */
static void parse_call_graph(const struct argp_state *state, struct record_parser *p,
			     const char *arg)
{
	unsigned long long size;

	if (!strcmp(arg, "fp"))
		p->opts->unwind.mode = UNWIND_FP;
	else if (!strcmp(arg, "dwarf"))
		p->opts->unwind.mode = UNWIND_DWARF;
	else if (!strncmp(arg, "dwarf,", 6) && !number__parse_ull(arg + 6, 1, ~0ull, &size)) {
		p->opts->unwind.mode = UNWIND_DWARF;
		p->dwarf_size = arg + 6;
	} else if (!strcmp(arg, "lbr")) {
		p->opts->unwind.mode = UNWIND_AUTO;
		p->lbr_given = true;
	} else {
		cli__usage_error(state, "invalid --call-graph '%s': expected fp, dwarf, "
				 "dwarf,SIZE or lbr (perf's spellings of --unwind)", arg);
	}
}

/* perf's spellings that change nothing here, unless -q. */
static void notes(const struct argp_state *state, const struct record_parser *p)
{
	enum unwind_mode m = p->opts->unwind.mode;
	const char *mode = m == UNWIND_AUTO ? "auto: DWARF tables where a binary has them, "
					      "frame pointers elsewhere" :
					      cli_unwind__mode_name(m);

	if (p->opts->session.quiet)
		return;
	if (p->g_given)
		cli__note(state, "-g has no effect: stacks are always recorded (user stacks "
			  "unwound as --unwind=%s)", mode);
	if (p->lbr_given)
		cli__note(state, "--call-graph=lbr has no effect: bpfprof does not read the "
			  "last branch records; user stacks are unwound as --unwind=%s", mode);
	if (p->dwarf_size)
		cli__note(state, "the size in --call-graph=dwarf,%s has no effect: bpfprof "
			  "unwinds in the kernel and copies no stack", p->dwarf_size);
}

static error_t parse_record_option(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;
	struct record_opts *opts = p->opts;
	struct sampling_opts *so = &opts->session.sampling;

	switch (key) {
	case 'U':
		p->user_only = true;
		break;
	case 'K':
		p->kernel_only = true;
		break;
	case OPT_MAX_DEPTH:
		so->max_depth =
			cli__parse_integer(state, "max-depth", arg, 1, p->base.max_stack);
		break;
	case OPT_MAX_STACKS:
		so->max_stacks =
			cli__parse_integer(state, "max-stacks", arg, 1, MAX_STACKS_LIMIT);
		break;
	case OPT_EMPTY_HANDLER:
		so->empty_handler = true;
		break;
	case OPT_PER_PID:
		opts->out.per_pid = true;
		break;
	case OPT_PER_THREAD:
		opts->out.per_thread = true;
		break;
	case OPT_NO_INLINE:
		opts->session.symbols.inlines = false;
		break;
	case OPT_LINES:
		opts->session.symbols.lines = true;
		opts->out.lines = true;
		break;
	case OPT_CALL_GRAPH:
		parse_call_graph(state, p, arg);
		break;
	case 'g':
		p->g_given = true;
		break;
	case OPT_STATS:
		opts->stats = true;
		break;
	case OPT_INTERVAL:
		if (number__parse_decimal(arg, INTERVAL_MIN, INTERVAL_MAX, &opts->interval))
			cli__usage_error(state, "invalid --interval '%s': expected seconds from "
					 "%g to %d, e.g. 60", arg, INTERVAL_MIN, INTERVAL_MAX);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* --interval's -o: a name per interval (not standard output). */
static void check_interval(const struct argp_state *state, const struct record_opts *opts)
{
	const char *name = opts->session.output;
	char why[256];

	if (!strcmp(name, "-"))
		cli__usage_error(state, "invalid --output '-' with --interval: expected a file "
				 "name with %%n or %%t, one file per interval");
	if (interval__check(name, opts->interval, why, sizeof(why)))
		cli__usage_error(state, "invalid --output '%s' with --interval: %s", name, why);
}

/* Cross-option checks and derived fields, once every argument is seen. */
static void finish(const struct argp_state *state, struct record_parser *p)
{
	struct record_opts *opts = p->opts;
	struct sampling_opts *so = &opts->session.sampling;

	if (p->user_only && p->kernel_only)
		cli__usage_error(
			state,
			"-U/--user-only and -K/--kernel-only cannot be used together");
	cli__finish(state, &p->base);
	if (p->user_only)
		so->stacks = STACKS_USER_ONLY;
	else if (p->kernel_only)
		so->stacks = STACKS_KERNEL_ONLY;
	opts->session.kallsyms = so->stacks != STACKS_USER_ONLY;
	opts->session.bpf_stats = opts->stats;
	if (opts->out.per_thread)
		opts->out.per_pid = true;
	if (opts->interval && !opts->session.output)
		cli__usage_error(state, "--interval writes a file per interval: expected -o "
				 "with %%n or %%t in the name, e.g. -o 'prof-%%n.folded'");
	cli_output__finish(state, &opts->session, OUTPUT_PROFILE, &opts->out.format,
			   p->fmt.format_given);
	if (opts->interval)
		check_interval(state, opts);
	/* lines the profile keeps (a format that shows them: pprof) are read from DWARF */
	if (!output__drop_lines(&opts->out))
		opts->session.symbols.lines = true;
	cli_output__finish_format(state, &p->fmt);
	notes(state, p); /* last: no usage error follows a note */
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		cli__init_profile_children(state, &p->base, &p->fmt);
		return 0;
	case ARGP_KEY_ARG:
		cli_targets__command(state, p->base.opts, arg);
		return 0;
	case ARGP_KEY_END:
		finish(state, p);
		return 0;
	default:
		return parse_record_option(key, arg, state);
	}
}

static const struct argp record_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[-- COMMAND [ARG...]]",
	.doc = doc,
	.children = cli_profile_children,
};

void cli_record__parse(int argc, char **argv, struct record_opts *opts)
{
	struct record_parser p = { .opts = opts, .fmt.out = &opts->out };

	memset(opts, 0, sizeof(*opts));
	cli__defaults(&p.base, &opts->session, &opts->unwind);
	cli__parse(&record_argp, "record", argc, argv, &p);
}

void cli_record__free(struct record_opts *opts)
{
	cli__free(&opts->session);
}
