// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `bpfprof record` from start to end: check, open, sample until told to
 * stop (signal, duration, the command's or every target's exit), drain
 * once, write. This is the top level of the subcommand: it reports errors,
 * once, with the value that was wrong.
 */
#include <errno.h>
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

#include "caps.h"
#include "command.h"
#include "drain.h"
#include "events.h"
#include "evspec.h"
#include "loader.h"
#include "outfile.h"
#include "output.h"
#include "proc.h"
#include "session.h"
#include "sideband.h"
#include "symbolize.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

#define SIDEBAND_PAGES 64

struct session {
	const struct record_opts *o;
	struct idlist cpus;
	struct loader *l;
	struct events *ev;
	struct sideband *sb;
	struct proc_table *pt;
	struct command *cmd;
	struct outfile *out;
	struct symbolizer *sym; /* kallsyms read before sampling, not after */
	int sigfd, timerfd, cgroup_fd;
	int *pidfds; /* -p and -t targets; -1 once exited */
	size_t nr_pidfds, nr_alive;
	bool filter_tgid;
	struct timespec t0, t1;
	double next_jit_refresh; /* monotonic seconds */
	bool stop;
};

/* How often JIT maps are read while the run goes on. */
#define JIT_REFRESH_SECONDS 1.0

static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("bpfprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

static unsigned int read_sysctl(const char *path, unsigned int fallback)
{
	unsigned int v = fallback;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = fallback;
		fclose(f);
	}
	return v;
}

