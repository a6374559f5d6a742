// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --demangle --no-demangle --debug-dir --jit-map-max: how frames are named. --help lists
 * them under "Output:", beside the options that shape a subcommand's output.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli-symbols.h"
#include "demangler.h"
#include "number.h"

#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

enum {
	OPT_DEMANGLE = CLI_KEY_SYMBOLS,
	OPT_NO_DEMANGLE,
	OPT_DEBUG_DIR,
	OPT_JIT_MAP_MAX,
};

static void parse_demangle(const struct argp_state *state, struct symbol_opts *so,
			   const char *arg)
{
	char *names;

	if (demangler__parse_mode(arg, &so->demangle) == 0)
		return;
	names = cli__join_names(demangler__mode_name);
	cli__usage_error(state, "invalid --demangle '%s': expected %s", arg,
		    names ? names : "short, full, none");
}

/* --debug-dir DIR: searched before /usr/lib/debug, which ends the list. */
static void parse_debug_dir(const struct argp_state *state, struct symbol_opts *so,
			    const char *arg)
{
	size_t n = so->nr_debug_dirs;
	struct stat st;
	const char **v;

	errno = 0;
	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		cli__usage_error(state, "invalid --debug-dir '%s': %s", arg,
			    errno == ENOENT || !errno ? "expected an existing directory" :
							strerror(errno));
	v = realloc(so->debug_dirs, (n + 3) * sizeof(*v));
	if (!v)
		cli__usage_error(state, "out of memory");
	v[n] = arg;
	v[n + 1] = DEFAULT_DEBUG_DIR;
	v[n + 2] = NULL;
	so->debug_dirs = v;
	so->nr_debug_dirs = n + 1;
}

static error_t parse_symbols(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct symbol_opts *so = &p->opts->symbols;
	unsigned long long size;

	switch (key) {
	case OPT_DEMANGLE:
		parse_demangle(state, so, arg);
		break;
	case OPT_NO_DEMANGLE:
		so->demangle = DEMANGLE_NONE;
		break;
	case OPT_DEBUG_DIR:
		parse_debug_dir(state, so, arg);
		break;
	case OPT_JIT_MAP_MAX:
		if (number__parse_size(arg, JIT_MAP_MAX_MIN, JIT_MAP_MAX_MAX, &size))
			cli__usage_error(state, "invalid --jit-map-max '%s': expected a size from 4K "
					 "to 4G, e.g. 64M", arg);
		so->jit_map_max = size;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option symbol_options[] = {
	{ "demangle", OPT_DEMANGLE, "MODE", 0,
	  "C++ and Rust names: short (default: no argument lists, no Rust hash), full "
	  "(with argument lists) or none (raw)",
	  CLI_GROUP_OUTPUT },
	{ "no-demangle", OPT_NO_DEMANGLE, NULL, 0, "Raw symbol names (--demangle=none)",
	  CLI_GROUP_OUTPUT },
	{ "debug-dir", OPT_DEBUG_DIR, "DIR", 0,
	  "Also look for debug files under DIR (DIR/.build-id/xx/rest.debug, DIR/PATH); "
	  "repeatable; /usr/lib/debug is always searched",
	  CLI_GROUP_OUTPUT },
	{ "jit-map-max", OPT_JIT_MAP_MAX, "SIZE", 0,
	  "Read at most SIZE of a JIT map /tmp/perf-PID.map, and one entry per 64 bytes of it "
	  "(K, M, G suffixes; default 64M, 4K to 4G)",
	  CLI_GROUP_OUTPUT },
	{ 0 },
};

const struct argp cli_symbols_argp = { .options = symbol_options, .parser = parse_symbols };

void cli_symbols__defaults(struct symbol_opts *so)
{
	so->demangle = DEMANGLE_SHORT;
	so->inlines = true;
	so->jit_map_max = JIT_MAP_MAX_DEFAULT;
}

void cli_symbols__free(struct symbol_opts *so)
{
	free(so->debug_dirs);
	so->debug_dirs = NULL;
	so->nr_debug_dirs = 0;
}
