// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The capture core: check, open, sample until told to stop (signal,
 * duration, the command's or every target's exit), then hand over to the
 * mode's finish. This is the top level of a sampling subcommand, with its
 * plugs (session.h): it reports errors, once, with the value that was
 * wrong.
 */
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "caps.h"
#include "command.h"
#include "escape.h"
#include "events.h"
#include "evprobe.h"
#include "monotime.h"
#include "outfile.h"
#include "procfs.h"
#include "session.h"
#include "sideband.h"
#include "stopsig.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

#define SIDEBAND_PAGES 64

/* Descriptors left for the rest (binaries, rings) when several events are opened. */
#define NOFILE_SPARE 256

/* The kernel lowers it when samples take too long (throttling). */
#define MAX_RATE_SYSCTL "/proc/sys/kernel/perf_event_max_sample_rate"

/* What stopped sampling first: the summary says it, the exit status follows it. */
enum session_end {
	SESSION_END_NONE,
	SESSION_END_TARGETS,  /* the command, or every target process, exited */
	SESSION_END_DURATION, /* -d */
	SESSION_END_SIGNAL,   /* SIGINT, SIGTERM or SIGHUP to bpfprof */
	SESSION_END_MODE,     /* a plug's session__stop: watch --count, top's q, a failure */
};

struct session {
	const struct session_opts *o;
	const char *prog;      /* "bpfprof", "bpfprof range": messages start with it */
	const struct session_plug *plugs;
	size_t nr_plugs;
	struct idlist cpus;
	struct loader *l;
	struct events *ev;
	struct sideband *sb;
	struct proc_table *pt;
	struct command *cmd;
	struct outfile *out;
	struct symbolizer *sym; /* kallsyms read before sampling, not after */
	bool cmd_before_exec;   /* the command is still bpfprof's forked copy */
	int sigfd, timerfd, cgroup_fd;
	int stats_fd;          /* --stats: BPF run-time statistics on while open */
	int *pidfds; /* -p and -t targets; -1 once exited */
	size_t nr_pidfds, nr_alive;
	struct pollfd *pfd;    /* the run's poll set */
	size_t *pfd_owner;     /* of each entry past the fixed ones: pidfd or plug index */
	bool filter_tgid;
	uint64_t t0, t1;       /* the run, from monotime__ns() */
	/* kernel.perf_event_max_sample_rate at t0 and t1: lowered means throttled */
	uint64_t max_rate0, max_rate1;
	double next_tick;      /* monotonic seconds */
	bool stop;
	enum session_end end;  /* what stopped sampling first (session__end_by) */
	int end_signo;         /* SESSION_END_SIGNAL: which signal */
	int cmd_end_signo;     /* the command still ran at the end: what bpfprof sent it */
	int stop_status;       /* a hook's failure while sampling (session__stop) */
	unsigned int stop_signals; /* SIGINT, SIGTERM, SIGHUP read before the end */
};

/*
 * Set by a stop signal while the profile is being finished: the
 * symbolizer reads no more files and the profile is written with what is
 * named so far. A signal handler's flag, so it is the process's.
 */
static volatile sig_atomic_t session_hurry;

