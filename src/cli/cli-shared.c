// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The options `record` and `range` share: argp children for the targets,
 * sampling, and output and symbol options, their parsers and the checks
 * across them. See cli-shared.h.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "cli-shared.h"
#include "demangle.h"
#include "evspec.h"
#include "idlist.h"
#include "number.h"
#include "procfs.h"
#include "exit.h"

#define FALLBACK_MAX_STACK 127
#define FALLBACK_MAX_SAMPLE_RATE 100000
#define PERIOD_MAX ((unsigned long long)LLONG_MAX)
#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

/* Options without a short form (above the subcommands' own, from 0x100). */
enum {
	OPT_IDLE = 0x200,
	OPT_DEMANGLE,
	OPT_NO_DEMANGLE,
	OPT_DEBUG_DIR,
};

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

static void check_pids(const struct argp_state *state, const struct idlist *pids)
{
	size_t i;
	int tgid;

	for (i = 0; i < pids->nr; i++) {
		tgid = procfs__tgid(pids->ids[i]);
		if (tgid < 0)
			cli__usage_error(state, "no process with pid %d", pids->ids[i]);
		if (tgid != pids->ids[i])
			cli__usage_error(
				state,
				"pid %d is a thread of process %d: use -t %d or -p %d",
				pids->ids[i], tgid, pids->ids[i], tgid);
	}
}

static void check_tids(const struct argp_state *state, const struct idlist *tids)
{
	size_t i;

	for (i = 0; i < tids->nr; i++)
		if (procfs__tgid(tids->ids[i]) < 0)
			cli__usage_error(state, "no thread with tid %d", tids->ids[i]);
}

static void parse_ids(const struct argp_state *state, struct idlist *list,
		      const char *opt, const char *what, const char *arg)
{
	int err = idlist__parse(list, arg, INT_MAX, 0);

	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--%s", opt);
	if (err)
		cli__usage_error(state,
			    "invalid --%s '%s': expected a comma-separated list of %s",
			    opt, arg, what);
}

/* The online CPUs and their list as the kernel prints it ("0-1"). */
struct online_cpus {
	struct idlist ids;
	char *text;
	int max;
};

static void online_cpus__read(struct online_cpus *on)
{
	long n;

	if (procfs__online_cpus(&on->ids, &on->text) || !on->ids.nr) {
		free(on->text);
		n = sysconf(_SC_NPROCESSORS_CONF);
		if (asprintf(&on->text, "0-%ld", n > 1 ? n - 1 : 0) < 0)
			on->text = NULL;
		idlist__free(&on->ids);
		if (!on->text || idlist__parse(&on->ids, on->text, INT_MAX - 1, 1))
			on->ids.nr = 0;
	}
	on->max = on->ids.nr ? on->ids.ids[on->ids.nr - 1] : 0;
}

static void online_cpus__free(struct online_cpus *on)
{
	idlist__free(&on->ids);
	free(on->text);
}

/* The first number in @s above @max, as written (it may not fit a long). */
static char *first_above(const char *s, unsigned long long max)
{
	unsigned long long v;
	size_t len;
	char *num;

	for (; *s; s += len ? len : 1) {
		len = strspn(s, "0123456789");
		if (!len)
			continue;
		num = strndup(s, len);
		if (!num || number__parse_ull(num, 0, max, &v))
			return num;
		free(num);
	}
	return NULL;
}

static void parse_cpus(const struct argp_state *state, struct idlist *cpus,
		       const char *arg)
{
	struct online_cpus on = { 0 };
	char *cpu;
	size_t i;
	int err;

	online_cpus__read(&on);
	err = idlist__parse(cpus, arg, on.max, 1);
	if (err == -ERANGE) {
		cpu = first_above(arg, on.max);
		cli__usage_error(state, "CPU %s is not online (online: %s)", cpu ? cpu : arg,
			    on.text ? on.text : "unknown");
	}
	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--cpu");
	if (err)
		cli__usage_error(
			state,
			"invalid --cpu '%s': expected CPU numbers and ranges like 0,2-3",
			arg);
	for (i = 0; i < cpus->nr; i++)
		if (!idlist__has(&on.ids, cpus->ids[i]))
			cli__usage_error(state, "CPU %d is not online (online: %s)",
				    cpus->ids[i], on.text ? on.text : "unknown");
	online_cpus__free(&on);
}

