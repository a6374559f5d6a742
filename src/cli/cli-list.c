// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `bpfprof list [PATTERN...]`: every event bpfprof can name and whether it
 * opens here. --available, -f text|json, and the hidden --sysfs-root
 * (tests: another machine's PMUs). No targets, no sampling, no BPF.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-list.h"
#include "cli.h"
#include "escape.h"
#include "exit.h"

enum {
	OPT_AVAILABLE = CLI_KEY_SUBCOMMAND,
	OPT_SYSFS_ROOT,
};

static const char doc[] =
	"List every event bpfprof can sample (-e), grouped by kind: software, "
	"hardware, cache, raw, each PMU's named events (sysfs; libpfm4's with their "
	"descriptions when built with it), breakpoints. Each is opened and closed on "
	"this machine to say whether it can be used and, if not, why: no hardware PMU, "
	"the PMU lacks it or cannot sample it, permissions."
	"\v"
	"PATTERN: a glob (*, ?, [...]) matches whole names; other text a part of a "
	"name, or a kind or PMU by its whole name; case is ignored.\n"
	"\n"
	"Examples:\n"
	"  bpfprof list --available\n"
	"      The events that can be sampled here.\n"
	"  bpfprof list 'cpu-*' cache\n"
	"      The names starting with cpu-, and the cache events.\n"
	"  bpfprof list -f json | jq '.[] | select(.available) | .name'\n"
	"      The same for scripts.\n"
	"\n"
	"Exit status 1 when no event matches. See bpfprof-list(1) for the details.";

static const struct argp_option options[] = {
	{ "available", OPT_AVAILABLE, NULL, 0, "Only the events that can be opened here",
	  0 },
	{ "format", 'f', "FORMAT", 0, "text (the default: aligned columns) or json", 0 },
	{ "sysfs-root", OPT_SYSFS_ROOT, "DIR", OPTION_HIDDEN,
	  "Read the PMUs under DIR instead of /sys/bus/event_source/devices", 0 },
	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct cli_list *l = state->input;
	char **patterns;

	switch (key) {
	case ARGP_KEY_ARG:
		patterns = realloc(l->patterns,
				   (l->opts.nr_patterns + 1) * sizeof(*patterns));
		if (!patterns)
			cli__usage_error(state, "out of memory");
		l->patterns = patterns;
		patterns[l->opts.nr_patterns++] = arg;
		l->opts.patterns = patterns;
		break;
	case OPT_AVAILABLE:
		l->opts.available = true;
		break;
	case 'f':
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			cli__usage_error(state,
					 "invalid --format '%s': expected text or json", arg);
		l->opts.json = !strcmp(arg, "json");
		break;
	case OPT_SYSFS_ROOT:
		l->opts.root = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp list_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[PATTERN...]",
	.doc = doc,
};

void cli_list__parse(int argc, char **argv, struct cli_list *l)
{
	memset(l, 0, sizeof(*l));
	cli__parse(&list_argp, "list", argc, argv, l);
}

int cli_list__run(const struct cli_list *l)
{
	char why[1024];
	int err = list__run(&l->opts, why, sizeof(why));

	if (!err)
		return 0;
	fputs("bpfprof list: ", stderr);
	escape__write(stderr, why, strlen(why));
	fputc('\n', stderr);
	return EXIT_RUNTIME;
}

void cli_list__free(struct cli_list *l)
{
	free(l->patterns);
	l->patterns = NULL;
}