/* Call hook @h of every plug that has it. */
#define session__each(s, h, ...)                                                   \
	do {                                                                       \
		for (size_t _i = 0; _i < (s)->nr_plugs; _i++)                      \
			if ((s)->plugs[_i].hooks->h)                               \
				(s)->plugs[_i].hooks->h((s), (s)->plugs[_i].priv,  \
							##__VA_ARGS__);            \
	} while (0)

/* The same for hooks that return a status or an error: the first that is not 0. */
#define session__each_until(s, ret, h, ...)                                        \
	do {                                                                       \
		for (size_t _i = 0; _i < (s)->nr_plugs && !(ret); _i++)           \
			if ((s)->plugs[_i].hooks->h)                               \
				(ret) = (s)->plugs[_i].hooks->h((s), (s)->plugs[_i].priv, \
								##__VA_ARGS__);    \
	} while (0)

/*
 * How often JIT maps are read while the run goes on, and the unwinder's
 * epoch advances: a table not walked through for one to two ticks may be
 * evicted, and tables walks asked for are loaded at the next tick.
 */
#define TICK_SECONDS 0.5


/*
 * One line on stderr. Messages quote names from outside (paths, symbols,
 * comms, JIT map entries), so the whole message is escaped (escape.c): no
 * control byte of theirs reaches the terminal.
 */
static void session__vprint(const struct session *s, const char *what, const char *fmt,
			    va_list ap)
{
	char *msg = NULL;
	int len = vasprintf(&msg, fmt, ap);

	fprintf(stderr, "%s: %s", s->prog, what);
	if (len >= 0)
		escape__write(stderr, msg, len);
	else
		fputs("out of memory", stderr);
	fputc('\n', stderr);
	free(msg);
}

int session__fail(const struct session *s, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	session__vprint(s, "", fmt, ap);
	va_end(ap);
	return status;
}

void session__warn(const struct session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	session__vprint(s, "warning: ", fmt, ap);
	va_end(ap);
}

void session__note(const struct session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->o->quiet)
		return;
	va_start(ap, fmt);
	session__vprint(s, "note: ", fmt, ap);
	va_end(ap);
}

/* Stop sampling; the first reason given is the run's (@signo: SESSION_END_SIGNAL's). */
static void session__end_by(struct session *s, enum session_end why, int signo)
{
	if (!s->stop) {
		s->end = why;
		s->end_signo = signo;
	}
	s->stop = true;
}

void session__stop(struct session *s, int status)
{
	session__end_by(s, SESSION_END_MODE, 0);
	if (!s->stop_status)
		s->stop_status = status;
}

/* Seconds from @a to @b, both from monotime__ns(). */
static double elapsed(uint64_t a, uint64_t b)
{
	return (b - a) / 1e9;
}

/* ---- what the plugs see ---- */

const struct session_opts *session__opts(const struct session *s)
{
	return s->o;
}

const char *session__prog(const struct session *s)
{
	return s->prog;
}

struct loader *session__loader(const struct session *s)
{
	return s->l;
}

struct proc_table *session__procs(const struct session *s)
{
	return s->pt;
}

struct symbolizer *session__symbolizer(const struct session *s)
{
	return s->sym;
}

FILE *session__out(const struct session *s)
{
	return outfile__stream(s->out);
}

int session__commit(const struct session *s, int err, const char *what)
{
	err = err ? outfile__error(s->out) ?: err : outfile__commit(s->out);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot write the %s to %s: %s", what,
				     outfile__name(s->out), strerror(-err));
	return 0;
}

const struct sideband *session__sideband(const struct session *s)
{
	return s->sb;
}

size_t session__nr_cpus(const struct session *s)
{
	return s->cpus.nr;
}

double session__seconds(const struct session *s)
{
	return elapsed(s->t0, s->t1);
}

double session__elapsed(const struct session *s)
{
	if (!s->t0)
		return 0;
	return elapsed(s->t0, s->t1 ? s->t1 : monotime__ns());
}

pid_t session__command_pid(const struct session *s)
{
	return s->cmd ? command__pid(s->cmd) : 0;
}

int session__command_cpu_ns(const struct session *s, uint64_t *ns)
{
	return s->cmd ? command__cpu_ns(s->cmd, ns) : -ENOENT;
}

bool session__before_exec(const struct session *s, pid_t tgid)
{
	return s->cmd_before_exec && tgid == command__pid(s->cmd);
}

int session__prog_stats(const struct session *s, uint64_t *ns, uint64_t *runs)
{
	if (s->stats_fd < 0 || loader__prog_stats(s->l, ns, runs) || !*runs)
		return -ENODATA;
	return 0;
}

int session__event_period_ns(const struct session *s, size_t event, uint64_t *ns)
{
	const struct sampling_opts *so = &s->o->sampling;
	const struct perf_event_attr *a;

	if (event >= so->nr_events)
		return -ENOTSUP;
	a = &so->events[event].attrs[0];
	if (a->type != PERF_TYPE_SOFTWARE ||
	    (a->config != PERF_COUNT_SW_CPU_CLOCK && a->config != PERF_COUNT_SW_TASK_CLOCK))
		return -ENOTSUP;
	*ns = a->freq ? 1000000000ull / (a->sample_freq ? a->sample_freq : 1) : a->sample_period;
	return 0;
}

int session__period_ns(const struct session *s, uint64_t *ns)
{
	return session__event_period_ns(s, 0, ns);
}

void session__max_rates(const struct session *s, uint64_t *start, uint64_t *end)
{
	*start = s->max_rate0;
	*end = s->max_rate1;
}

void session__print_rate(const struct session *s, double hz)
{
	const struct sampling_opts *so = &s->o->sampling;

	if (so->use_period)
		fprintf(stderr, "period %llu requested", so->period);
	else
		fprintf(stderr, "%llu Hz requested", so->freq);
	fprintf(stderr, ", %.1f Hz effective on the busiest CPU", hz);
}

/* The summary's word on a command bpfprof ended: what found it running, what it got. */
static void session__print_command_end(const struct session *s)
{
	const char *cmd = s->o->targets.command[0];

	fputs("; '", stderr);
	escape__write(stderr, cmd, strlen(cmd));
	fputs("' was still running ", stderr);
	if (s->end == SESSION_END_DURATION)
		fprintf(stderr, "after -d %g", s->o->sampling.duration);
	else if (s->end == SESSION_END_SIGNAL)
		fprintf(stderr, "at SIG%s", sigabbrev_np(s->end_signo) ?: "?");
	else
		fputs("at the end of the run", stderr);
	fprintf(stderr, " and was ended (SIG%s)", sigabbrev_np(s->cmd_end_signo) ?: "?");
}

