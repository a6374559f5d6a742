// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What every subcommand's command line shares: the argp children (one file
 * each: cli-targets.c, cli-sampling.c, cli-symbols.c, cli-output.c,
 * cli-unwind.c), their defaults and end-of-parse checks run in one order,
 * the usage error, and argp run under the name "bpfprof COMMAND". See cli.h.
 */
#include <argp.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cli-output.h"
#include "cli-sampling.h"
#include "cli-symbols.h"
#include "cli-targets.h"
#include "cli-unwind.h"
#include "cli.h"
#include "escape.h"
#include "exit.h"
#include "number.h"

void cli__usage_error(const struct argp_state *state, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	argp_failure(state, EXIT_USAGE, 0, "%s", msg ? msg : fmt);
	exit(EXIT_USAGE); /* argp_failure exits; this is for the compiler */
}

void cli__note(const struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: note: ", state->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void bad_integer(const struct argp_state *state, const char *opt, const char *arg,
			unsigned long long min, unsigned long long max)
{
	cli__usage_error(state, "invalid --%s '%s': expected an integer from %llu to %llu",
		    opt, arg, min, max);
}

unsigned long long cli__parse_integer(const struct argp_state *state, const char *opt,
					const char *arg, unsigned long long min,
					unsigned long long max)
{
	unsigned long long v;

	if (number__parse_ull(arg, min, max, &v))
		bad_integer(state, opt, arg, min, max);
	return v;
}

char *cli__join_names(const char *(*name)(unsigned int i))
{
	char *list = NULL, *next;
	const char *n;
	unsigned int i;

	for (i = 0; (n = name(i)); i++) {
		if (asprintf(&next, "%s%s%s", list ? list : "", i ? ", " : "", n) < 0)
			next = NULL;
		free(list);
		list = next;
		if (!list)
			return NULL;
	}
	return list;
}

/* The children every capturing subcommand shares, in this order. */
#define CLI_SHARED_CHILDREN \
	{ &cli_targets_argp }, { &cli_sampling_argp }, { &cli_output_argp }, \
		{ &cli_symbols_argp }, { &cli_unwind_argp }

const struct argp_child cli_children[] = {
	CLI_SHARED_CHILDREN,
	{ 0 },
};

const struct argp_child cli_profile_children[] = {
	CLI_SHARED_CHILDREN,
	{ &cli_format_argp },
	{ 0 },
};

/*
 * state->root_argp is not the subcommand's argp but the wrapper argp_parse
 * puts around it (with --help and --version): count cli_children instead,
 * which the subcommand's argp lists as its children.
 */
bool cli__after_separator(const struct argp_state *state, const char *arg)
{
	for (int i = 1; i < state->argc && state->argv[i] != arg; i++)
		if (!strcmp(state->argv[i], "--"))
			return true;
	return false;
}

void cli__init_children(struct argp_state *state, struct cli_parser *p)
{
	for (size_t i = 0; cli_children[i].argp; i++)
		state->child_inputs[i] = p;
}

void cli__init_profile_children(struct argp_state *state, struct cli_parser *p,
				struct cli_format *fmt)
{
	cli__init_children(state, p);
	state->child_inputs[ARRAY_SIZE(cli_profile_children) - 2] = fmt;
}

void cli__finish(const struct argp_state *state, struct cli_parser *p)
{
	cli_sampling__finish(state, p);
	cli_targets__finish(state, p);
}

void cli__defaults(struct cli_parser *p, struct session_opts *opts,
		   struct unwind_opts *unwind)
{
	memset(opts, 0, sizeof(*opts));
	p->opts = opts;
	p->unwind = unwind;
	cli_sampling__defaults(p, &opts->sampling);
	cli_symbols__defaults(&opts->symbols);
	cli_unwind__defaults(unwind);
}

void cli__parse(const struct argp *argp, const char *cmd, int argc, char **argv, void *input)
{
	FILE *err = stderr, *esc;
	char **args, *prog;
	int i;

	args = calloc(argc + 1, sizeof(*args));
	if (!args || asprintf(&prog, "bpfprof %s", cmd) < 0) {
		fprintf(stderr, "bpfprof %s: %s\n", cmd, strerror(ENOMEM));
		exit(EXIT_RUNTIME);
	}
	/* argp names itself after argv[0] in usage, help and errors. */
	args[0] = prog;
	for (i = 1; i < argc; i++)
		args[i] = argv[i];
	argp_err_exit_status = EXIT_USAGE;
	/*
	 * Every error of the parse quotes what the user gave, and getopt
	 * prints its own ("unrecognized option") on stderr: while argp runs,
	 * stderr is a stream that escapes what it prints (glibc lets stderr
	 * be set). An error exits from inside argp_parse: exit flushes it.
	 */
	esc = escape__stream(err);
	if (esc)
		stderr = esc;
	argp_parse(argp, argc > 0 ? argc : 1, args, ARGP_IN_ORDER, NULL, input);
	if (esc) {
		stderr = err;
		fclose(esc);
	}
	free(args);
	free(prog);
}

void cli__free(struct session_opts *opts)
{
	if (!opts)
		return;
	cli_targets__free(&opts->targets);
	cli_sampling__free(&opts->sampling);
	cli_symbols__free(&opts->symbols);
}