static double elapsed(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

/* ---- setup ---- */

static int session__signals(struct session *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return s->sigfd < 0 ? -errno : 0;
}

static int session__timer(struct session *s)
{
	struct itimerspec its = { 0 };
	double d = s->o->duration;

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
	const struct record_opts *o = s->o;
	struct loader_cfg cfg = {
		.max_depth = o->max_depth,
		.kernel_max = read_sysctl("/proc/sys/kernel/perf_event_max_stack", 127),
		.max_stacks = o->max_stacks,
		.max_targets = read_sysctl("/proc/sys/kernel/pid_max", 4194304),
		.user_stacks = o->stacks != STACKS_KERNEL_ONLY,
		.kernel_stacks = o->stacks != STACKS_USER_ONLY,
		.filter_tgid = s->filter_tgid,
		.filter_tid = o->tids.nr > 0,
		.filter_cgroup = o->cgroup != NULL,
		.idle = o->idle,
		.per_thread = o->per_thread,
		.empty_handler = o->empty_handler,
	};

	s->l = loader__load(&cfg);
	if (!s->l)
		return fail(EXIT_RUNTIME, "cannot load the BPF program: %s%s%s", strerror(errno),
			    *loader__error() ? ": " : "", loader__error());
	return 0;
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return syscall(SYS_pidfd_open, pid, flags);
}

/* A pidfd per -p/-t target, so recording stops when the last one exits. */
static int session__watch(struct session *s, pid_t id, bool thread)
{
	int fd = pidfd_open(id, thread ? PIDFD_THREAD : 0);

	if (fd < 0 && thread && errno == EINVAL)
		return 0; /* kernel < 6.9: a thread cannot be watched; run until stopped */
	if (fd < 0)
		return fail(EXIT_USAGE, "no %s with %s %d", thread ? "thread" : "process",
			    thread ? "tid" : "pid", id);
	s->pidfds[s->nr_pidfds++] = fd;
	s->nr_alive++;
	return 0;
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

static int session__targets(struct session *s)
{
	const struct record_opts *o = s->o;
	int err = 0, status;

	s->pidfds = calloc(o->pids.nr + o->tids.nr + 1, sizeof(int));
	if (!s->pidfds)
		return fail(EXIT_RUNTIME, "out of memory");
	for (size_t i = 0; i < o->pids.nr && !err; i++) {
		err = loader__add_tgid(s->l, o->pids.ids[i], TARGET_ACTIVE);
		err = err ?: proc_table__track(s->pt, o->pids.ids[i]);
		if (err)
			return fail(EXIT_RUNTIME, "cannot add pid %d: %s", o->pids.ids[i],
				    strerror(-err));
		status = session__watch(s, o->pids.ids[i], false);
		if (status)
			return status;
	}
	for (size_t i = 0; i < o->tids.nr; i++) {
		err = loader__add_tid(s->l, o->tids.ids[i]);
		err = err ?: proc_table__track(s->pt, tgid_of(o->tids.ids[i]));
		if (err)
			return fail(EXIT_RUNTIME, "cannot add tid %d: %s", o->tids.ids[i],
				    strerror(-err));
		status = session__watch(s, o->tids.ids[i], true);
		if (status)
			return status;
	}
	if (o->cgroup) {
		s->cgroup_fd = open(o->cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->cgroup_fd < 0 || loader__set_cgroup(s->l, s->cgroup_fd))
			return fail(EXIT_USAGE, "cannot use cgroup '%s': %s", o->cgroup,
				    strerror(errno));
	}
	return 0;
}

static int session__command(struct session *s)
{
	pid_t pid;
	int err;

	if (!s->o->command)
		return 0;
	s->cmd = command__fork(s->o->command);
	if (!s->cmd)
		return fail(EXIT_RUNTIME, "cannot start '%s': %s", s->o->command[0],
			    strerror(errno));
	pid = command__pid(s->cmd);
	err = s->filter_tgid ? loader__add_tgid(s->l, pid, TARGET_PENDING_EXEC) : 0;
	err = err ?: proc_table__track(s->pt, pid);
	if (err)
		return fail(EXIT_RUNTIME, "cannot follow '%s': %s", s->o->command[0],
			    strerror(-err));
	return 0;
}

static bool pmu_present(void)
{
	return access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	       access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0;
}

static int session__events(struct session *s)
{
	const struct record_opts *o = s->o;
	int cpu, err;

	s->ev = events__open(&o->attr, &s->cpus, loader__sample_fd(s->l), &cpu);
	if (s->ev)
		return 0;
	err = errno;
	if (evspec__is_hardware(&o->attr) &&
	    (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && !pmu_present())
		return fail(EXIT_RUNTIME,
			    "event '%s' is not supported: this machine has no hardware PMU "
			    "(a VM without PMU passthrough?); use -e cpu-clock",
			    o->event);
	if (cpu >= 0)
		return fail(EXIT_RUNTIME, "cannot open event '%s' on CPU %d: %s", o->event, cpu,
			    strerror(err));
	return fail(EXIT_RUNTIME, "cannot attach to event '%s': %s", o->event, strerror(err));
}

static int session__copy_cpus(struct session *s)
{
	s->cpus.ids = malloc(s->o->cpus.nr * sizeof(int));
	if (!s->cpus.ids)
		return -ENOMEM;
	memcpy(s->cpus.ids, s->o->cpus.ids, s->o->cpus.nr * sizeof(int));
	s->cpus.nr = s->o->cpus.nr;
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
	const struct record_opts *o = s->o;
	char missing[64];
	int err, status;

	if (caps__check(missing, sizeof(missing)))
		return fail(EXIT_NOPERM, "missing %s: run as root, or grant them "
			    "(setcap cap_bpf,cap_perfmon+ep)", missing);
	s->out = outfile__open(o->output);
	if (!s->out)
		return fail(EXIT_USAGE, "cannot write '%s': %s", o->output, strerror(errno));
	err = o->cpus.nr ? session__copy_cpus(s) : cpus__online(&s->cpus);
	if (err)
		return fail(EXIT_RUNTIME, "cannot list CPUs: %s", strerror(-err));
	raise_nofile();
	s->filter_tgid = o->pids.nr || (o->command && !o->all_cpus);
	err = session__signals(s);
	if (err)
		return fail(EXIT_RUNTIME, "cannot set up signals and timer: %s", strerror(-err));
	status = session__load(s);
	if (status)
		return status;
	s->pt = proc_table__new(!s->filter_tgid && !o->tids.nr);
	s->sym = s->pt ? symbolizer__new(s->pt, &(struct symbolizer_opts){
					 .kallsyms = o->stacks == STACKS_USER_ONLY ?
							     NULL : "/proc/kallsyms",
					 .demangle = o->demangle,
					 .inlines = o->inlines,
					 .lines = o->lines,
					 .debug_roots = o->debug_dirs,
				 }) :
			 NULL;
	if (!s->sym)
		return fail(EXIT_RUNTIME, "out of memory");
	/* The side band first, then /proc: no mapping falls between the two. */
	s->sb = s->pt ? sideband__open(&s->cpus, SIDEBAND_PAGES) : NULL;
	if (!s->sb)
		return fail(EXIT_RUNTIME, "cannot open the side-band events: %s",
			    strerror(errno));
	status = session__targets(s);
	if (status)
		return status;
	if (!s->filter_tgid && !o->tids.nr && (err = proc_table__scan_all(s->pt)))
		return fail(EXIT_RUNTIME, "cannot read /proc: %s", strerror(-err));
	status = session__command(s);
	status = status ?: session__events(s);
	if (status)
		return status;
	if (s->filter_tgid && (err = loader__attach_followers(s->l)))
		return fail(EXIT_RUNTIME, "cannot follow forks: %s: %s", strerror(-err),
			    loader__error());
	return 0;
}

/* ---- the run ---- */

static const struct sideband_ops proc_ops;

static void sb_mmap(void *ctx, const struct sb_mmap *m)
{
	struct map_event ev = {
		.start = m->start,
		.end = m->start + m->len,
		.pgoff = m->pgoff,
		.dev = makedev(m->maj, m->min),
		.ino = m->ino,
		.build_id = m->build_id,
		.build_id_len = m->build_id_len,
		.path = m->filename,
	};

	proc_table__mmap(ctx, m->pid, &ev);
}

static void sb_comm(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	proc_table__comm(ctx, pid, tid, comm, exec);
}

static void sb_fork(void *ctx, pid_t ppid, pid_t pid, pid_t tid)
{
	proc_table__fork(ctx, ppid, pid, tid);
}

static void sb_exit(void *ctx, pid_t pid, pid_t tid)
{
}

static const struct sideband_ops proc_ops = {
	.mmap = sb_mmap,
	.comm = sb_comm,
	.fork = sb_fork,
	.exit = sb_exit,
};

static void session__on_signal(struct session *s)
{
	struct signalfd_siginfo si;
	int status;

	while (read(s->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo != SIGCHLD)
			s->stop = true;
		else if (s->cmd && command__poll(s->cmd, &status) == 1)
			s->stop = true;
	}
}

static void session__on_pidfd(struct session *s, size_t i)
{
	close(s->pidfds[i]);
	s->pidfds[i] = -1;
	if (--s->nr_alive == 0)
		s->stop = true;
}

static double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void refresh_jit(pid_t tgid, void *ctx)
{
	symbolizer__refresh_jit(ctx, tgid);
}

/*
 * JIT maps are read while their processes live, from where the last read
 * stopped: a map in a container's /tmp is gone when the container is.
 */
static int session__jit_timeout(struct session *s)
{
	double now = monotonic_now();

	if (now >= s->next_jit_refresh) {
		proc_table__for_each_jit(s->pt, refresh_jit, s->sym);
		s->next_jit_refresh = now + JIT_REFRESH_SECONDS;
	}
	return (int)((s->next_jit_refresh - now) * 1000) + 1;
}

static int session__poll(struct session *s, struct pollfd *pfd, size_t *map)
{
	size_t n = 0, nsb = sideband__nr_fds(s->sb);

	pfd[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = s->timerfd, .events = POLLIN };
	for (size_t i = 0; i < nsb; i++)
		pfd[n++] = (struct pollfd){ .fd = sideband__fd(s->sb, i), .events = POLLIN };
	for (size_t i = 0; i < s->nr_pidfds; i++) {
		if (s->pidfds[i] < 0)
			continue;
		map[n] = i;
		pfd[n++] = (struct pollfd){ .fd = s->pidfds[i], .events = POLLIN };
	}
	if (poll(pfd, n, session__jit_timeout(s)) < 0 && errno != EINTR)
		return -errno;
	if (pfd[0].revents)
		session__on_signal(s);
	if (pfd[1].revents)
		s->stop = true;
	for (size_t i = 2; i < 2 + nsb; i++)
		if (pfd[i].revents) {
			sideband__read(s->sb, &proc_ops, s->pt);
			break;
		}
	for (size_t i = 2 + nsb; i < n; i++)
		if (pfd[i].revents)
			session__on_pidfd(s, map[i]);
	return 0;
}

static int session__run(struct session *s)
{
	size_t max = 2 + sideband__nr_fds(s->sb) + s->nr_pidfds;
	struct pollfd *pfd = calloc(max, sizeof(*pfd));
	size_t *map = calloc(max, sizeof(*map));
	int err;

	if (!pfd || !map) {
		free(pfd);
		free(map);
		return fail(EXIT_RUNTIME, "out of memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	err = session__timer(s);
	err = err ?: events__enable(s->ev);
	if (err) {
		free(pfd);
		free(map);
		return fail(EXIT_RUNTIME, "cannot enable sampling: %s", strerror(-err));
	}
	if (s->cmd && (err = command__release(s->cmd))) {
		free(pfd);
		free(map);
		return fail(127, "cannot run '%s': %s", s->o->command[0], strerror(-err));
	}
	while (!s->stop && !err)
		err = session__poll(s, pfd, map);
	events__disable(s->ev);
	clock_gettime(CLOCK_MONOTONIC, &s->t1);
	free(pfd);
	free(map);
	if (err)
		return fail(EXIT_RUNTIME, "poll: %s", strerror(-err));
	return 0;
}

/* ---- the end ---- */

static void session__summary(const struct session *s, const struct profile *p)
{
	const uint64_t *st = p->stats;
	/* The busiest CPU shows throttling; idle CPUs barely tick. */
	double hz = p->duration > 0 ? p->busiest[STAT_SEEN] / p->duration : 0;
	uint64_t lost = profile__lost(p);

	fprintf(stderr, "bpfprof: %" PRIu64 " samples kept, %" PRIu64 " lost", st[STAT_KEPT],
		lost);
	if (lost)
		fprintf(stderr, " (stacks map full: %" PRIu64 ", counts map full: %" PRIu64
			"; raise --max-stacks)",
			st[STAT_DROP_STACKS_FULL], st[STAT_DROP_COUNTS_FULL] + st[STAT_DROP_SCRATCH]);
	fprintf(stderr, ", %zu unique stacks, %.2f s, ", p->nr, p->duration);
	if (s->o->use_period)
		fprintf(stderr, "period %llu requested", s->o->period);
	else
		fprintf(stderr, "%llu Hz requested", s->o->freq);
	fprintf(stderr, ", %.1f Hz effective on the busiest CPU", hz);
	if (st[STAT_USTACK_FAULT])
		fprintf(stderr, ", %" PRIu64 " user stacks unreadable", st[STAT_USTACK_FAULT]);
	if (st[STAT_TARGETS_FULL])
		fprintf(stderr, ", %" PRIu64 " forked children not followed",
			st[STAT_TARGETS_FULL]);
	fputc('\n', stderr);
}

static bool has_kernel_frames(const struct profile *p)
{
	for (size_t i = 0; i < p->nr; i++)
		for (uint32_t j = 0; j < p->stacks[i].nr; j++)
			if (p->stacks[i].frames[j].kind == FRAME_KERNEL)
				return true;
	return false;
}

static void session__warnings(const struct session *s, const struct profile *p,
			      const struct symbolizer *sym)
{
	if (has_kernel_frames(p) && symbolizer__kernel_hidden(sym))
		fprintf(stderr, "bpfprof: warning: kernel symbols are hidden "
				"(kernel.kptr_restrict); kernel frames are shown as addresses\n");
	pid_t pid;
	size_t refused = symbolizer__perfmaps_refused(sym, &pid);

	if (refused)
		fprintf(stderr, "bpfprof: warning: refused the JIT map /tmp/perf-%d.map%s: "
				"not owned by the process's user or root\n",
			pid, refused > 1 ? " and others" : "");
	if (p->sideband_lost)
		fprintf(stderr, "bpfprof: warning: %" PRIu64 " process/mapping records lost; "
				"some frames may show as [binary+0xOFFSET]\n", p->sideband_lost);
	if (!profile__samples(p))
		fprintf(stderr, "bpfprof: warning: no samples were recorded: the targets "
				"did not run on a sampled CPU\n");
}

static int session__finish(struct session *s)
{
	const struct output_ops *ops = output__ops(s->o->format);
	struct output_opts oo = { .per_pid = s->o->per_pid, .per_thread = s->o->per_thread,
				  .lines = s->o->lines };
	struct profile p = { .ncpus = s->cpus.nr };
	int err;

	sideband__read(s->sb, &proc_ops, s->pt);
	p.duration = elapsed(&s->t0, &s->t1);
	p.sideband_lost = sideband__lost(s->sb);
	err = loader__read_stats(s->l, p.stats, p.busiest);
	if (err)
		return fail(EXIT_RUNTIME, "cannot read the BPF counters: %s", strerror(-err));
	err = drain__profile(s->l, s->sym, s->o->stacks, &p);
	err = err ?: ops->write(outfile__stream(s->out), &p, &oo);
	err = err ?: outfile__commit(s->out);
	if (err) {
		fail(EXIT_RUNTIME, "cannot write the profile to '%s': %s",
		     s->o->output ? s->o->output : "-", strerror(-err));
	} else {
		session__warnings(s, &p, s->sym);
		if (!s->o->quiet)
			session__summary(s, &p);
	}
	profile__free(&p);
	return err ? EXIT_RUNTIME : 0;
}

static void session__free(struct session *s)
{
	command__free(s->cmd);
	symbolizer__free(s->sym);
	events__free(s->ev);
	sideband__free(s->sb);
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
	idlist__free(&s->cpus);
}

int record__run(const struct record_opts *o)
{
	struct session s = { .o = o, .sigfd = -1, .timerfd = -1, .cgroup_fd = -1 };
	int status;

	status = session__open(&s);
	status = status ?: session__run(&s);
	status = status ?: session__finish(&s);
	session__free(&s);
	return status;
}