void session__print_output(const struct session *s, const char *what)
{
	const char *name = outfile__name(s->out);

	if (s->cmd_end_signo)
		session__print_command_end(s);
	if (!s->o->output || !strcmp(s->o->output, "-"))
		return;
	fprintf(stderr, "; %s written to ", what);
	escape__write(stderr, name, strlen(name));
}

/* ---- setup ---- */

static void session__on_signal(struct session *s);

int session__signal_fd(const struct session *s)
{
	return s->sigfd;
}

bool session__stopping(struct session *s)
{
	session__on_signal(s);
	return s->stop_signals;
}

/*
 * The stop signals are blocked since bpfprof's first instruction (main.c):
 * one that came since is pending, and read here with the others.
 */
static int session__signals(struct session *s)
{
	sigset_t set;

	stopsig__set(&set);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return s->sigfd < 0 ? -errno : 0;
}

static int session__timer(struct session *s)
{
	struct itimerspec its = { 0 };
	double d = s->o->sampling.duration;

	s->timerfd = -1;
	if (d <= 0)
		return 0;
	s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (s->timerfd < 0)
		return -errno;
	its.it_value.tv_sec = (time_t)d;
	its.it_value.tv_nsec = (long)((d - (time_t)d) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	return timerfd_settime(s->timerfd, 0, &its, NULL) ? -errno : 0;
}

static int session__load(struct session *s)
{
	const struct session_opts *o = s->o;
	const struct sampling_opts *so = &o->sampling;
	int status = 0;
	struct loader_cfg cfg = {
		.max_depth = so->max_depth,
		.kernel_max = procfs__read_ull("/proc/sys/kernel/perf_event_max_stack", 127),
		.max_stacks = so->max_stacks,
		.max_targets = procfs__read_ull("/proc/sys/kernel/pid_max", 4194304),
		.user_stacks = so->stacks != STACKS_KERNEL_ONLY,
		.kernel_stacks = so->stacks != STACKS_USER_ONLY,
		.filter_tgid = s->filter_tgid,
		.filter_tid = o->targets.tids.nr > 0,
		.filter_cgroup = o->targets.cgroup != NULL,
		.idle = o->targets.idle,
		.empty_handler = so->empty_handler,
		.events = so->nr_events,
	};

	session__each_until(s, status, configure, &cfg);
	if (status)
		return status;
	s->l = loader__load(&cfg);
	if (!s->l)
		return session__fail(s, EXIT_RUNTIME, "cannot load the BPF program: %s%s%s",
				     strerror(errno), *loader__error() ? ": " : "",
				     loader__error());
	session__each_until(s, status, start, &cfg);
	return status;
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

/*
 * A -p (@thread false) or -t target into the BPF maps, and a pidfd on it, so
 * recording stops when the last one exits.
 */
static int session__add_target(struct session *s, pid_t id, bool thread)
{
	int fd, err;

	err = thread ? loader__add_tid(s->l, id) : loader__add_tgid(s->l, id, TARGET_ACTIVE);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot add %s %d: %s",
				     thread ? "tid" : "pid", id, strerror(-err));
	fd = pidfd_open(id, thread ? PIDFD_THREAD : 0);
	if (fd < 0 && thread && errno == EINVAL)
		return 0; /* kernel < 6.9: a thread cannot be watched; run until stopped */
	if (fd < 0)
		return session__fail(s, EXIT_USAGE, "no %s with %s %d", thread ? "thread" : "process",
			    thread ? "tid" : "pid", id);
	s->pidfds[s->nr_pidfds++] = fd;
	s->nr_alive++;
	return 0;
}

/* The process of a -t target (the thread itself when it is gone). */
static pid_t session__tgid_of(pid_t tid)
{
	pid_t tgid = procfs__tgid(tid);

	return tgid < 0 ? tid : tgid;
}

/* Follow the -p and -t targets' processes, their mappings read now. */
static int session__track(struct session *s)
{
	const struct target_opts *o = &s->o->targets;
	int err = 0;

	for (size_t i = 0; i < o->pids.nr && !err; i++)
		err = proc_table__track(s->pt, o->pids.ids[i]);
	for (size_t i = 0; i < o->tids.nr && !err; i++)
		err = proc_table__track(s->pt, session__tgid_of(o->tids.ids[i]));
	if (!err && !s->filter_tgid && !o->tids.nr)
		err = proc_table__scan_all(s->pt);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot read the targets' mappings in /proc: %s",
			    strerror(-err));
	return 0;
}

