/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch` command line: LOCATION arguments (checked by watchspec,
 * so a malformed one is a usage error before anything runs), --access,
 * --if, --values, --count, and the targets and output options it shares
 * with record (cli.c and its children). The command, if any, follows "--".
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-output.h"
#include "cli-targets.h"
#include "cli-watch.h"
#include "cli.h"
#include "exit.h"
#include "output.h"
#include "procfs.h"
#include "watchspec.h"

/* Options without a short form. */
enum {
	OPT_ACCESS = CLI_KEY_SUBCOMMAND,
	OPT_IF,
	OPT_ROTATE,
	OPT_VALUES,
	OPT_COUNT,
	OPT_PER_PID,
	OPT_PER_THREAD,
	OPT_LINES,
	OPT_TRAP,
};

struct watch_parser {
	struct cli_parser base; /* first: the shared children's input */
	struct watch_opts *wo;
	struct cli_format fmt; /* -f, svg's and top's options (cli_format_argp) */
	const char *kernel_location; /* the first kernel: LOCATION, or NULL */
};

static const char doc[] =
	"Watch data (or code) with hardware breakpoints: every access is counted in the "
	"kernel with the stack of the code that made it; write the stacks as record does "
	"(to bpfprof.folded unless -o) and a summary per location on stderr."
	"\v"
	"LOCATION is one of:\n"
	"  SYMBOL              a data symbol of the target's executable (counter)\n"
	"  BINARY:SYMBOL       a symbol of a file the target maps, now or later (libfoo.so:state)\n"
	"  0xADDRESS           an address of the one target process\n"
	"  kernel:SYMBOL       kernel data, system-wide with -a (kernel:jiffies:8)\n"
	"followed by +OFFSET (bytes), :LEN (1, 2, 4 or 8; default: the symbol's "
	"size) and *COUNT: COUNT elements of LEN bytes (ring:4*16), each a location "
	"named ring[0], ring[1], ... x86-64 has 4 debug registers: more locations take "
	"turns on them (--rotate), and the summary estimates each one's accesses over "
	"the run from those seen while it was watched.\n"
	"\n"
	"--if EXPR: terms joined by &&, each OPERAND[&MASK] OP CONSTANT, with OPERAND "
	"value, tid, pid or a register (rdi, rsi, rdx, rcx, r8, r9, rax, ..., ip, sp), "
	"OP == != < <= > >=; a constant with a sign (-1, +5) compares signed. At most 8 "
	"terms.\n"
	"\n"
	"Examples:\n"
	"  bpfprof watch counter -- ./app\n"
	"      Who writes the global 'counter' of ./app, from its exec until it exits.\n"
	"  bpfprof watch -p 1234 -d 5 --values --if 'value == 7' state\n"
	"      Writes of 7 to 'state' in process 1234 for 5 s, and the values written.\n"
	"  bpfprof watch --access=x --if 'rdi == 3' process_item -- ./app\n"
	"      The calls of process_item with 3 as its first argument.\n"
	"  bpfprof watch -a -d 1 --access=r kernel:jiffies:8\n"
	"      Who reads jiffies, system-wide, for 1 s.\n"
	"  bpfprof watch --trap --if 'value == 0' refcount -- ./app\n"
	"      ./app gets a SIGTRAP at the instruction that writes 0 to 'refcount' (a core "
	"dump there, or its debugger's stop).\n"
	"  bpfprof watch -p 1234 -d 10 slots:8*32\n"
	"      The writes to each of the 32 elements of slots, 4 watched at a time.\n"
	"\n"
	"See bpfprof-watch(1) for details.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Targets (default: the whole system):", CLI_GROUP_TARGETS },
	{ NULL, 0, NULL, 0, "Sampling:", CLI_GROUP_SAMPLING },
	{ "access", OPT_ACCESS, "TYPE", 0,
	  "w (default: writes), r (reads; x86 watches reads and writes), rw, or x (an "
	  "instruction breakpoint: LOCATION is code)",
	  CLI_GROUP_SAMPLING },
	{ "if", OPT_IF, "EXPR", 0,
	  "Keep only the accesses for which EXPR holds, evaluated in the kernel "
	  "(the others are counted as dropped)",
	  CLI_GROUP_SAMPLING },
	{ "rotate", OPT_ROTATE, "MS", 0,
	  "More locations than the 4 debug registers: move the breakpoints to the next "
	  "ones every MS milliseconds (default 10)",
	  CLI_GROUP_SAMPLING },
	{ "count", OPT_COUNT, "N", 0, "Stop after N accesses (that match --if); the profile "
	  "holds exactly N", CLI_GROUP_SAMPLING },
	{ "trap", OPT_TRAP, NULL, 0,
	  "Send the accessing thread a synchronous SIGTRAP at each access (that matches "
	  "--if): si_code TRAP_PERF, si_perf_data the location's index (0 for the first); "
	  "without a handler the target dumps core there",
	  CLI_GROUP_SAMPLING },
	{ NULL, 0, NULL, 0, "Output:", CLI_GROUP_OUTPUT },
	{ "values", OPT_VALUES, NULL, 0,
	  "A histogram of the values seen at each location (after a write: the new value)",
	  CLI_GROUP_OUTPUT },
	{ "per-pid", OPT_PER_PID, NULL, 0, "Start each stack with comm-PID", CLI_GROUP_OUTPUT },
	{ "per-thread", OPT_PER_THREAD, NULL, 0,
	  "Start each stack with comm-PID/TID (implies --per-pid)", CLI_GROUP_OUTPUT },
	{ "lines", OPT_LINES, NULL, 0, "Add the source FILE:LINE to each frame name",
	  CLI_GROUP_OUTPUT },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

static void parse_location(const struct argp_state *state, struct watch_parser *p, char *arg)
{
	struct watch_opts *wo = p->wo;
	struct watchspec w;
	const char *why;
	int err = watchspec__parse(arg, &w, &why);

	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "LOCATION");
	if (err)
		cli__usage_error(state, "invalid location '%s': %s", arg, why);
	if (w.kind == WATCH_KERNEL_SYM && !p->kernel_location)
		p->kernel_location = arg;
	watchspec__free(&w);
	wo->locations[wo->nr_locations++] = arg;
}

static void parse_if(const struct argp_state *state, struct watch_opts *wo, const char *arg)
{
	char why[256];
	int err = watchspec__parse_if(arg, wo->terms, &wo->nr_terms, why, sizeof(why));

	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--if");
	if (err)
		cli__usage_error(state, "invalid --if '%s': %s", arg, why);
	wo->cond = arg;
}

/*
 * --trap: the kernel sends SIGTRAP only to the task of a per-task event,
 * and before 6.10 it sends it for every access, whatever the program
 * returns (so --if could not choose the accesses that trap).
 */
static void check_trap(const struct argp_state *state, const struct watch_parser *p)
{
	unsigned int major = 0, minor = 0;

	if (!p->wo->trap)
		return;
	if (p->kernel_location)
		cli__usage_error(state, "--trap cannot watch '%s': kernel data is watched per CPU, "
				 "and a trap goes to the thread of a per-thread breakpoint",
				 p->kernel_location);
	if (p->wo->nr_terms && !procfs__kernel_version(&major, &minor) &&
	    (major < 6 || (major == 6 && minor < 10)))
		cli__usage_error(state, "--trap with --if needs Linux 6.10 or later (this is %u.%u): "
				 "before it a BPF program cannot keep a breakpoint's SIGTRAP from "
				 "being sent, so every access would trap",
				 major, minor);
}

/* Sampling options that mean nothing here: every access is one sample. */
static void check_sampling(const struct argp_state *state, const struct watch_parser *p)
{
	const struct evspec_list *ev = &p->base.events;

	/* (-e cpu-clock, the default, says nothing) */
	if (p->base.freq_given || p->base.period_given || ev->nr > 1 ||
	    (ev->nr && strcmp(ev->events[0].name, "cpu-clock")))
		cli__usage_error(state, "-e, -F and -c have no use in watch: every access to a "
				 "location is one sample (a breakpoint's period is 1)");
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct watch_parser *p = state->input;
	struct watch_opts *wo = p->wo;

	switch (key) {
	case ARGP_KEY_INIT:
		cli__init_profile_children(state, &p->base, &p->fmt);
		break;
	case ARGP_KEY_ARG:
		if (cli__after_separator(state, arg))
			cli_targets__command(state, p->base.opts, arg);
		else
			parse_location(state, p, arg);
		break;
	case ARGP_KEY_END:
		if (!wo->nr_locations)
			cli__usage_error(state, "no LOCATION given: expected at least one, e.g. "
						"counter or kernel:jiffies:8");
		check_sampling(state, p);
		check_trap(state, p);
		cli__finish(state, &p->base);
		wo->session.kallsyms = true;
		if (wo->out.per_thread)
			wo->out.per_pid = true;
		cli_output__finish(state, &wo->session, OUTPUT_PROFILE, &wo->out.format,
				   p->fmt.format_given);
		cli_output__finish_format(state, &p->fmt);
		break;
	case OPT_ACCESS:
		if (watchspec__parse_access(arg, &wo->access))
			cli__usage_error(state, "invalid --access '%s': expected w, r, rw or x", arg);
		break;
	case OPT_IF:
		parse_if(state, wo, arg);
		break;
	case OPT_ROTATE:
		wo->rotate_ms = cli__parse_integer(state, "rotate", arg, 1, 60000);
		break;
	case OPT_VALUES:
		wo->values = true;
		break;
	case OPT_COUNT:
		wo->count = cli__parse_integer(state, "count", arg, 1, ~0ull >> 1);
		break;
	case OPT_PER_PID:
		wo->out.per_pid = true;
		break;
	case OPT_PER_THREAD:
		wo->out.per_thread = true;
		break;
	case OPT_LINES:
		wo->session.symbols.lines = true;
		wo->out.lines = true;
		break;
	case OPT_TRAP:
		wo->trap = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp watch_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "LOCATION... [-- COMMAND [ARG...]]",
	.doc = doc,
	.children = cli_profile_children,
};

void cli_watch__parse(int argc, char **argv, struct watch_opts *wo)
{
	struct watch_parser p = { .wo = wo, .fmt.out = &wo->out };

	memset(wo, 0, sizeof(*wo));
	cli__defaults(&p.base, &wo->session, &wo->unwind);
	/* the summary names each access's source line; frames show it with --lines */
	wo->session.symbols.lines = true;
	wo->access = WATCH_ACCESS_W;
	wo->rotate_ms = 10;
	wo->locations = calloc(argc > 0 ? argc : 1, sizeof(*wo->locations));
	if (!wo->locations) {
		fprintf(stderr, "bpfprof watch: %s\n", strerror(ENOMEM));
		exit(EXIT_RUNTIME);
	}
	cli__parse(&watch_argp, "watch", argc, argv, &p);
}

void cli_watch__free(struct watch_opts *wo)
{
	cli__free(&wo->session);
	free(wo->locations);
	wo->locations = NULL;
	wo->nr_locations = 0;
}