static void parse_cgroup(const struct argp_state *state, struct session_opts *opts,
			 const char *arg)
{
	char path[PATH_MAX], mnt[PATH_MAX];
	int err;

	if (cgroup__mount(mnt, sizeof(mnt)))
		cli__usage_error(state,
			    "invalid --cgroup '%s': no cgroup2 hierarchy is mounted",
			    arg);
	err = cgroup__resolve(arg, path, sizeof(path));
	if (err == -ENOENT)
		cli__usage_error(state, "no cgroup '%s' in the cgroup2 hierarchy at %s", arg,
			    mnt);
	if (err)
		cli__usage_error(state, "invalid --cgroup '%s': %s (cgroup2 hierarchy at %s)",
			    arg, strerror(-err), mnt);
	free((char *)opts->targets.cgroup);
	opts->targets.cgroup = strdup(path);
	if (!opts->targets.cgroup)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--cgroup");
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

static void parse_event(const struct argp_state *state, struct session_opts *opts,
			const char *arg)
{
	struct perf_event_attr attr = { 0 };
	char *known;

	if (evspec__parse(arg, &attr) == 0) {
		opts->sampling.event = arg;
		return;
	}
	known = cli__join_names(evspec__known);
	cli__usage_error(state, "unknown event '%s' (try: %s)", arg,
		    known ? known : "cpu-clock");
}

static void parse_demangle(const struct argp_state *state, struct session_opts *opts,
			   const char *arg)
{
	char *names;

	if (demangle_mode__parse(arg, &opts->symbols.demangle) == 0)
		return;
	names = cli__join_names(demangle_mode__name);
	cli__usage_error(state, "invalid --demangle '%s': expected %s", arg,
		    names ? names : "short, full, none");
}

/* --debug-dir DIR: searched before /usr/lib/debug, which ends the list. */
static void parse_debug_dir(const struct argp_state *state, struct session_opts *opts,
			    const char *arg)
{
	size_t n = opts->symbols.nr_debug_dirs;
	struct stat st;
	const char **v;

	errno = 0;
	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		cli__usage_error(state, "invalid --debug-dir '%s': %s", arg,
			    errno == ENOENT || !errno ? "expected an existing directory" :
							strerror(errno));
	v = realloc(opts->symbols.debug_dirs, (n + 3) * sizeof(*v));
	if (!v)
		cli__usage_error(state, "out of memory");
	v[n] = arg;
	v[n + 1] = DEFAULT_DEBUG_DIR;
	v[n + 2] = NULL;
	opts->symbols.debug_dirs = v;
	opts->symbols.nr_debug_dirs = n + 1;
}

static void parse_duration(const struct argp_state *state, struct session_opts *opts,
			   const char *arg)
{
	if (number__parse_seconds(arg, &opts->sampling.duration))
		cli__usage_error(
			state,
			"invalid --duration '%s': expected a number of seconds above 0 "
			"and at most 31536000, e.g. 10 or 0.5",
			arg);
}

void cli__command(struct argp_state *state, struct session_opts *opts, char *arg)
{
	int first = state->next - 1, n, i;

	if (first < 0 || state->argv[first] != arg)
		for (first = 0; first < state->argc && state->argv[first] != arg; first++)
			;
	n = state->argc - first;
	opts->targets.command = calloc(n + 1, sizeof(*opts->targets.command));
	if (!opts->targets.command)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "COMMAND");
	for (i = 0; i < n; i++)
		opts->targets.command[i] = state->argv[first + i];
	state->next = state->argc;
}