/* The targets into the BPF maps, each watched so the run ends with the last. */
static int session__targets(struct session *s)
{
	const struct target_opts *o = &s->o->targets;
	int err, status = 0;

	s->pidfds = calloc(o->pids.nr + o->tids.nr + 1, sizeof(int));
	if (!s->pidfds)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	for (size_t i = 0; i < o->pids.nr && !status; i++)
		status = session__add_target(s, o->pids.ids[i], false);
	for (size_t i = 0; i < o->tids.nr && !status; i++)
		status = session__add_target(s, o->tids.ids[i], true);
	if (status)
		return status;
	if (o->cgroup) {
		s->cgroup_fd = open(o->cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->cgroup_fd < 0 || loader__set_cgroup(s->l, s->cgroup_fd))
			return session__fail(s, EXIT_USAGE, "cannot use cgroup '%s': %s", o->cgroup,
				    strerror(errno));
	}
	/* the command counts from its exec on, not while it is still us */
	err = s->cmd && s->filter_tgid ?
		      loader__add_tgid(s->l, command__pid(s->cmd), TARGET_PENDING_EXEC) :
		      0;
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot follow '%s': %s", s->o->targets.command[0],
			    strerror(-err));
	return 0;
}

/* Fork the command, held before its exec until sampling is on. */
static int session__command(struct session *s)
{
	int err;

	if (!s->o->targets.command)
		return 0;
	s->cmd = command__fork(s->o->targets.command);
	if (!s->cmd)
		return session__fail(s, EXIT_RUNTIME, "cannot start '%s': %s", s->o->targets.command[0],
			    strerror(errno));
	s->cmd_before_exec = true;
	err = proc_table__track(s->pt, command__pid(s->cmd));
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot follow '%s': %s", s->o->targets.command[0],
			    strerror(-err));
	return 0;
}

pid_t session__one_target(const struct session *s)
{
	const struct target_opts *o = &s->o->targets;
	pid_t tgid = 0;

	if (o->pids.nr + !!s->cmd > 1 || o->all_cpus)
		return 0;
	if (o->pids.nr)
		tgid = o->pids.ids[0];
	else if (s->cmd)
		tgid = command__pid(s->cmd);
	for (size_t i = 0; i < o->tids.nr; i++) {
		pid_t t = session__tgid_of(o->tids.ids[i]);

		if (tgid && t != tgid)
			return 0;
		tgid = t;
	}
	return tgid;
}

/*
 * Why sampling event @ev did not open: no PMU at all, a PMU without the
 * event (or one that cannot sample it), permissions, or else the errno.
 */
static int session__event_error(struct session *s, const struct sampling_event *ev, int err,
				int cpu)
{
	const struct perf_event_attr *attr = &ev->attrs[0];
	enum evprobe_why why = evprobe__classify(attr, err, evprobe__core_pmu());

	if (why == EVPROBE_PERM)
		return session__fail(s, EXIT_NOPERM, "event '%s' is not permitted (%s): "
				     "it needs CAP_PERFMON, or kernel.perf_event_paranoid "
				     "lower than it is for what it counts (:u counts less)",
				     ev->name, strerror(err));
	if (why == EVPROBE_NO_PMU)
		return session__fail(s, EXIT_RUNTIME,
			    "event '%s' is not supported: this machine has no hardware PMU "
			    "(a VM without PMU passthrough?); use -e cpu-clock",
			    ev->name);
	if (why == EVPROBE_PMU_LACKS)
		return session__fail(s, EXIT_RUNTIME,
			    "event '%s' is not supported by its PMU: it has no such event, "
			    "or counts it without sampling (%s)", ev->name, strerror(err));
	if (cpu >= 0)
		return session__fail(s, EXIT_RUNTIME, "cannot open event '%s' on CPU %d: %s",
				     ev->name, cpu, strerror(err));
	return session__fail(s, EXIT_RUNTIME, "cannot attach to event '%s': %s", ev->name,
			     strerror(err));
}

/*
 * Several events: the descriptors they take (an event per kernel event and
 * CPU, and a link for each but the first event's) must fit in
 * RLIMIT_NOFILE (raised to its hard limit) with room to spare for the
 * binaries read: more events than that is a usage error, before any is
 * opened. 0 or the exit status.
 */
static int session__check_nr_events(struct session *s)
{
	const struct sampling_opts *so = &s->o->sampling;
	struct rlimit rl;
	uint64_t need = 0;

	if (so->nr_events < 2)
		return 0;
	for (size_t i = 0; i < so->nr_events; i++)
		need += so->events[i].nr_attrs * (i ? 2 : 1);
	need *= s->cpus.nr;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    need + NOFILE_SPARE <= rl.rlim_cur)
		return 0;
	return session__fail(s, EXIT_USAGE, "%zu events on %zu CPU%s take %" PRIu64 " file "
			     "descriptors, more than the %llu that the limit of %llu (ulimit -n) "
			     "leaves once %d are kept for the rest: expected fewer -e events, "
			     "or fewer CPUs (-C)",
			     so->nr_events, s->cpus.nr, s->cpus.nr == 1 ? "" : "s", need,
			     rl.rlim_cur > NOFILE_SPARE ?
				     (unsigned long long)rl.rlim_cur - NOFILE_SPARE : 0,
			     (unsigned long long)rl.rlim_cur, NOFILE_SPARE);
}

