/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof range` command line: RANGE arguments (checked by rangespec, so
 * a malformed one is a usage error before anything runs), the listing
 * options, and the targets, sampling and output options it shares with
 * record (cli.c and its children). The command, if any, follows "--".
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-output.h"
#include "cli-range.h"
#include "cli-targets.h"
#include "cli.h"
#include "output.h"
#include "rangespec.h"
#include "exit.h"

/* Options without a short form. */
enum {
	OPT_SORT = CLI_KEY_SUBCOMMAND,
	OPT_NO_DISASM,
	OPT_NO_SOURCE,
	OPT_STACKS,
};

struct range_parser {
	struct cli_parser base; /* first: the shared children's input */
	struct range_opts *ro;
	bool format_given;
};

static const char doc[] =
	"Keep only the samples inside address ranges, count them per instruction in "
	"the kernel, and list each range's instructions with their samples, source lines "
	"and disassembly."
	"\v"
	"RANGE is one of:\n"
	"  SYMBOL, kernel:SYMBOL     a kernel function (kernel:vfs_read)\n"
	"  kernel:0xSTART-0xEND      kernel addresses (or kernel:0xSTART+LEN)\n"
	"  BINARY:SYMBOL             a function of an executable or library, by path or "
	"file name (libc.so.6:memset); NAME@plt is its PLT stub for NAME (app:puts@plt)\n"
	"  BINARY:0xSTART-0xEND      ELF virtual addresses of that binary (or +LEN)\n"
	"  0xSTART-0xEND             absolute addresses: kernel ones, or of the one target "
	"process\n"
	"A binary's ranges are counted in every target process that maps it: at the "
	"start, and libraries and processes that appear later (dlopen, a command's "
	"binaries, children).\n"
	"\n"
	"Examples:\n"
	"  bpfprof range -p 1234 -F 999 -d 5 libc.so.6:memset\n"
	"      Where in memset process 1234 spends its time, for 5 s.\n"
	"  bpfprof range -F 999 -d 3 --sort=samples kernel:read_zero\n"
	"      The hottest instructions of read_zero, system-wide.\n"
	"  bpfprof range -F 999 vfs_read -- dd if=/dev/zero of=/dev/null count=1M\n"
	"      vfs_read while dd runs (the command follows --).\n"
	"\n"
	"See bpfprof-range(1) for the listing.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Targets (default: the whole system):", CLI_GROUP_TARGETS },
	{ NULL, 0, NULL, 0, "Sampling:", CLI_GROUP_SAMPLING },
	{ NULL, 0, NULL, 0, "Output:", CLI_GROUP_OUTPUT },
	{ "format", 'f', "FORMAT", 0,
	  "Listing format: text or json (default: json for -o NAME.json, else text)",
	  CLI_GROUP_OUTPUT },
	{ "sort", OPT_SORT, "ORDER", 0,
	  "Instructions by address (default) or by samples, hottest first",
	  CLI_GROUP_OUTPUT },
	{ "no-disasm", OPT_NO_DISASM, NULL, 0, "No instruction column", CLI_GROUP_OUTPUT },
	{ "stacks", OPT_STACKS, "FILE", 0,
	  "Also write the stacks of the samples in the ranges to FILE, as record "
	  "does (format from the extension; folded by default)",
	  CLI_GROUP_OUTPUT },
	{ "no-source", OPT_NO_SOURCE, NULL, 0,
	  "No source lines (column and hottest lines); DWARF is not read", CLI_GROUP_OUTPUT },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

static void parse_sort(const struct argp_state *state, struct range_opts *ro, const char *arg)
{
	if (!strcmp(arg, "address"))
		ro->out.sort = SORT_ADDRESS;
	else if (!strcmp(arg, "samples"))
		ro->out.sort = SORT_SAMPLES;
	else
		cli__usage_error(state, "invalid --sort '%s': expected address, samples", arg);
}

static void parse_range(const struct argp_state *state, struct range_opts *ro, char *arg)
{
	struct rangespec r;
	const char *why;
	int err = rangespec__parse(arg, &r, &why);

	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "RANGE");
	if (err)
		cli__usage_error(state, "invalid range '%s': %s", arg, why);
	rangespec__free(&r);
	ro->ranges[ro->nr_ranges++] = arg;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct range_parser *p = state->input;
	struct range_opts *ro = p->ro;
	char why[256];

	switch (key) {
	case ARGP_KEY_INIT:
		cli__init_children(state, &p->base);
		break;
	case ARGP_KEY_ARG:
		if (cli__after_separator(state, arg))
			cli_targets__command(state, p->base.opts, arg);
		else
			parse_range(state, ro, arg);
		break;
	case ARGP_KEY_END:
		if (!ro->nr_ranges)
			cli__usage_error(state, "no RANGE given: expected at least one, e.g. "
						"kernel:vfs_read or libc.so.6:memset");
		if (p->base.events.nr > 1)
			cli__usage_error(state, "range samples one event: '%s' is a second "
					 "-e event (record samples several)",
					 p->base.events.events[1].name);
		if (p->base.unwind_option && !ro->stacks)
			cli__usage_error(state, "%s is for the stacks --stacks writes: expected "
					 "--stacks FILE with it", p->base.unwind_option);
		cli__finish(state, &p->base);
		ro->session.kallsyms = ro->stacks && ro->session.sampling.stacks != STACKS_USER_ONLY;
		cli_output__finish(state, &ro->session, OUTPUT_LISTING, &ro->out.format,
				   p->format_given);
		break;
	case 'f':
		ro->out.format = cli_output__format(state, OUTPUT_LISTING, arg);
		p->format_given = true;
		break;
	case OPT_SORT:
		parse_sort(state, ro, arg);
		break;
	case OPT_NO_DISASM:
		ro->out.disasm = false;
		break;
	case OPT_NO_SOURCE:
		ro->out.source = false;
		break;
	case OPT_STACKS:
		if (!*arg)
			cli__usage_error(state, "invalid --stacks '': expected a file name");
		if (output__check_file(OUTPUT_PROFILE, arg, why, sizeof(why)))
			cli__usage_error(state, "invalid --stacks '%s': %s", arg, why);
		ro->stacks = arg;
		ro->stacks_out.format = output__by_file(OUTPUT_PROFILE, arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp range_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "RANGE... [-- COMMAND [ARG...]]",
	.doc = doc,
	.children = cli_children,
};

void cli_range__parse(int argc, char **argv, struct range_opts *ro)
{
	struct range_parser p = { .ro = ro };

	memset(ro, 0, sizeof(*ro));
	cli__defaults(&p.base, &ro->session, &ro->unwind);
	ro->out.disasm = true;
	ro->out.source = true;
	ro->ranges = calloc(argc > 0 ? argc : 1, sizeof(*ro->ranges));
	if (!ro->ranges) {
		fprintf(stderr, "bpfprof range: %s\n", strerror(ENOMEM));
		exit(EXIT_RUNTIME);
	}
	cli__parse(&range_argp, "range", argc, argv, &p);
}

void cli_range__free(struct range_opts *ro)
{
	cli__free(&ro->session);
	free(ro->ranges);
	ro->ranges = NULL;
	ro->nr_ranges = 0;
}
