// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --unwind --unwind-memory --no-unwind-hold: how the user stacks of every
 * subcommand that runs the unwinder (record, top, range's --stacks, watch)
 * are walked. --help lists them under "Sampling:".
 * They fill the subcommand's struct unwind_opts, which cli__defaults hands
 * this child through struct cli_parser; range refuses them without
 * --stacks (cli-range.c).
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cli-unwind.h"
#include "number.h"
#include "procfs.h"

/*
 * --unwind-memory: the kernel allocates and zeroes the maps at load, and
 * bpfprof maps them whole (its RSS grows as much): at most 4G (about 20 s
 * to set up on the development VM) and a quarter of the machine's RAM.
 */
#define UNWIND_MEMORY_MIN (64ull << 10)
#define UNWIND_MEMORY_MAX (4ull << 30)

enum {
	OPT_UNWIND = CLI_KEY_UNWIND,
	OPT_UNWIND_MEMORY,
	OPT_NO_UNWIND_HOLD,
};

static const char *const mode_names[] = {
	[UNWIND_AUTO] = "auto",
	[UNWIND_DWARF] = "dwarf",
	[UNWIND_FP] = "fp",
};

const char *cli_unwind__mode_name(unsigned int i)
{
	return i < ARRAY_SIZE(mode_names) ? mode_names[i] : NULL;
}

static void parse_mode(const struct argp_state *state, struct unwind_opts *uo, const char *arg)
{
	char *names;

	for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (!strcmp(arg, mode_names[i])) {
			uo->mode = i;
			return;
		}
	names = cli__join_names(cli_unwind__mode_name);
	cli__usage_error(state, "invalid --unwind '%s': expected %s", arg,
			 names ? names : "auto, dwarf, fp");
}

/* The most --unwind-memory this machine takes: 4G, or a quarter of MemTotal. */
static unsigned long long memory_max(void)
{
	char *line = procfs__read_line("/proc/meminfo");
	unsigned long long kib, max = UNWIND_MEMORY_MAX;

	if (line && sscanf(line, "MemTotal: %llu kB", &kib) == 1 && kib * 1024 / 4 < max)
		max = kib * 1024 / 4;
	free(line);
	return max;
}

static void parse_memory(const struct argp_state *state, struct unwind_opts *uo,
			 const char *arg)
{
	unsigned long long max = memory_max();
	int err = number__parse_size(arg, UNWIND_MEMORY_MIN, max, &uo->memory);

	if (err == -ERANGE && max < UNWIND_MEMORY_MAX)
		cli__usage_error(state,
				 "invalid --unwind-memory '%s': expected a size from 64K to "
				 "%lluM (a quarter of this machine's memory), e.g. 64M",
				 arg, max >> 20);
	else if (err)
		cli__usage_error(state,
				 "invalid --unwind-memory '%s': expected a size from 64K to "
				 "4G, e.g. 64M",
				 arg);
}

static error_t parse_unwind(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;

	switch (key) {
	case OPT_UNWIND:
		parse_mode(state, p->unwind, arg);
		p->unwind_option = "--unwind";
		break;
	case OPT_UNWIND_MEMORY:
		parse_memory(state, p->unwind, arg);
		p->unwind_option = "--unwind-memory";
		break;
	case OPT_NO_UNWIND_HOLD:
		p->unwind->no_hold = true;
		p->unwind_option = "--no-unwind-hold";
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option unwind_options[] = {
	{ "unwind", OPT_UNWIND, "MODE", 0,
	  "User stacks: auto (default: DWARF unwind tables where a binary has them, frame "
	  "pointers elsewhere), dwarf (tables only) or fp (frame pointers only)",
	  CLI_GROUP_SAMPLING },
	{ "unwind-memory", OPT_UNWIND_MEMORY, "SIZE", 0,
	  "Kernel memory for unwind tables, e.g. 64M (default 32M, at most 4G and a "
	  "quarter of the RAM); the least recently sampled tables make room for new ones",
	  CLI_GROUP_SAMPLING },
	{ "no-unwind-hold", OPT_NO_UNWIND_HOLD, NULL, 0,
	  "Let the command run while the unwind tables of binaries it maps are built "
	  "(default: it is stopped meanwhile, so no stack is cut short on a first run)",
	  CLI_GROUP_SAMPLING },
	{ 0 },
};

const struct argp cli_unwind_argp = { .options = unwind_options, .parser = parse_unwind };

void cli_unwind__defaults(struct unwind_opts *uo)
{
	*uo = (struct unwind_opts){ UNWIND_AUTO, UNWIND_DEFAULT_MEMORY };
}