/*
 * Sampling event @i on every CPU, each kernel event (one per core PMU on a
 * hybrid machine) with cookie @i. A CPU where none of its kernel events
 * opens is left out with a warning naming the CPUs (as perf goes on); an
 * event that opens on no CPU, or does not attach, ends the run.
 */
static int session__open_event(struct session *s, size_t i)
{
	const struct sampling_event *ev = &s->o->sampling.events[i];
	int prog = loader__sample_fd(s->l), first_err = 0, first_cpu = -1, err;
	char *failed = NULL;
	size_t len = 0, nr_failed = 0;
	FILE *f = open_memstream(&failed, &len);
	bool opened;

	if (!f)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	for (size_t c = 0; c < s->cpus.nr; c++) {
		bool any = false;

		for (size_t a = 0; a < ev->nr_attrs; a++) {
			err = events__add(s->ev, &ev->attrs[a], s->cpus.ids[c], prog, i, &opened);
			if (!err) {
				any = true;
				continue;
			}
			if (opened) { /* the program did not attach: nothing would be counted */
				fclose(f);
				free(failed);
				return session__event_error(s, ev, -err, -1);
			}
			if (!first_err) {
				first_err = -err;
				first_cpu = s->cpus.ids[c];
			}
		}
		if (!any)
			fprintf(f, "%s%d", nr_failed++ ? "," : "", s->cpus.ids[c]);
	}
	err = fclose(f) ? -ENOMEM : 0;
	if (!err && nr_failed == s->cpus.nr)
		err = session__event_error(s, ev, first_err, first_cpu);
	else if (!err && nr_failed)
		session__warn(s, "event '%s' cannot be opened on CPU%s %s (%s): not sampled "
			      "there", ev->name, nr_failed > 1 ? "s" : "", failed,
			      strerror(first_err));
	else if (err)
		err = session__fail(s, EXIT_RUNTIME, "out of memory");
	free(failed);
	return err;
}

static int session__events(struct session *s)
{
	bool own = false;
	int status = 0;

	for (size_t i = 0; i < s->nr_plugs; i++)
		own |= s->plugs[i].hooks->events != NULL;
	if (own) {
		session__each_until(s, status, events);
		return status;
	}

	/* --stats: the program's run time is counted while this fd is open */
	if (s->o->bpf_stats)
		s->stats_fd = loader__enable_stats();

	status = session__check_nr_events(s);
	if (status)
		return status;
	s->ev = events__new();
	if (!s->ev)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	for (size_t i = 0; i < s->o->sampling.nr_events && !status; i++)
		status = session__open_event(s, i);
	return status;
}

static int session__copy_cpus(struct session *s)
{
	const struct idlist *cpus = &s->o->targets.cpus;

	s->cpus.ids = malloc(cpus->nr * sizeof(int));
	if (!s->cpus.ids)
		return -ENOMEM;
	memcpy(s->cpus.ids, cpus->ids, cpus->nr * sizeof(int));
	s->cpus.nr = cpus->nr;
	return 0;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	/* One descriptor per binary stays open for the run. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int session__open(struct session *s)
{
	const struct session_opts *o = s->o;
	const struct target_opts *t = &o->targets;
	char missing[64], why[OUTFILE_WHY_MAX];
	int err, status = 0;

	/* first: a stop signal from now on is read, however early it comes */
	err = session__signals(s);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot set up signals: %s",
				     strerror(-err));
	if (caps__check(missing, sizeof(missing)))
		return session__fail(s, EXIT_NOPERM, "missing %s: run as root, or grant them "
				     "(setcap cap_bpf,cap_perfmon+ep)", missing);
	s->out = outfile__open(o->output, why, sizeof(why));
	if (!s->out)
		return session__fail(s, EXIT_USAGE, "cannot write '%s'%s: %s", o->output,
				     o->output_default ? " (the default output file; name "
							 "another with -o)" : "",
				     why);
	session__each_until(s, status, open);
	if (status)
		return status;
	err = t->cpus.nr ? session__copy_cpus(s) : procfs__online_cpus(&s->cpus, NULL);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot list CPUs: %s", strerror(-err));
	raise_nofile();
	s->filter_tgid = t->pids.nr || (t->command && !t->all_cpus);
	s->pt = proc_table__new(!s->filter_tgid && !t->tids.nr);
	s->sym = s->pt ? symbolizer__new(s->pt, &o->symbols,
					 o->kallsyms ? "/proc/kallsyms" : NULL) :
			 NULL;
	if (!s->sym)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	/* The side band first, then /proc: no mapping falls between the two. */
	s->sb = s->pt ? sideband__open(&s->cpus, SIDEBAND_PAGES) : NULL;
	if (!s->sb)
		return session__fail(s, EXIT_RUNTIME, "cannot open the side-band events: %s",
				     strerror(errno));
	status = session__track(s);
	status = status ?: session__command(s);
	/* what the plugs resolve from the mappings may size the maps */
	if (!status)
		session__each_until(s, status, prepare);
	status = status ?: session__load(s);
	status = status ?: session__targets(s);
	status = status ?: session__events(s);
	if (status)
		return status;
	if (s->filter_tgid && (err = loader__attach_followers(s->l)))
		return session__fail(s, EXIT_RUNTIME, "cannot follow forks: %s: %s",
				     strerror(-err), loader__error());
	return 0;
}

