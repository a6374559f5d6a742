/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `bpfprof report` and `bpfprof diff` command lines (diff's own in cli-diff.c). */
#ifndef BPFPROF_CLI_REPORT_H
#define BPFPROF_CLI_REPORT_H

#include <argp.h>
#include <stdbool.h>

#include "cli-output.h"
#include "cli.h"
#include "report.h"

struct cli_report {
	struct report_opts opts;
	bool quiet;
	char *subtitle; /* diff's, made: freed by cli_report__free */
};

/* The parse of either command: the shared children's input first. */
struct cli_report_parser {
	struct cli_parser base;
	struct session_opts so; /* -o and -q, as cli_output_argp fills them */
	struct cli_format fmt;
	struct cli_report *r;
	const char *cmd;  /* "report" or "diff" */
	const char *args[2];
	unsigned int nr_args, want_args;
};

/* The options of both commands, their children and their parser (cli-diff.c's too). */
extern const struct argp_option cli_report_options[];
extern const struct argp_child cli_report_children[];
error_t cli_report__parse_opt(int key, char *arg, struct argp_state *state);

/* Parse `report` arguments (argv[0] is "report"); a usage error exits with status 64. */
void cli_report__parse(int argc, char **argv, struct cli_report *r);
/* Run report or diff (@cmd) and print its error or summary: the exit status. */
int cli_report__run(const char *cmd, const struct cli_report *r);
void cli_report__free(struct cli_report *r);

#endif /* BPFPROF_CLI_REPORT_H */
