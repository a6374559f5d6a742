// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -a -p -t -G -C --idle and the command: which tasks a run samples. Every
 * pid, tid, CPU and cgroup is checked against the running system here, so a
 * wrong one is a usage error before anything is opened.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "cli-targets.h"
#include "exit.h"
#include "idlist.h"
#include "number.h"
#include "procfs.h"

enum {
	OPT_IDLE = CLI_KEY_TARGETS,
};

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

const struct argp cli_targets_argp = { .options = target_options, .parser = parse_target };

void cli_targets__command(struct argp_state *state, struct session_opts *opts, char *arg)
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

void cli_targets__finish(const struct argp_state *state, struct cli_parser *p)
{
	struct target_opts *t = &p->opts->targets;

	if (p->all_given && (t->pids.nr || t->tids.nr))
		cli__usage_error(state, "-a/--all-cpus cannot be used with %s",
				 t->pids.nr ? "-p/--pid" : "-t/--tid");
	/* A cgroup alone means the whole system, filtered by cgroup. */
	t->all_cpus = p->all_given || (!t->pids.nr && !t->tids.nr && !t->command);
}

void cli_targets__free(struct target_opts *t)
{
	idlist__free(&t->pids);
	idlist__free(&t->tids);
	idlist__free(&t->cpus);
	free(t->command);
	t->command = NULL;
	free((char *)t->cgroup);
	t->cgroup = NULL;
}