/* ---- the run ---- */

static void sb_mmap(void *ctx, const struct sb_mmap *m)
{
	struct session *s = ctx;
	const struct mapping *map;
	struct map_event ev = {
		.start = m->start,
		.end = m->start + m->len,
		.pgoff = m->pgoff,
		.dev = makedev(m->maj, m->min),
		.ino = m->ino,
		.path = m->filename,
	};

	if (proc_table__mmap(s->pt, m->pid, &ev))
		return;
	map = proc_table__find(s->pt, m->pid, NULL, m->start);
	if (map && (map->start != ev.start || map->end != ev.end))
		map = NULL;
	session__each(s, mmap, m->pid, map);
}

static void sb_comm(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	struct session *s = ctx;

	proc_table__comm(s->pt, pid, tid, comm, exec);
	if (!exec)
		return;
	if (session__before_exec(s, pid))
		s->cmd_before_exec = false; /* the command's own image from here on */
	session__each(s, exec, pid);
}

static void sb_fork(void *ctx, pid_t ppid, pid_t pid, pid_t tid)
{
	struct session *s = ctx;

	proc_table__fork(s->pt, ppid, pid, tid);
	if (pid == tid && pid != ppid)
		session__each(s, fork, ppid, pid);
}

static void sb_exit(void *ctx, pid_t pid, pid_t tid)
{
	struct session *s = ctx;

	if (pid != tid)
		return;
	proc_table__exit(s->pt, pid);
	session__each(s, exit, pid);
}

static const struct sideband_ops proc_ops = {
	.mmap = sb_mmap,
	.comm = sb_comm,
	.fork = sb_fork,
	.exit = sb_exit,
};

int session__read_sideband(struct session *s)
{
	int err = 0;

	sideband__read(s->sb, &proc_ops, s);
	session__each_until(s, err, batch);
	return err;
}

static void session__binary_gone(const struct binary *b, void *ctx)
{
	struct session *s = ctx;

	session__each(s, binary_gone, b);
	symbolizer__forget_binary(s->sym, b);
}

/*
 * How long a binary no process maps is kept: churn execs /bin/true a few
 * times a second, and without this it was read and freed 5,856 times in a
 * 30-minute soak (its symbols, debug file and unwind table each time).
 */
#define SESSION_BINARY_GRACE_NS 2000000000ULL
/* Blocks this large or larger are mmap'd, and unmapped when freed (glibc's default start). */
#define SESSION_MMAP_THRESHOLD (128 * 1024)

size_t session__release_binaries(struct session *s)
{
	size_t n = proc_table__release_unmapped(s->pt, monotime__ns(), SESSION_BINARY_GRACE_NS,
						session__binary_gone, s);

	/*
	 * A binary's symbol table and DWARF index are many allocations among
	 * those that stay; glibc keeps the freed room in its arenas (the
	 * table-building thread's too), resident, unless trimmed: 38 MB of
	 * 103 MB after 90 s of a system-wide run on a busy machine.
	 */
	if (n)
		malloc_trim(0);
	return n;
}

static void session__on_signal(struct session *s)
{
	struct signalfd_siginfo si;
	int status;

	while (read(s->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD) {
			session__end_by(s, SESSION_END_SIGNAL, (int)si.ssi_signo);
			s->stop_signals++;
		}
		else if (s->cmd && command__poll(s->cmd, &status) == 1)
			session__end_by(s, SESSION_END_TARGETS, 0);
	}
}

/*
 * The run is over and the command still runs (a signal, -d): end it as
 * perf ends its workload, with SIGTERM, and wait until it is gone, so no
 * command outlives bpfprof; a second signal kills it. A command still
 * held before its exec exits without running.
 */
