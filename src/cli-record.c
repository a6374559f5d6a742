/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof record` command line: argp tables, per-option parsing and the
 * cross-option checks. Every usage error is one line on stderr naming the
 * bad value and what was expected, then exit status 64, before anything
 * else happens.
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

#include "config.h"
#include "cgroup.h"
#include "cli.h"
#include "demangle.h"
#include "evspec.h"
#include "numlist.h"
#include "session.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define PROG_NAME "bpfprof record"
#define MAX_STACKS_LIMIT (1u << 24)
#define FALLBACK_MAX_STACK 127
#define FALLBACK_MAX_SAMPLE_RATE 100000
#define PERIOD_MAX ((unsigned long long)LLONG_MAX)
#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

const char *argp_program_version = "bpfprof " BPFPROF_VERSION;

/* Output formats: --format names and the -o extensions that imply them. */
static const struct format_desc {
	const char *name;
	const char *ext; /* implied by "-o NAME.ext" when -f is absent */
	enum output_format format;
} formats[] = {
	{ "folded", ".folded", FORMAT_FOLDED },
};

/* Options without a short form. */
enum {
	OPT_IDLE = 0x100,
	OPT_MAX_DEPTH,
	OPT_MAX_STACKS,
	OPT_PER_PID,
	OPT_PER_THREAD,
	OPT_EMPTY_HANDLER,
	OPT_DEMANGLE,
	OPT_NO_DEMANGLE,
	OPT_NO_INLINE,
	OPT_LINES,
	OPT_DEBUG_DIR,
};

/* What parsing needs beyond the options themselves. */
struct record_parser {
	struct record_opts *opts;
	unsigned long long max_rate; /* kernel.perf_event_max_sample_rate */
	unsigned long long max_stack; /* kernel.perf_event_max_stack */
	bool freq_given, period_given, all_given;
	bool user_only, kernel_only;
	bool format_given;
};

static const char doc[] =
	"Sample stacks on every CPU, aggregate them in the kernel, print folded stacks."
	"\v"
	"Examples:\n"
	"  bpfprof record -d 10 -o out.folded\n"
	"      Profile the whole system for 10 seconds.\n"
	"  bpfprof record -p 1234 -F 999 -d 5\n"
	"      Profile process 1234, its threads and children, at 999 Hz for 5 s.\n"
	"  bpfprof record -- make -j2\n"
	"      Run make and profile it and its children until it exits.\n"
	"  bpfprof record -G system.slice/nginx.service -d 30 --per-pid\n"
	"      Profile one cgroup for 30 s, one stack set per process.\n"
	"\n"
	"Output: one line per unique stack, 'comm;root;...;leaf COUNT'; kernel "
	"frames end in _[k]. See bpfprof-record(1) for details.";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Targets (default: the whole system):", 1 },
	{ "all-cpus", 'a', NULL, 0,
	  "Every process on every CPU (the default when no other target is given)", 1 },
	{ "pid", 'p', "PID[,PID...]", 0,
	  "These processes, with the threads and children they create later", 1 },
	{ "tid", 't', "TID[,TID...]", 0, "These threads only", 1 },
	{ "cgroup", 'G', "PATH", 0,
	  "Tasks in this cgroup v2 directory (absolute, or relative to the cgroup2 mount)",
	  1 },
	{ "cpu", 'C', "LIST", 0,
	  "Only these CPUs, e.g. 0,2-3 (default: every online CPU)", 1 },
	{ "idle", OPT_IDLE, NULL, 0, "Keep samples of the idle task (pid 0)", 1 },

	{ NULL, 0, NULL, 0, "Sampling:", 2 },
	{ "freq", 'F', "HZ", 0, "Samples per second on each CPU (default 99)", 2 },
	{ "period", 'c', "N", 0, "Sample once every N events instead of at a frequency",
	  2 },
	{ "event", 'e', "NAME", 0, "Event to sample (default cpu-clock)", 2 },
	{ "duration", 'd', "SECONDS", 0,
	  "Stop after SECONDS, e.g. 10 or 0.5 (default: at Ctrl-C, SIGTERM or when "
	  "COMMAND exits)",
	  2 },
	{ "user-only", 'U', NULL, 0, "Keep user frames only (kernel time still counts)",
	  2 },
	{ "kernel-only", 'K', NULL, 0, "Keep kernel frames only (user time still counts)",
	  2 },
	{ "max-depth", OPT_MAX_DEPTH, "N", 0,
	  "Frames kept per user and per kernel stack (default and maximum: "
	  "kernel.perf_event_max_stack)",
	  2 },
	{ "max-stacks", OPT_MAX_STACKS, "N", 0,
	  "Room for N unique stacks; samples beyond it are counted as lost (default 16384)",
	  2 },
	{ "empty-handler", OPT_EMPTY_HANDLER, NULL, OPTION_HIDDEN,
	  "Attach a handler that returns at once (benchmarks only)", 2 },

	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "output", 'o', "FILE", 0,
	  "Write the profile to FILE (default: standard output)", 3 },
	{ "format", 'f', "FORMAT", 0,
	  "Output format: folded (default: from the FILE extension, else folded)", 3 },
	{ "per-pid", OPT_PER_PID, NULL, 0, "Start each stack with comm-PID", 3 },
	{ "per-thread", OPT_PER_THREAD, NULL, 0,
	  "Start each stack with comm-PID/TID (implies --per-pid)", 3 },
	{ "quiet", 'q', NULL, 0, "No summary line on stderr at the end", 3 },
	{ "demangle", OPT_DEMANGLE, "MODE", 0,
	  "C++ and Rust names: short (default: no argument lists, no Rust hash), full "
	  "(with argument lists) or none (raw)",
	  3 },
	{ "no-demangle", OPT_NO_DEMANGLE, NULL, 0, "Raw symbol names (--demangle=none)", 3 },
	{ "no-inline", OPT_NO_INLINE, NULL, 0,
	  "No inlined-call frames (FUNC_[i]); with neither them nor --lines, DWARF is not read",
	  3 },
	{ "lines", OPT_LINES, NULL, 0, "Add the source FILE:LINE to each frame name", 3 },
	{ "debug-dir", OPT_DEBUG_DIR, "DIR", 0,
	  "Also look for debug files under DIR (DIR/.build-id/xx/rest.debug, DIR/PATH); "
	  "repeatable; /usr/lib/debug is always searched",
	  3 },

	{ NULL, 0, NULL, 0, "Help:", -1 },
	{ 0 },
};

/* Print "bpfprof record: MESSAGE" and exit with status 64. */
static void __attribute__((format(printf, 2, 3), noreturn))
usage_error(const struct argp_state *state, const char *fmt, ...)
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
	usage_error(state, "invalid --%s '%s': expected an integer from %llu to %llu",
		    opt, arg, min, max);
}

static unsigned long long parse_integer(const struct argp_state *state, const char *opt,
					const char *arg, unsigned long long min,
					unsigned long long max)
{
	unsigned long long v;

	if (parse_ull(arg, min, max, &v))
		bad_integer(state, opt, arg, min, max);
	return v;
}

/* A whole small file into a malloc'd string, trailing newline removed. */
static char *read_text(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return NULL;
	len = getline(&line, &cap, f);
	fclose(f);
	if (len <= 0) {
		free(line);
		return NULL;
	}
	if (line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

/* A sysctl or sysfs number, or @fallback when it cannot be read. */
static unsigned long long read_ull(const char *path, unsigned long long fallback)
{
	unsigned long long v;
	char *text = read_text(path);

	if (!text || parse_ull(text, 1, ULLONG_MAX, &v))
		v = fallback;
	free(text);
	return v;
}

/* The thread group of an existing task, or -1 when there is no such task. */
static int task_tgid(int id)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", id);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	free(line);
	fclose(f);
	return tgid;
}

static void check_pids(const struct argp_state *state, const struct idlist *pids)
{
	size_t i;
	int tgid;

	for (i = 0; i < pids->nr; i++) {
		tgid = task_tgid(pids->ids[i]);
		if (tgid < 0)
			usage_error(state, "no process with pid %d", pids->ids[i]);
		if (tgid != pids->ids[i])
			usage_error(
				state,
				"pid %d is a thread of process %d: use -t %d or -p %d",
				pids->ids[i], tgid, pids->ids[i], tgid);
	}
}

static void check_tids(const struct argp_state *state, const struct idlist *tids)
{
	size_t i;

	for (i = 0; i < tids->nr; i++)
		if (task_tgid(tids->ids[i]) < 0)
			usage_error(state, "no thread with tid %d", tids->ids[i]);
}

static void parse_ids(const struct argp_state *state, struct idlist *list,
		      const char *opt, const char *what, const char *arg)
{
	int err = idlist__parse(list, arg, INT_MAX, 0);

	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--%s", opt);
	if (err)
		usage_error(state,
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

	on->text = read_text("/sys/devices/system/cpu/online");
	if (!on->text || idlist__parse(&on->ids, on->text, INT_MAX - 1, 1) ||
	    !on->ids.nr) {
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
		if (!num || parse_ull(num, 0, max, &v))
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
		usage_error(state, "CPU %s is not online (online: %s)", cpu ? cpu : arg,
			    on.text ? on.text : "unknown");
	}
	if (err == -ENOMEM)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--cpu");
	if (err)
		usage_error(
			state,
			"invalid --cpu '%s': expected CPU numbers and ranges like 0,2-3",
			arg);
	for (i = 0; i < cpus->nr; i++)
		if (!idlist__has(&on.ids, cpus->ids[i]))
			usage_error(state, "CPU %d is not online (online: %s)",
				    cpus->ids[i], on.text ? on.text : "unknown");
	online_cpus__free(&on);
}

static void parse_cgroup(const struct argp_state *state, struct record_opts *opts,
			 const char *arg)
{
	char path[PATH_MAX], mnt[PATH_MAX];
	int err;

	if (cgroup__mount(mnt, sizeof(mnt)))
		usage_error(state,
			    "invalid --cgroup '%s': no cgroup2 hierarchy is mounted",
			    arg);
	err = cgroup__resolve(arg, path, sizeof(path));
	if (err == -ENOENT)
		usage_error(state, "no cgroup '%s' in the cgroup2 hierarchy at %s", arg,
			    mnt);
	if (err)
		usage_error(state, "invalid --cgroup '%s': %s (cgroup2 hierarchy at %s)",
			    arg, strerror(-err), mnt);
	free((char *)opts->cgroup);
	opts->cgroup = strdup(path);
	if (!opts->cgroup)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "--cgroup");
}

/* "a, b, c" from the names @name(0), @name(1), ... up to NULL; malloc'd, or NULL. */
static char *join_names(const char *(*name)(unsigned int i))
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

static const char *format_name(unsigned int i)
{
	return i < ARRAY_SIZE(formats) ? formats[i].name : NULL;
}

static void parse_event(const struct argp_state *state, struct record_opts *opts,
			const char *arg)
{
	struct perf_event_attr attr = { 0 };
	char *known;

	if (evspec__parse(arg, &attr) == 0) {
		opts->event = arg;
		return;
	}
	known = join_names(evspec__known);
	usage_error(state, "unknown event '%s' (try: %s)", arg,
		    known ? known : "cpu-clock");
}

static const struct format_desc *format_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* The format "-o FILE" implies; the first one when the extension says nothing. */
static const struct format_desc *format_by_file(const char *file)
{
	const char *ext = file ? strrchr(file, '.') : NULL;
	size_t i;

	if (ext && !strchr(ext, '/'))
		for (i = 0; i < ARRAY_SIZE(formats); i++)
			if (strcmp(formats[i].ext, ext) == 0)
				return &formats[i];
	return &formats[0];
}

static void parse_format(const struct argp_state *state, struct record_opts *opts,
			 const char *arg)
{
	const struct format_desc *f = format_by_name(arg);
	char *names;

	if (f) {
		opts->format = f->format;
		return;
	}
	names = join_names(format_name);
	usage_error(state, "invalid --format '%s': expected %s", arg,
		    names ? names : formats[0].name);
}

static void parse_demangle(const struct argp_state *state, struct record_opts *opts,
			   const char *arg)
{
	char *names;

	if (demangle_mode__parse(arg, &opts->demangle) == 0)
		return;
	names = join_names(demangle_mode__name);
	usage_error(state, "invalid --demangle '%s': expected %s", arg,
		    names ? names : "short, full, none");
}

/* --debug-dir DIR: searched before /usr/lib/debug, which ends the list. */
static void parse_debug_dir(const struct argp_state *state, struct record_opts *opts,
			    const char *arg)
{
	size_t n = opts->nr_debug_dirs;
	struct stat st;
	const char **v;

	errno = 0;
	if (stat(arg, &st) || !S_ISDIR(st.st_mode))
		usage_error(state, "invalid --debug-dir '%s': %s", arg,
			    errno == ENOENT || !errno ? "expected an existing directory" :
							strerror(errno));
	v = realloc(opts->debug_dirs, (n + 3) * sizeof(*v));
	if (!v)
		usage_error(state, "out of memory");
	v[n] = arg;
	v[n + 1] = DEFAULT_DEBUG_DIR;
	v[n + 2] = NULL;
	opts->debug_dirs = v;
	opts->nr_debug_dirs = n + 1;
}

static void parse_duration(const struct argp_state *state, struct record_opts *opts,
			   const char *arg)
{
	if (parse_seconds(arg, &opts->duration))
		usage_error(
			state,
			"invalid --duration '%s': expected a number of seconds above 0 "
			"and at most 31536000, e.g. 10 or 0.5",
			arg);
}

/* The command starts at @arg, the first argument that is not an option. */
static void parse_command(struct argp_state *state, struct record_opts *opts, char *arg)
{
	int first = state->next - 1, n, i;

	if (first < 0 || state->argv[first] != arg)
		for (first = 0; first < state->argc && state->argv[first] != arg; first++)
			;
	n = state->argc - first;
	opts->command = calloc(n + 1, sizeof(*opts->command));
	if (!opts->command)
		argp_failure(state, EXIT_RUNTIME, ENOMEM, "COMMAND");
	for (i = 0; i < n; i++)
		opts->command[i] = state->argv[first + i];
	state->next = state->argc;
}

static error_t parse_target(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;
	struct record_opts *opts = p->opts;

	switch (key) {
	case 'a':
		p->all_given = true;
		break;
	case 'p':
		parse_ids(state, &opts->pids, "pid", "process ids", arg);
		check_pids(state, &opts->pids);
		break;
	case 't':
		parse_ids(state, &opts->tids, "tid", "thread ids", arg);
		check_tids(state, &opts->tids);
		break;
	case 'G':
		parse_cgroup(state, opts, arg);
		break;
	case 'C':
		parse_cpus(state, &opts->cpus, arg);
		break;
	case OPT_IDLE:
		opts->idle = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t parse_sampling(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;
	struct record_opts *opts = p->opts;

	switch (key) {
	case 'F':
		opts->freq = parse_integer(state, "freq", arg, 1, p->max_rate);
		p->freq_given = true;
		break;
	case 'c':
		opts->period = parse_integer(state, "period", arg, 1, PERIOD_MAX);
		p->period_given = true;
		break;
	case 'e':
		parse_event(state, opts, arg);
		break;
	case 'd':
		parse_duration(state, opts, arg);
		break;
	case 'U':
		p->user_only = true;
		break;
	case 'K':
		p->kernel_only = true;
		break;
	case OPT_MAX_DEPTH:
		opts->max_depth = parse_integer(state, "max-depth", arg, 1, p->max_stack);
		break;
	case OPT_MAX_STACKS:
		opts->max_stacks =
			parse_integer(state, "max-stacks", arg, 1, MAX_STACKS_LIMIT);
		break;
	case OPT_EMPTY_HANDLER:
		opts->empty_handler = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t parse_output(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;
	struct record_opts *opts = p->opts;

	switch (key) {
	case 'o':
		opts->output = arg;
		break;
	case 'f':
		parse_format(state, opts, arg);
		p->format_given = true;
		break;
	case OPT_PER_PID:
		opts->per_pid = true;
		break;
	case OPT_PER_THREAD:
		opts->per_thread = true;
		break;
	case 'q':
		opts->quiet = true;
		break;
	case OPT_DEMANGLE:
		parse_demangle(state, opts, arg);
		break;
	case OPT_NO_DEMANGLE:
		opts->demangle = DEMANGLE_NONE;
		break;
	case OPT_NO_INLINE:
		opts->inlines = false;
		break;
	case OPT_LINES:
		opts->lines = true;
		break;
	case OPT_DEBUG_DIR:
		parse_debug_dir(state, opts, arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void check_conflicts(const struct argp_state *state, const struct record_parser *p)
{
	const struct record_opts *opts = p->opts;

	if (p->freq_given && p->period_given)
		usage_error(state,
			    "-F/--freq %llu and -c/--period %llu cannot be used together",
			    opts->freq, opts->period);
	if (p->user_only && p->kernel_only)
		usage_error(
			state,
			"-U/--user-only and -K/--kernel-only cannot be used together");
	if (p->all_given && (opts->pids.nr || opts->tids.nr))
		usage_error(state, "-a/--all-cpus cannot be used with %s",
			    opts->pids.nr ? "-p/--pid" : "-t/--tid");
}

static void fill_attr(struct record_opts *opts)
{
	struct perf_event_attr *attr = &opts->attr;

	memset(attr, 0, sizeof(*attr));
	evspec__parse(opts->event, attr); /* checked when -e was parsed */
	attr->size = sizeof(*attr);
	if (opts->use_period) {
		attr->sample_period = opts->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->freq;
	}
	attr->disabled = 0;
}

/* Cross-option checks and derived fields, once every argument is seen. */
static void finish(const struct argp_state *state, struct record_parser *p)
{
	struct record_opts *opts = p->opts;

	check_conflicts(state, p);
	opts->use_period = p->period_given;
	if (p->user_only)
		opts->stacks = STACKS_USER_ONLY;
	else if (p->kernel_only)
		opts->stacks = STACKS_KERNEL_ONLY;
	if (opts->per_thread)
		opts->per_pid = true;
	/* A cgroup alone means the whole system, filtered by cgroup. */
	opts->all_cpus = p->all_given ||
			 (!opts->pids.nr && !opts->tids.nr && !opts->command);
	if (!p->format_given)
		opts->format = format_by_file(opts->output)->format;
	fill_attr(opts);
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_parser *p = state->input;

	switch (key) {
	case ARGP_KEY_ARG:
		parse_command(state, p->opts, arg);
		return 0;
	case ARGP_KEY_END:
		finish(state, p);
		return 0;
	default:
		break;
	}
	if (parse_target(key, arg, state) != ARGP_ERR_UNKNOWN)
		return 0;
	if (parse_sampling(key, arg, state) != ARGP_ERR_UNKNOWN)
		return 0;
	return parse_output(key, arg, state);
}

/* Add the list of event names to the -e help. */
static char *help_filter(int key, const char *text, void *input)
{
	char *known, *out;

	if (key != 'e' || !text)
		return (char *)text;
	known = join_names(evspec__known);
	if (!known)
		return (char *)text;
	if (asprintf(&out, "%s; one of: %s", text, known) < 0)
		out = (char *)text;
	free(known);
	return out;
}

static const struct argp record_argp = {
	.options = options,
	.parser = parse_opt,
	.args_doc = "[-- COMMAND [ARG...]]",
	.doc = doc,
	.help_filter = help_filter,
};

static void set_defaults(struct record_parser *p, struct record_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	p->opts = opts;
	p->max_rate = read_ull("/proc/sys/kernel/perf_event_max_sample_rate",
			       FALLBACK_MAX_SAMPLE_RATE);
	p->max_stack =
		read_ull("/proc/sys/kernel/perf_event_max_stack", FALLBACK_MAX_STACK);
	if (p->max_stack > UINT_MAX)
		p->max_stack = FALLBACK_MAX_STACK;
	opts->event = "cpu-clock";
	opts->freq = OPT_DEFAULT_FREQ;
	opts->max_depth = (unsigned int)p->max_stack;
	opts->max_stacks = OPT_DEFAULT_MAX_STACKS;
	opts->format = FORMAT_FOLDED;
	opts->stacks = STACKS_BOTH;
	opts->demangle = DEMANGLE_SHORT;
	opts->inlines = true;
}

void cli_record__parse(int argc, char **argv, struct record_opts *opts)
{
	struct record_parser p = { 0 };
	char **args;
	int i;

	set_defaults(&p, opts);
	args = calloc(argc + 1, sizeof(*args));
	if (!args) {
		fprintf(stderr, PROG_NAME ": %s\n", strerror(ENOMEM));
		exit(EXIT_RUNTIME);
	}
	/* argp names itself after argv[0] in usage, help and errors. */
	args[0] = (char *)PROG_NAME;
	for (i = 1; i < argc; i++)
		args[i] = argv[i];
	argp_err_exit_status = EXIT_USAGE;
	argp_parse(&record_argp, argc > 0 ? argc : 1, args, ARGP_IN_ORDER, NULL, &p);
	free(args);
}

void record_opts__free(struct record_opts *opts)
{
	if (!opts)
		return;
	idlist__free(&opts->pids);
	idlist__free(&opts->tids);
	idlist__free(&opts->cpus);
	free(opts->command);
	opts->command = NULL;
	free((char *)opts->cgroup);
	opts->cgroup = NULL;
	free(opts->debug_dirs);
	opts->debug_dirs = NULL;
}
