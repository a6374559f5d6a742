/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every subcommand's command line shares: the argp children (targets,
 * sampling, output, symbols, unwind: one file each), their defaults and end-of-parse
 * checks, and the usage error. A subcommand's own argp names the groups
 * (CLI_GROUP_*), adds its options and lists cli_children; the children's
 * options merge into its groups. Every usage error is one line on stderr,
 * "bpfprof COMMAND: ...", naming the bad value and what was expected, then
 * exit status 64.
 */
#ifndef BPFPROF_CLI_H
#define BPFPROF_CLI_H

#include <argp.h>
#include <stdbool.h>

#include "evspec.h"
#include "session.h"

/* Option groups, headed in each subcommand's own option table. */
enum cli_group {
	CLI_GROUP_TARGETS = 1,
	CLI_GROUP_SAMPLING = 2,
	CLI_GROUP_OUTPUT = 3,
};

/*
 * Keys of the long-only options, which argp needs unique across a
 * subcommand's whole tree: a block each.
 */
enum cli_key {
	CLI_KEY_SUBCOMMAND = 0x100, /* a subcommand's own */
	CLI_KEY_TARGETS = 0x200,
	CLI_KEY_SYMBOLS = 0x300,
	CLI_KEY_FORMAT = 0x400,
	CLI_KEY_UNWIND = 0x500,
};

/* What parsing needs beyond the options: the input of every shared child. */
struct cli_parser {
	struct session_opts *opts;
	struct unwind_opts *unwind; /* the subcommand's, for cli-unwind.c */
	const char *unwind_option;  /* the last of its options given, or NULL */
	unsigned long long max_rate;  /* kernel.perf_event_max_sample_rate */
	unsigned long long max_stack; /* kernel.perf_event_max_stack */
	bool freq_given, period_given, all_given;
	struct evspec_list events; /* every -e, in order */
	struct pmu_db *pmus;       /* the machine's PMUs, read at the first -e */
};

/* The children, for a subcommand's argp .children. */
extern const struct argp_child cli_children[];
/* The same and the profile formats' options (cli-output.c's cli_format_argp). */
extern const struct argp_child cli_profile_children[];

struct cli_format;
struct unwind_opts;

/* Print "bpfprof COMMAND: MESSAGE" and exit with status 64. */
void __attribute__((format(printf, 2, 3), noreturn))
cli__usage_error(const struct argp_state *state, const char *fmt, ...);
/* "bpfprof COMMAND: note: MESSAGE" on stderr: an option that changes nothing. */
void __attribute__((format(printf, 2, 3)))
cli__note(const struct argp_state *state, const char *fmt, ...);
/* A decimal integer in [min, max] for --@opt, else a usage error. */
unsigned long long cli__parse_integer(const struct argp_state *state, const char *opt,
				      const char *arg, unsigned long long min,
				      unsigned long long max);
/* "a, b, c" from @name(0), @name(1), ... up to NULL; malloc'd, or NULL. */
char *cli__join_names(const char *(*name)(unsigned int i));

/* Did "--" come before argument @arg? Then it is part of the command. */
bool cli__after_separator(const struct argp_state *state, const char *arg);

/*
 * Defaults of every shared option (@opts and @unwind are the subcommand's),
 * and the kernel limits parsing checks against.
 */
void cli__defaults(struct cli_parser *p, struct session_opts *opts,
		   struct unwind_opts *unwind);
/* At ARGP_KEY_INIT of an argp whose .children is cli_children: hand them @p. */
void cli__init_children(struct argp_state *state, struct cli_parser *p);
/* The same for cli_profile_children: the format options get @fmt. */
void cli__init_profile_children(struct argp_state *state, struct cli_parser *p,
				struct cli_format *fmt);
/* At ARGP_KEY_END: the shared cross-option checks and derived fields. */
void cli__finish(const struct argp_state *state, struct cli_parser *p);

/* Free what parsing allocated in @opts. */
void cli__free(struct session_opts *opts);

/*
 * Parse @argv (argv[0] is the subcommand) with @argp, under the program
 * name "bpfprof @cmd", with @input as the parser's input. Exits with status
 * 64 on a usage error, 0 after --help. Whatever is printed on stderr
 * meanwhile (argp's and getopt's errors, cli__usage_error, cli__note) is
 * escaped (escape.h): no control byte of an argument reaches the terminal.
 */
void cli__parse(const struct argp *argp, const char *cmd, int argc, char **argv, void *input);

#endif /* BPFPROF_CLI_H */