static void session__end_command(struct session *s)
{
	struct pollfd pfd = { .fd = s->sigfd, .events = POLLIN };
	struct signalfd_siginfo si;
	bool told = false;
	int status;

	if (!s->cmd || command__poll(s->cmd, &status) != 0 || command__end(s->cmd, SIGTERM))
		return;
	if (command__released(s->cmd))
		s->cmd_end_signo = SIGTERM;
	while (command__poll(s->cmd, &status) == 0) {
		if (poll(&pfd, 1, 1000) == 0 && !told && command__released(s->cmd)) {
			session__warn(s, "waiting for '%s' (pid %d) to exit after SIGTERM; "
				      "signal bpfprof again to kill it",
				      s->o->targets.command[0], command__pid(s->cmd));
			told = true;
		}
		while (read(s->sigfd, &si, sizeof(si)) == sizeof(si))
			if (si.ssi_signo != SIGCHLD && !command__end(s->cmd, SIGKILL))
				s->cmd_end_signo = SIGKILL;
	}
}

static void session__on_pidfd(struct session *s, size_t i)
{
	close(s->pidfds[i]);
	s->pidfds[i] = -1;
	if (--s->nr_alive == 0)
		session__end_by(s, SESSION_END_TARGETS, 0);
}

static void refresh_jit(pid_t tgid, void *ctx)
{
	symbolizer__refresh_jit(ctx, tgid);
}

/*
 * Every tick: JIT maps are read while their processes live, from where
 * the last read stopped (a map in a container's /tmp is gone when the
 * container is); the plugs tick (the unwinder's clock advances). The poll
 * timeout to the next.
 */
static int session__tick(struct session *s)
{
	double now = monotime__ns() / 1e9;

	if (now >= s->next_tick) {
		proc_table__for_each_jit(s->pt, refresh_jit, s->sym);
		session__each(s, tick);
		s->next_tick = now + TICK_SECONDS;
	}
	return (int)((s->next_tick - now) * 1000) + 1;
}

/*
 * The poll set: the signalfd, the timer, the side-band rings, then one
 * entry per plug (its fd, or -1, which poll ignores), then the live pidfds.
 */
static int session__poll(struct session *s)
{
	struct pollfd *pfd = s->pfd;
	size_t n = 0, nsb = sideband__nr_fds(s->sb), plugs;
	int err = 0, timeout, wait;

	pfd[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = s->timerfd, .events = POLLIN };
	for (size_t i = 0; i < nsb; i++)
		pfd[n++] = (struct pollfd){ .fd = sideband__fd(s->sb, i), .events = POLLIN };
	plugs = n;
	for (size_t i = 0; i < s->nr_plugs; i++) {
		const struct session_hooks *h = s->plugs[i].hooks;

		pfd[n++] = (struct pollfd){ .fd = h->fd ? h->fd(s->plugs[i].priv) : -1,
					    .events = POLLIN };
	}
	for (size_t i = 0; i < s->nr_pidfds; i++) {
		if (s->pidfds[i] < 0)
			continue;
		s->pfd_owner[n] = i;
		pfd[n++] = (struct pollfd){ .fd = s->pidfds[i], .events = POLLIN };
	}
	timeout = session__tick(s);
	wait = sideband__wait_ms(s->sb); /* records held back to be put in order */
	if (wait >= 0 && wait < timeout)
		timeout = wait;
	if (poll(pfd, n, timeout) < 0 && errno != EINTR)
		return -errno;
	if (pfd[0].revents)
		session__on_signal(s);
	if (pfd[1].revents)
		session__end_by(s, SESSION_END_DURATION, 0);
	for (size_t i = 2; i < plugs; i++)
		if (pfd[i].revents || wait >= 0) {
			err = session__read_sideband(s);
			if (err)
				return err;
			break;
		}
	for (size_t i = 0; i < s->nr_plugs && !err; i++)
		if (pfd[plugs + i].revents && s->plugs[i].hooks->ready)
			err = s->plugs[i].hooks->ready(s, s->plugs[i].priv);
	if (err)
		return err;
	for (size_t i = plugs + s->nr_plugs; i < n; i++)
		if (pfd[i].revents)
			session__on_pidfd(s, s->pfd_owner[i]);
	return 0;
}

static int session__run(struct session *s)
{
	size_t max = 2 + sideband__nr_fds(s->sb) + s->nr_plugs + s->nr_pidfds;
	int err;

	s->pfd = calloc(max, sizeof(*s->pfd));
	s->pfd_owner = calloc(max, sizeof(*s->pfd_owner));
	if (!s->pfd || !s->pfd_owner)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	s->t0 = monotime__ns();
	s->max_rate0 = procfs__read_ull(MAX_RATE_SYSCTL, 0);
	err = session__timer(s);
	err = err ?: events__enable(s->ev);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot enable sampling: %s",
				     strerror(-err));
	/* a signal while setting up: the command is not run at all */
	session__on_signal(s);
	if (s->cmd && !s->stop && (err = command__release(s->cmd)))
		return session__fail(s, EXIT_NOCMD, "cannot run '%s': %s",
				     s->o->targets.command[0], strerror(-err));
	while (!s->stop && !err)
		err = session__poll(s);
	events__disable(s->ev);
	s->t1 = monotime__ns();
	s->max_rate1 = procfs__read_ull(MAX_RATE_SYSCTL, 0);
	session__each(s, stopped);
	session__end_command(s);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "poll: %s", strerror(-err));
	return s->stop_status;
}