static error_t parse_target(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct session_opts *opts = p->opts;

	switch (key) {
	case 'a':
		p->all_given = true;
		break;
	case 'p':
		parse_ids(state, &opts->targets.pids, "pid", "process ids", arg);
		check_pids(state, &opts->targets.pids);
		break;
	case 't':
		parse_ids(state, &opts->targets.tids, "tid", "thread ids", arg);
		check_tids(state, &opts->targets.tids);
		break;
	case 'G':
		parse_cgroup(state, opts, arg);
		break;
	case 'C':
		parse_cpus(state, &opts->targets.cpus, arg);
		break;
	case OPT_IDLE:
		opts->targets.idle = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t parse_sampling(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct session_opts *opts = p->opts;

	switch (key) {
	case 'F':
		opts->sampling.freq = cli__parse_integer(state, "freq", arg, 1, p->max_rate);
		p->freq_given = true;
		break;
	case 'c':
		opts->sampling.period = cli__parse_integer(state, "period", arg, 1, PERIOD_MAX);
		p->period_given = true;
		break;
	case 'e':
		parse_event(state, opts, arg);
		break;
	case 'd':
		parse_duration(state, opts, arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t parse_output(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct session_opts *opts = p->opts;

	switch (key) {
	case 'o':
		opts->output = arg;
		break;
	case 'q':
		opts->quiet = true;
		break;
	case OPT_DEMANGLE:
		parse_demangle(state, opts, arg);
		break;
	case OPT_NO_DEMANGLE:
		opts->symbols.demangle = DEMANGLE_NONE;
		break;
	case OPT_DEBUG_DIR:
		parse_debug_dir(state, opts, arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option target_options[] = {
	{ "all-cpus", 'a', NULL, 0,
	  "Every process on every CPU (the default when no other target is given)",
	  CLI_GROUP_TARGETS },
	{ "pid", 'p', "PID[,PID...]", 0,
	  "These processes, with the threads and children they create later",
	  CLI_GROUP_TARGETS },
	{ "tid", 't', "TID[,TID...]", 0, "These threads only", CLI_GROUP_TARGETS },
	{ "cgroup", 'G', "PATH", 0,
	  "Tasks in this cgroup v2 directory (absolute, or relative to the cgroup2 mount)",
	  CLI_GROUP_TARGETS },
	{ "cpu", 'C', "LIST", 0,
	  "Only these CPUs, e.g. 0,2-3 (default: every online CPU)", CLI_GROUP_TARGETS },
	{ "idle", OPT_IDLE, NULL, 0, "Keep samples of the idle task (pid 0)",
	  CLI_GROUP_TARGETS },
	{ 0 },
};

static const struct argp_option sampling_options[] = {
	{ "freq", 'F', "HZ", 0, "Samples per second on each CPU (default 99)",
	  CLI_GROUP_SAMPLING },
	{ "period", 'c', "N", 0, "Sample once every N events instead of at a frequency",
	  CLI_GROUP_SAMPLING },
	{ "event", 'e', "NAME", 0, "Event to sample (default cpu-clock)", CLI_GROUP_SAMPLING },
	{ "duration", 'd', "SECONDS", 0,
	  "Stop after SECONDS, e.g. 10 or 0.5 (default: at Ctrl-C, SIGTERM or when "
	  "COMMAND exits)",
	  CLI_GROUP_SAMPLING },
	{ 0 },
};

static const struct argp_option output_options[] = {
	{ "output", 'o', "FILE", 0, "Write the profile to FILE (default: standard output)",
	  CLI_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "No summary line on stderr at the end", CLI_GROUP_OUTPUT },
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
	{ 0 },
};

/* Add the list of event names to the -e help. */
static char *help_filter(int key, const char *text, void *input)
{
	char *known, *out;

	if (key != 'e' || !text)
		return (char *)text;
	known = cli__join_names(evspec__known);
	if (!known)
		return (char *)text;
	if (asprintf(&out, "%s; one of: %s", text, known) < 0)
		out = (char *)text;
	free(known);
	return out;
}

const struct argp cli_targets_argp = { .options = target_options, .parser = parse_target };
const struct argp cli_sampling_argp = { .options = sampling_options,
					.parser = parse_sampling,
					.help_filter = help_filter };
const struct argp cli_output_argp = { .options = output_options, .parser = parse_output };

const struct argp_child cli_shared_children[] = {
	{ &cli_targets_argp },
	{ &cli_sampling_argp },
	{ &cli_output_argp },
	{ 0 },
};

void cli__init_children(struct argp_state *state, struct cli_parser *p)
{
	for (size_t i = 0; state->root_argp->children && state->root_argp->children[i].argp;
	     i++)
		state->child_inputs[i] = p;
}

static void check_conflicts(const struct argp_state *state, const struct cli_parser *p)
{
	const struct session_opts *opts = p->opts;

	if (p->freq_given && p->period_given)
		cli__usage_error(state,
				 "-F/--freq %llu and -c/--period %llu cannot be used together",
				 opts->sampling.freq, opts->sampling.period);
	if (p->all_given && (opts->targets.pids.nr || opts->targets.tids.nr))
		cli__usage_error(state, "-a/--all-cpus cannot be used with %s",
				 opts->targets.pids.nr ? "-p/--pid" : "-t/--tid");
}

static void fill_attr(struct session_opts *opts)
{
	struct perf_event_attr *attr = &opts->sampling.attr;

	memset(attr, 0, sizeof(*attr));
	evspec__parse(opts->sampling.event, attr); /* checked when -e was parsed */
	attr->size = sizeof(*attr);
	if (opts->sampling.use_period) {
		attr->sample_period = opts->sampling.period;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->sampling.freq;
	}
	attr->disabled = 0;
}

void cli__finish(const struct argp_state *state, struct cli_parser *p)
{
	struct session_opts *opts = p->opts;

	check_conflicts(state, p);
	opts->sampling.use_period = p->period_given;
	/* A cgroup alone means the whole system, filtered by cgroup. */
	opts->targets.all_cpus = p->all_given ||
			 (!opts->targets.pids.nr && !opts->targets.tids.nr && !opts->targets.command);
	fill_attr(opts);
}

void cli__defaults(struct cli_parser *p, struct session_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	p->opts = opts;
	p->max_rate = procfs__read_ull("/proc/sys/kernel/perf_event_max_sample_rate",
				       FALLBACK_MAX_SAMPLE_RATE);
	p->max_stack =
		procfs__read_ull("/proc/sys/kernel/perf_event_max_stack", FALLBACK_MAX_STACK);
	if (p->max_stack > UINT_MAX)
		p->max_stack = FALLBACK_MAX_STACK;
	opts->sampling.event = "cpu-clock";
	opts->sampling.freq = SAMPLING_DEFAULT_FREQ;
	opts->sampling.max_depth = (unsigned int)p->max_stack;
	opts->sampling.max_stacks = SAMPLING_DEFAULT_MAX_STACKS;
	opts->sampling.stacks = STACKS_BOTH;
	opts->symbols.demangle = DEMANGLE_SHORT;
	opts->symbols.inlines = true;
}

void cli__parse(const struct argp *argp, const char *cmd, int argc, char **argv, void *input)
{
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
	argp_parse(argp, argc > 0 ? argc : 1, args, ARGP_IN_ORDER, NULL, input);
	free(args);
	free(prog);
}

void cli__free(struct session_opts *opts)
{
	if (!opts)
		return;
	idlist__free(&opts->targets.pids);
	idlist__free(&opts->targets.tids);
	idlist__free(&opts->targets.cpus);
	free(opts->targets.command);
	opts->targets.command = NULL;
	free((char *)opts->targets.cgroup);
	opts->targets.cgroup = NULL;
	free(opts->symbols.debug_dirs);
	opts->symbols.debug_dirs = NULL;
}
