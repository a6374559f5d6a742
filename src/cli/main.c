/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* bpfprof: argv -> subcommand -> exit status; nothing else. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "config.h"
#include "cli-diff.h"
#include "cli-list.h"
#include "cli-range.h"
#include "cli-record.h"
#include "cli-top.h"
#include "cli-report.h"
#include "cli-watch.h"
#include "devtools.h"
#include "escape.h"
#include "exit.h"
#include "stopsig.h"

static int cmd_record(int argc, char **argv)
{
	struct record_opts opts;
	int status;

	cli_record__parse(argc, argv, &opts);
	status = record__run(&opts);
	cli_record__free(&opts);
	return status;
}

static int cmd_range(int argc, char **argv)
{
	struct range_opts opts;
	int status;

	cli_range__parse(argc, argv, &opts);
	status = range__run(&opts);
	cli_range__free(&opts);
	return status;
}

static int cmd_watch(int argc, char **argv)
{
	struct watch_opts opts;
	int status;

	cli_watch__parse(argc, argv, &opts);
	status = watch__run(&opts);
	cli_watch__free(&opts);
	return status;
}

static int cmd_top(int argc, char **argv)
{
	struct top_opts opts;
	int status;

	cli_top__parse(argc, argv, &opts);
	status = top__run(&opts);
	cli_top__free(&opts);
	return status;
}

static int cmd_report(int argc, char **argv)
{
	struct cli_report r;
	int status;

	cli_report__parse(argc, argv, &r);
	status = cli_report__run("report", &r);
	cli_report__free(&r);
	return status;
}

static int cmd_diff(int argc, char **argv)
{
	struct cli_report r;
	int status;

	cli_diff__parse(argc, argv, &r);
	status = cli_report__run("diff", &r);
	cli_report__free(&r);
	return status;
}

static int cmd_list(int argc, char **argv)
{
	struct cli_list l;
	int status;

	cli_list__parse(argc, argv, &l);
	status = cli_list__run(&l);
	cli_list__free(&l);
	return status;
}

static const struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	bool hidden; /* for benchmarks and debugging: not listed */
	bool capture; /* a session: it reads the stop signals blocked since the start */
} commands[] = {
	{ "record", "sample stacks on every CPU and write folded stacks", cmd_record,
	  .capture = true },
	{ "range", "count samples per instruction in address ranges; annotated listing",
	  cmd_range, .capture = true },
	{ "watch", "count accesses to data or code with hardware breakpoints, with stacks",
	  cmd_watch, .capture = true },
	{ "top", "show the hottest functions live, refreshed every second", cmd_top,
	  .capture = true },
	{ "report", "read a saved profile (pprof or folded) and write it in any format",
	  cmd_report },
	{ "diff", "compare two saved profiles: a differential flame graph or folded file",
	  cmd_diff },
	{ "list", "list the events bpfprof can sample, and whether each opens here",
	  cmd_list },
	{ "debug-symbolize", "symbolize addresses of one file (bench/symbolize)",
	  debug_symbolize__run, true },
	{ "debug-cfi", "print the unwind table compiled from one file's CFI (tests)",
	  debug_cfi__run, true },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: bpfprof COMMAND [OPTION...]\n"
		   "       bpfprof --help | --version\n");
}

static int help(void)
{
	size_t i;

	usage(stdout);
	printf("\nA BPF sampling profiler for Linux: samples are counted in the kernel,\n"
	       "symbolized once, and written as folded stacks.\n\nCommands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!commands[i].hidden)
			printf("  %-10s %s\n", commands[i].name, commands[i].summary);
	printf("\nOptions:\n"
	       "  -h, --help     show this help\n"
	       "  -V, --version  show the version and the features built in\n"
	       "\nRun 'bpfprof record --help' for the options of a command,\n"
	       "and see 'man bpfprof', 'man bpfprof-record', 'man bpfprof-range',\n"
	       "'man bpfprof-watch', 'man bpfprof-top', 'man bpfprof-report',\n"
	       "'man bpfprof-diff' and 'man bpfprof-list' for the details.\n");
	return 0;
}

static int version(void)
{
	printf("bpfprof %s\n"
	       "libbpf %s, libelf %s, libdw %s\n"
	       "features: %s\n",
	       BPFPROF_VERSION, BPFPROF_LIBBPF_VERSION, BPFPROF_LIBELF_VERSION,
	       BPFPROF_LIBDW_VERSION, BPFPROF_FEATURES);
	return 0;
}

static int is_any(const char *arg, const char *a, const char *b, const char *c)
{
	return !strcmp(arg, a) || !strcmp(arg, b) || !strcmp(arg, c);
}

static int unknown(const char *arg)
{
	size_t i;

	fprintf(stderr, "bpfprof: unknown %s '", arg[0] == '-' ? "option" : "command");
	escape__write(stderr, arg, strlen(arg));
	fputs("' (expected: ", stderr);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!commands[i].hidden)
			fprintf(stderr, "%s%s", i ? ", " : "", commands[i].name);
	fprintf(stderr, ")\n");
	return EXIT_USAGE;
}

/* The signal mask bpfprof was started with, before the stop signals were blocked. */
static sigset_t main_mask;

/*
 * bpfprof's first instruction of its own: the executable's pre-init runs
 * after the dynamic loader, before any library's initialisation and
 * main(). From here a stop signal waits for the capture to read it
 * (stopsig.h), however early it comes; before, the kernel applies its
 * disposition (the default ends bpfprof, an inherited SIG_IGN drops it).
 */
static void main__preinit(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	stopsig__block(&main_mask);
}

static void (*const main_preinit)(int, char **, char **)
	__attribute__((section(".preinit_array"), used)) = main__preinit;

static const struct command *main__command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd = argc < 2 ? NULL : main__command(argv[1]);

	/* the subcommands without a session end at a stop signal as any program does */
	if (!cmd || !cmd->capture)
		sigprocmask(SIG_SETMASK, &main_mask, NULL);
	if (argc < 2) {
		usage(stderr);
		fprintf(stderr, "Try 'bpfprof --help' for more information.\n");
		return EXIT_USAGE;
	}
	if (is_any(argv[1], "--help", "-h", "help"))
		return help();
	if (is_any(argv[1], "--version", "-V", "version"))
		return version();
	if (cmd)
		return cmd->run(argc - 1, argv + 1);
	return unknown(argv[1]);
}