/* ---- the end ---- */

static void session__on_hurry(int sig)
{
	(void)sig;
	session_hurry = 1;
}

/*
 * While the profile is finished, a stop signal (a second Ctrl-C) means
 * "now": it sets session_hurry, which the symbolizer reads, and the one
 * after it has its default action (SA_RESETHAND), ending bpfprof at once.
 * One that came during sampling after the first counts as the second.
 */
static void session__hurry_on_signal(struct session *s)
{
	struct sigaction sa = { .sa_handler = session__on_hurry, .sa_flags = SA_RESETHAND };
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t set;

	session_hurry = s->stop_signals > 1;
	symbolizer__set_stop(s->sym, &session_hurry);
	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&set, sigs[i]);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* The side band's last records, then the plugs' finish (the mode writes). */
static int session__finish(struct session *s)
{
	size_t skipped;
	int status = 0;

	session__hurry_on_signal(s);
	sideband__drain(s->sb, &proc_ops, s);
	if (s->stop_status)
		return s->stop_status; /* a hook stopped the run in the last records */
	session__each_until(s, status, finish);
	skipped = symbolizer__skipped(s->sym);
	if (!status && skipped)
		session__warn(s, "stopped by a signal while naming frames: %zu binar%s not read "
				 "in full, frames not named are shown as [binary+0xOFFSET]",
			      skipped, skipped > 1 ? "ies" : "y");
	return status;
}

static void session__free(struct session *s)
{
	/* the plugs' state may hold on to the loader and the process table's binaries */
	for (size_t i = s->nr_plugs; i-- > 0;)
		if (s->plugs[i].hooks->end)
			s->plugs[i].hooks->end(s, s->plugs[i].priv);
	command__free(s->cmd);
	symbolizer__free(s->sym);
	events__free(s->ev);
	sideband__free(s->sb);
	free(s->pfd);
	free(s->pfd_owner);
	loader__free(s->l);
	proc_table__free(s->pt);
	outfile__free(s->out);
	for (size_t i = 0; i < s->nr_pidfds; i++)
		if (s->pidfds[i] >= 0)
			close(s->pidfds[i]);
	free(s->pidfds);
	if (s->sigfd >= 0)
		close(s->sigfd);
	if (s->timerfd >= 0)
		close(s->timerfd);
	if (s->cgroup_fd >= 0)
		close(s->cgroup_fd);
	if (s->stats_fd >= 0)
		close(s->stats_fd);
	idlist__free(&s->cpus);
}

/*
 * After a run that succeeded, with a command that ran: 128 + N when
 * signal N to bpfprof stopped the run (130 at Ctrl-C, 143 at SIGTERM: an
 * interrupted run, as a shell reports one); 0 when an end asked for
 * (-d, watch --count, top's q) found it still running and bpfprof ended
 * it; else its own status, as a shell gives it (its exit code, 128 + N
 * when signal N ended it). 0 without a command, or when a stop came
 * before it ran.
 */
static int session__command_status(struct session *s)
{
	int status;

	if (!s->cmd || !command__released(s->cmd) || command__poll(s->cmd, &status) != 1)
		return 0;
	if (s->end == SESSION_END_SIGNAL)
		return EXIT_SIGNALED + s->end_signo;
	if (s->cmd_end_signo)
		return 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return EXIT_SIGNALED + WTERMSIG(status);
	return 0;
}

int session__main(const struct session_opts *o, const char *prog,
		  const struct session_plug *plugs, size_t nr_plugs)
{
	struct session s = { .o = o, .prog = prog, .plugs = plugs, .nr_plugs = nr_plugs,
			     .sigfd = -1, .timerfd = -1, .cgroup_fd = -1, .stats_fd = -1 };
	int status;

	/*
	 * A fixed threshold: glibc raises its own to the size of each large
	 * block freed (up to 32 MiB), so after a big binary's symbol table
	 * is freed, the next tables of that size come from the heap, where
	 * what stays among them keeps the room resident. Side by side under
	 * the same load, a system-wide run held 82 MiB of anonymous memory
	 * at 30 s with glibc's and 48 MiB with this, 33 MiB less to the end.
	 */
	mallopt(M_MMAP_THRESHOLD, SESSION_MMAP_THRESHOLD);
	status = session__open(&s);
	status = status ?: session__run(&s);
	status = status ?: session__finish(&s);
	/* bpfprof's own failure first: its one line says what failed */
	status = status ?: session__command_status(&s);
	session__free(&s);
	return status;
}
