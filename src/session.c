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
#include "listing.h"
#include "loader.h"
#include "monotime.h"
#include "outfile.h"
#include "output.h"
#include "proc.h"
#include "procfs.h"
#include <bpf/bpf.h>

#include "cficache.h"
#include "rangelive.h"
#include "ranges.h"
#include "session.h"
#include "sideband.h"
#include "symbolize.h"
#include "unwind.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

#define SIDEBAND_PAGES 64

struct session {
	const struct record_opts *o;
	const struct range_opts *ro; /* bpfprof range; NULL: record */
	const char *prog;      /* "bpfprof", "bpfprof range": messages start with it */
	struct range_set rs;   /* range: the resolved ranges */
	struct range_pages pages; /* range: their BPF page entries, until stored */
	struct range_live *live;  /* range: the BPF page entries while sampling */
	uint64_t busiest;      /* range: samples seen on the busiest CPU */
	int live_err;          /* range: the first error placing ranges while sampling */
	struct idlist cpus;
	struct loader *l;
	struct events *ev;
	struct sideband *sb;
	struct proc_table *pt;
	struct command *cmd;
	struct outfile *out;
	struct outfile *stacks_out; /* range --stacks */
	struct symbolizer *sym; /* kallsyms read before sampling, not after */
	struct unwinder *uw;    /* --unwind=dwarf|auto: the tables in the BPF maps */
	char *cache_dir;        /* the unwind tables' disk cache */
	double unwind_load_s;   /* the tables loaded before sampling: seconds */
	unsigned int unwind_maps; /* the most executable mappings of a target at the start */
	unsigned int unwind_maps_cap; /* mappings a process's table holds */
	bool cmd_before_exec;   /* the command is still bpfprof's forked copy */
	int sigfd, timerfd, cgroup_fd;
	int stats_fd;          /* --stats: BPF run-time statistics on while open */
	int *pidfds; /* -p and -t targets; -1 once exited */
	size_t nr_pidfds, nr_alive;
	bool filter_tgid;
	uint64_t t0, t1;       /* the run, from monotime__ns() */
	double next_tick;      /* monotonic seconds */
	bool stop;
};

/*
 * How often JIT maps are read while the run goes on, and the unwinder's
 * epoch advances: a table not walked through for one to two ticks may be
 * evicted, and tables walks asked for are loaded at the next tick.
 */
#define TICK_SECONDS 0.5

static int fail(const struct session *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One line on stderr, "bpfprof: ..." ("bpfprof range: ..."); returns @status. */
static int fail(const struct session *s, int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", s->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* Seconds from @a to @b, both from monotime__ns(). */
static double elapsed(uint64_t a, uint64_t b)
{
	return (b - a) / 1e9;
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

/* Most page entries the range check gets: a bigger range gets bigger pages. */
#define RANGE_MAX_PAGES (1u << 18)
/* Most (range, address) pairs counted: room for any function, bounded memory. */
#define RANGE_MAX_ADDRS (1u << 20)

/*
 * bpfprof range: lay the ranges out in pages, and size the maps from them,
 * with room for the places made while sampling runs (a binary's ranges in
 * libraries and processes that appear later): every binary range may share
 * a page with the others, a by-name range not resolved yet may be any size,
 * and the page and (range, process) maps, unpreallocated, may fill up to
 * their bound.
 */
static int session__range_cfg(struct session *s, struct loader_cfg *cfg)
{
	struct range_place *places = NULL;
	uint64_t span = range_set__span(&s->rs);
	unsigned int bin_ranges = 0;
	bool pending = false;
	size_t n;
	int err;

	for (size_t i = 0; i < s->rs.nr; i++) {
		const struct range *r = &s->rs.r[i];

		if (r->spec.kind == RANGE_BIN_SYM || r->spec.kind == RANGE_BIN_ADDR) {
			bin_ranges++;
			pending |= !r->bin;
		}
	}
	err = range_set__places(&s->rs, &places, &n);
	err = err ?: range_pages__build(&s->pages, places, n, RANGE_MAX_PAGES);
	free(places);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot lay out the ranges: %s", strerror(-err));
	cfg->ranges = true;
	cfg->range_slots = s->pages.slots > bin_ranges ? s->pages.slots : bin_ranges;
	cfg->range_shift = s->pages.shift;
	cfg->range_pages = bin_ranges ? RANGE_MAX_PAGES : s->pages.nr;
	cfg->range_addrs = span < RANGE_MAX_ADDRS && !pending ? span : RANGE_MAX_ADDRS;
	cfg->range_hit_keys = cfg->range_pages;
	cfg->range_stacks = s->ro->stacks != NULL;
	return 0;
}

/* Store the page entries laid out before load; later ones go through s->live. */
static int session__range_pages(struct session *s, const struct loader_cfg *cfg)
{
	int err;

	s->live = range_live__new(s->l, cfg->range_shift, cfg->range_slots);
	err = s->live ? range_live__store(s->live, &s->pages) : -ENOMEM;
	range_pages__free(&s->pages);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot store the ranges: %s", strerror(-err));
	return 0;
}

/*
 * Bins: binaries with tables; maps: executable mappings per process, at
 * least UNWIND_MAPS and twice the most a target has at the start.
 */
#define UNWIND_BINS 16384
#define UNWIND_MAPS 512
#define UNWIND_PROCS 32768

static int count_mapping(pid_t tgid, const struct mapping *m, void *ctx)
{
	(void)tgid;
	(void)m;
	++*(unsigned int *)ctx;
	return 0;
}

static void most_mappings(pid_t tgid, void *ctx)
{
	struct session *s = ctx;
	unsigned int n = 0;

	proc_table__for_each_mapping_of(s->pt, tgid, count_mapping, &n);
	if (n > s->unwind_maps)
		s->unwind_maps = n;
}

/* --unwind=dwarf|auto: the unwinder's map sizes, from --unwind-memory. */
static void session__unwind_cfg(struct session *s, struct loader_cfg *cfg)
{
	const struct record_opts *o = s->o;
	unsigned long long mem = o->unwind_memory;

	cfg->unwind = o->unwind != UNWIND_FP && cfg->user_stacks && !o->empty_handler &&
		      (!s->ro || s->ro->stacks);
	if (!cfg->unwind)
		return;
	cfg->unwind_fallback = o->unwind == UNWIND_AUTO;
	/* 7/8 for rows, 1/8 for page entries (one per 4 KiB of code: ample) */
	cfg->unwind_rows = mem / 8 * 7 / sizeof(struct unwind_row);
	cfg->unwind_pages = mem / 8 / sizeof(__u64);
	cfg->unwind_bins = UNWIND_BINS;
	s->unwind_maps = 0;
	proc_table__for_each_process(s->pt, most_mappings, s);
	cfg->unwind_maps = s->unwind_maps > UNWIND_MAPS / 2 ? 2 * s->unwind_maps : UNWIND_MAPS;
	s->unwind_maps_cap = cfg->unwind_maps;
	cfg->unwind_procs = UNWIND_PROCS;
}

/*
 * Give the unwinder @tgid's mappings as they are after this batch of side
 * band records (unwinder__flush); not the command's before its exec: that
 * image is bpfprof's own (its exec gives it).
 */
static void session__unwind_sync(struct session *s, pid_t tgid)
{
	if (s->uw && !(s->cmd_before_exec && tgid == command__pid(s->cmd)))
		unwinder__mark(s->uw, tgid);
}

static void unwind_sync(pid_t tgid, void *ctx)
{
	session__unwind_sync(ctx, tgid);
}

/* The tables of every binary the targets map now, before sampling starts. */
static int session__unwind_start(struct session *s, const struct loader_cfg *cfg)
{
	uint64_t t0;
	int err;

	if (!cfg->unwind)
		return 0;
	s->cache_dir = cficache__default_dir();
	s->uw = unwinder__new(s->l, s->pt,
			      &(struct unwinder_opts){ .cache_dir = s->cache_dir,
						       .max_bins = cfg->unwind_bins });
	if (!s->uw)
		return fail(s, EXIT_RUNTIME, "cannot set up the unwinder: %s", strerror(errno));
	t0 = monotime__ns();
	proc_table__for_each_process(s->pt, unwind_sync, s);
	err = unwinder__flush(s->uw);
	err = err ?: unwinder__wait(s->uw);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot load unwind tables: %s", strerror(-err));
	s->unwind_load_s = elapsed(t0, monotime__ns());
	unwinder__reset_latency(s->uw);
	return 0;
}

static int session__load(struct session *s)
{
	const struct record_opts *o = s->o;
	int status;
	struct loader_cfg cfg = {
		.range_shift = RANGE_PAGE_SHIFT,
		.max_depth = o->max_depth,
		.kernel_max = procfs__read_ull("/proc/sys/kernel/perf_event_max_stack", 127),
		.max_stacks = o->max_stacks,
		.max_targets = procfs__read_ull("/proc/sys/kernel/pid_max", 4194304),
		.user_stacks = o->stacks != STACKS_KERNEL_ONLY,
		.kernel_stacks = o->stacks != STACKS_USER_ONLY,
		.filter_tgid = s->filter_tgid,
		.filter_tid = o->tids.nr > 0,
		.filter_cgroup = o->cgroup != NULL,
		.idle = o->idle,
		.per_thread = o->per_thread,
		.empty_handler = o->empty_handler,
	};

	if (s->ro && (status = session__range_cfg(s, &cfg)))
		return status;
	session__unwind_cfg(s, &cfg);
	s->l = loader__load(&cfg);
	if (!s->l)
		return fail(s, EXIT_RUNTIME, "cannot load the BPF program: %s%s%s",
			    strerror(errno), *loader__error() ? ": " : "", loader__error());
	status = session__unwind_start(s, &cfg);
	return status ?: s->ro ? session__range_pages(s, &cfg) : 0;
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
		return fail(s, EXIT_USAGE, "no %s with %s %d", thread ? "thread" : "process",
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
	const struct record_opts *o = s->o;
	int err = 0;

	for (size_t i = 0; i < o->pids.nr && !err; i++)
		err = proc_table__track(s->pt, o->pids.ids[i]);
	for (size_t i = 0; i < o->tids.nr && !err; i++)
		err = proc_table__track(s->pt, session__tgid_of(o->tids.ids[i]));
	if (!err && !s->filter_tgid && !o->tids.nr)
		err = proc_table__scan_all(s->pt);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot read the targets' mappings in /proc: %s",
			    strerror(-err));
	return 0;
}

/* The targets into the BPF maps, each watched so the run ends with the last. */
static int session__targets(struct session *s)
{
	const struct record_opts *o = s->o;
	int err = 0, status;

	s->pidfds = calloc(o->pids.nr + o->tids.nr + 1, sizeof(int));
	if (!s->pidfds)
		return fail(s, EXIT_RUNTIME, "out of memory");
	for (size_t i = 0; i < o->pids.nr && !err; i++) {
		err = loader__add_tgid(s->l, o->pids.ids[i], TARGET_ACTIVE);
		if (err)
			return fail(s, EXIT_RUNTIME, "cannot add pid %d: %s", o->pids.ids[i],
				    strerror(-err));
		status = session__watch(s, o->pids.ids[i], false);
		if (status)
			return status;
	}
	for (size_t i = 0; i < o->tids.nr; i++) {
		err = loader__add_tid(s->l, o->tids.ids[i]);
		if (err)
			return fail(s, EXIT_RUNTIME, "cannot add tid %d: %s", o->tids.ids[i],
				    strerror(-err));
		status = session__watch(s, o->tids.ids[i], true);
		if (status)
			return status;
	}
	if (o->cgroup) {
		s->cgroup_fd = open(o->cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->cgroup_fd < 0 || loader__set_cgroup(s->l, s->cgroup_fd))
			return fail(s, EXIT_USAGE, "cannot use cgroup '%s': %s", o->cgroup,
				    strerror(errno));
	}
	/* the command counts from its exec on, not while it is still us */
	err = s->cmd && s->filter_tgid ?
		      loader__add_tgid(s->l, command__pid(s->cmd), TARGET_PENDING_EXEC) :
		      0;
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot follow '%s': %s", s->o->command[0],
			    strerror(-err));
	return 0;
}

/* Fork the command, held before its exec until sampling is on. */
static int session__command(struct session *s)
{
	int err;

	if (!s->o->command)
		return 0;
	s->cmd = command__fork(s->o->command);
	if (!s->cmd)
		return fail(s, EXIT_RUNTIME, "cannot start '%s': %s", s->o->command[0],
			    strerror(errno));
	s->cmd_before_exec = true;
	err = proc_table__track(s->pt, command__pid(s->cmd));
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot follow '%s': %s", s->o->command[0],
			    strerror(-err));
	return 0;
}

/* The one process a -p, -t or command run targets, else 0. */
static pid_t session__one_target(const struct session *s)
{
	const struct record_opts *o = s->o;
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

/* bpfprof range: resolve every range; one that cannot be is a usage error. */
static int session__ranges(struct session *s)
{
	struct range_set_opts rso = {
		.demangle = s->o->demangle,
		.debug_roots = s->o->debug_dirs,
		.kallsyms = "/proc/kallsyms",
		.not_yet = s->cmd ? command__pid(s->cmd) : 0,
	};
	int err;

	if (!s->ro)
		return 0;
	rso.one_target = session__one_target(s);
	rso.lines = s->ro->source;
	err = range_set__init(&s->rs, s->ro->ranges, s->ro->nr_ranges, &rso);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot set up the ranges: %s", strerror(-err));
	err = range_set__resolve(&s->rs, s->pt);
	if (err)
		return fail(s, err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE, "%s",
			    range_set__error(&s->rs));
	for (size_t i = 0; i < s->rs.nr; i++) {
		const struct range *r = &s->rs.r[i];

		if (r->unmapped)
			fprintf(stderr, "%s: warning: range '%s': no target process maps "
					"%s yet; it counts from when one does\n",
				s->prog, r->arg, r->spec.binary);
		if (r->other)
			fprintf(stderr, "%s: warning: range '%s': only %s is counted, not "
					"%s, another file of that name\n",
				s->prog, r->arg, r->bin->path, r->other->path);
	}
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

	/* --stats: the program's run time is counted while this fd is open */
	if (o->stats)
		s->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	s->ev = events__open(&o->attr, &s->cpus, loader__sample_fd(s->l), &cpu);
	if (s->ev)
		return 0;
	err = errno;
	if (evspec__is_hardware(&o->attr) &&
	    (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && !pmu_present())
		return fail(s, EXIT_RUNTIME,
			    "event '%s' is not supported: this machine has no hardware PMU "
			    "(a VM without PMU passthrough?); use -e cpu-clock",
			    o->event);
	if (cpu >= 0)
		return fail(s, EXIT_RUNTIME, "cannot open event '%s' on CPU %d: %s", o->event,
			    cpu, strerror(err));
	return fail(s, EXIT_RUNTIME, "cannot attach to event '%s': %s", o->event,
		    strerror(err));
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
		return fail(s, EXIT_NOPERM, "missing %s: run as root, or grant them "
			    "(setcap cap_bpf,cap_perfmon+ep)", missing);
	s->out = outfile__open(o->output);
	if (!s->out)
		return fail(s, EXIT_USAGE, "cannot write '%s': %s", o->output, strerror(errno));
	if (s->ro && s->ro->stacks && !(s->stacks_out = outfile__open(s->ro->stacks)))
		return fail(s, EXIT_USAGE, "cannot write '%s': %s", s->ro->stacks,
			    strerror(errno));
	err = o->cpus.nr ? session__copy_cpus(s) : procfs__online_cpus(&s->cpus, NULL);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot list CPUs: %s", strerror(-err));
	raise_nofile();
	s->filter_tgid = o->pids.nr || (o->command && !o->all_cpus);
	err = session__signals(s);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot set up signals and timer: %s",
			    strerror(-err));
	s->pt = proc_table__new(!s->filter_tgid && !o->tids.nr);
	s->sym = s->pt ? symbolizer__new(s->pt, &(struct symbolizer_opts){
					 .kallsyms = o->stacks == STACKS_USER_ONLY ||
							     (s->ro && !s->ro->stacks) ?
							     NULL : "/proc/kallsyms",
					 .demangle = o->demangle,
					 .inlines = o->inlines,
					 .lines = o->lines,
					 .debug_roots = o->debug_dirs,
				 }) :
			 NULL;
	if (!s->sym)
		return fail(s, EXIT_RUNTIME, "out of memory");
	/* The side band first, then /proc: no mapping falls between the two. */
	s->sb = s->pt ? sideband__open(&s->cpus, SIDEBAND_PAGES) : NULL;
	if (!s->sb)
		return fail(s, EXIT_RUNTIME, "cannot open the side-band events: %s",
			    strerror(errno));
	status = session__track(s);
	status = status ?: session__command(s);
	/* ranges are resolved and laid out before load: they size its maps */
	status = status ?: session__ranges(s);
	status = status ?: session__load(s);
	status = status ?: session__targets(s);
	status = status ?: session__events(s);
	if (status)
		return status;
	if (s->filter_tgid && (err = loader__attach_followers(s->l)))
		return fail(s, EXIT_RUNTIME, "cannot follow forks: %s: %s", strerror(-err),
			    loader__error());
	return 0;
}

/* ---- the run ---- */

static const struct sideband_ops proc_ops;

/* A mapping of @tgid (new, or a forked child's copy): place the ranges of its binary. */
static int session__place(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct session *s = ctx;
	struct range_place *places;
	size_t n;
	int err;

	err = range_set__place_mapping(&s->rs, tgid, m, &places, &n);
	if (!err && n)
		err = range_live__add(s->live, places, n);
	free(places);
	if (err < 0 && !s->live_err)
		s->live_err = err;
	return 0;
}

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
		.build_id = m->build_id,
		.build_id_len = m->build_id_len,
		.path = m->filename,
	};

	if (proc_table__mmap(s->pt, m->pid, &ev))
		return;
	session__unwind_sync(s, m->pid);
	if (!s->live)
		return;
	map = proc_table__find(s->pt, m->pid, NULL, m->start);
	if (map && map->start == ev.start && map->end == ev.end)
		session__place(m->pid, map, s);
}

static void sb_comm(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	struct session *s = ctx;

	proc_table__comm(s->pt, pid, tid, comm, exec);
	if (!exec)
		return;
	if (s->cmd_before_exec && pid == command__pid(s->cmd)) {
		/* the command's own image from here on */
		s->cmd_before_exec = false;
		s->rs.o.not_yet = 0;
	}
	session__unwind_sync(s, pid);
	/* a new image: the old one's places mean other code now */
	if (s->live)
		range_live__drop(s->live, pid);
}

static void sb_fork(void *ctx, pid_t ppid, pid_t pid, pid_t tid)
{
	struct session *s = ctx;

	proc_table__fork(s->pt, ppid, pid, tid);
	if (pid == tid && pid != ppid)
		session__unwind_sync(s, pid);
	if (!s->live || pid != tid || pid == ppid)
		return;
	range_live__drop(s->live, pid); /* a reused pid's */
	proc_table__for_each_mapping_of(s->pt, pid, session__place, s);
}

static void sb_exit(void *ctx, pid_t pid, pid_t tid)
{
	struct session *s = ctx;

	if (s->uw && pid == tid)
		unwinder__drop(s->uw, pid);
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

static void refresh_jit(pid_t tgid, void *ctx)
{
	symbolizer__refresh_jit(ctx, tgid);
}

/*
 * Every tick: JIT maps are read while their processes live, from where
 * the last read stopped (a map in a container's /tmp is gone when the
 * container is); the unwinder's clock advances. The poll timeout to the next.
 */
static int session__tick(struct session *s)
{
	double now = monotime__ns() / 1e9;

	if (now >= s->next_tick) {
		proc_table__for_each_jit(s->pt, refresh_jit, s->sym);
		if (s->uw)
			unwinder__tick(s->uw);
		s->next_tick = now + TICK_SECONDS;
	}
	return (int)((s->next_tick - now) * 1000) + 1;
}

static int session__poll(struct session *s, struct pollfd *pfd, size_t *map)
{
	size_t n = 0, nsb = sideband__nr_fds(s->sb);
	int err, timeout, wait;

	pfd[n++] = (struct pollfd){ .fd = s->sigfd, .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = s->timerfd, .events = POLLIN };
	for (size_t i = 0; i < nsb; i++)
		pfd[n++] = (struct pollfd){ .fd = sideband__fd(s->sb, i), .events = POLLIN };
	/* the unwinder's finished tables: -1 (ignored by poll) without one */
	pfd[n++] = (struct pollfd){ .fd = s->uw ? unwinder__fd(s->uw) : -1, .events = POLLIN };
	for (size_t i = 0; i < s->nr_pidfds; i++) {
		if (s->pidfds[i] < 0)
			continue;
		map[n] = i;
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
		s->stop = true;
	for (size_t i = 2; i < 2 + nsb; i++)
		if (pfd[i].revents || wait >= 0) {
			sideband__read(s->sb, &proc_ops, s);
			if (s->uw && (err = unwinder__flush(s->uw)))
				return err;
			break;
		}
	if (pfd[2 + nsb].revents && (err = unwinder__complete(s->uw)))
		return err;
	for (size_t i = 3 + nsb; i < n; i++)
		if (pfd[i].revents)
			session__on_pidfd(s, map[i]);
	return 0;
}

static int session__run(struct session *s)
{
	size_t max = 3 + sideband__nr_fds(s->sb) + s->nr_pidfds;
	struct pollfd *pfd = calloc(max, sizeof(*pfd));
	size_t *map = calloc(max, sizeof(*map));
	int err, status = 0;

	if (!pfd || !map) {
		status = fail(s, EXIT_RUNTIME, "out of memory");
		goto out;
	}
	s->t0 = monotime__ns();
	err = session__timer(s);
	err = err ?: events__enable(s->ev);
	if (err) {
		status = fail(s, EXIT_RUNTIME, "cannot enable sampling: %s", strerror(-err));
		goto out;
	}
	if (s->cmd && (err = command__release(s->cmd))) {
		status = fail(s, EXIT_NOCMD, "cannot run '%s': %s", s->o->command[0], strerror(-err));
		goto out;
	}
	while (!s->stop && !err)
		err = session__poll(s, pfd, map);
	events__disable(s->ev);
	s->t1 = monotime__ns();
	if (err)
		status = fail(s, EXIT_RUNTIME, "poll: %s", strerror(-err));
out:
	free(pfd);
	free(map);
	return status;
}

/* ---- the end ---- */

/* The summary's rate: what was asked for, and @hz seen on the busiest CPU. */
static void session__print_rate(const struct session *s, double hz)
{
	if (s->o->use_period)
		fprintf(stderr, "period %llu requested", s->o->period);
	else
		fprintf(stderr, "%llu Hz requested", s->o->freq);
	fprintf(stderr, ", %.1f Hz effective on the busiest CPU", hz);
}

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
	session__print_rate(s, hz);
	if (st[STAT_USTACK_FAULT])
		fprintf(stderr, ", %" PRIu64 " user stacks unreadable", st[STAT_USTACK_FAULT]);
	if (st[STAT_TARGETS_FULL])
		fprintf(stderr, ", %" PRIu64 " forked children not followed",
			st[STAT_TARGETS_FULL]);
	fputc('\n', stderr);
}

/* --stats: how the user stack walks ended, the tables, the program's cost. */
static void session__stats(const struct session *s, const struct profile *p)
{
	static const char *const ends[WALK__MAX] = {
		[WALK_COMPLETE] = "complete (reached the outermost frame)",
		[WALK_TRUNCATED] = "truncated at --max-depth",
		[WALK_FP_END] = "ended by a frame-pointer step",
		[WALK_NO_TABLE] = "stopped at code without a table",
		[WALK_FAULT] = "stopped by an unreadable stack address",
		[WALK_INVALID] = "stopped by CFI it cannot follow",
		[WALK_NO_MAPPING] = "stopped at an address in no known mapping",
		[WALK_NO_PROCESS] = "frame pointers: no mapping table for the process yet",
	};
	const struct unwinder_stats *us = s->uw ? unwinder__stats(s->uw) : NULL;
	uint64_t walks = 0, ns = 0, runs = 0;

	for (int i = 0; i < WALK__MAX; i++)
		walks += p->stats[STAT_WALK_FIRST + i];
	if (s->o->idle)
		fprintf(stderr, "bpfprof: stats: samples: %" PRIu64 " seen (the idle task's kept: "
				"--idle), %" PRIu64 " of no target\n",
			p->stats[STAT_SEEN], p->stats[STAT_FILTERED]);
	else
		fprintf(stderr, "bpfprof: stats: samples: %" PRIu64 " seen, %" PRIu64 " of the idle "
				"task dropped (--idle keeps them), %" PRIu64 " of no target\n",
			p->stats[STAT_SEEN], p->stats[STAT_IDLE], p->stats[STAT_FILTERED]);
	fprintf(stderr, "bpfprof: stats: unwinding %s\n",
		!us ? "by frame pointers (--unwind=fp)" :
		s->o->unwind == UNWIND_DWARF ? "by DWARF tables only (--unwind=dwarf)" :
					       "by DWARF tables, frame pointers elsewhere");
	if (us) {
		fprintf(stderr, "bpfprof: stats: %" PRIu64 " user stack walks:\n", walks);
		for (int i = 0; i < WALK__MAX; i++)
			fprintf(stderr, "bpfprof: stats:   %10" PRIu64 " %5.1f%%  %s\n",
				p->stats[STAT_WALK_FIRST + i],
				walks ? 100.0 * p->stats[STAT_WALK_FIRST + i] / walks : 0.0,
				ends[i]);
		fprintf(stderr, "bpfprof: stats: %" PRIu64 " frames found by frame pointers in "
				"binaries without a table yet\n",
			p->stats[STAT_WALK_FP_FRAMES]);
		fprintf(stderr, "bpfprof: stats: tables: %u loaded (%u from the cache), %" PRIu64
				" rows, %.1f KiB; %u without CFI, %u did not fit (--unwind-memory)\n",
			us->tables, us->cached, us->rows, us->bytes / 1024.0, us->no_cfi, us->full);
		fprintf(stderr, "bpfprof: stats: tables: %u evicted (least recently sampled), "
				"%u loaded again when walks needed them\n",
			us->evicted, us->reloaded);
		fprintf(stderr, "bpfprof: stats: mapping tables: %u written, up to %u executable "
				"mappings a process; %u processes had more (frame pointers in the "
				"rest)\n",
			us->updates, s->unwind_maps_cap, us->maps_cut);
		fprintf(stderr, "bpfprof: stats: tables loaded before sampling in %.3f s; the "
				"slowest table %.1f ms (%s)\n",
			s->unwind_load_s, us->max_build_ns / 1e6,
			us->max_build_name ? us->max_build_name : "-");
		if (us->latencies)
			fprintf(stderr, "bpfprof: stats: %u tables loaded while sampling, %.1f ms "
					"on average from the mapping (or the walk asking) to the "
					"table in use, %.1f ms at most\n",
				us->latencies, us->latency_ns / 1e6 / us->latencies,
				us->max_latency_ns / 1e6);
	}
	fprintf(stderr, "bpfprof: stats: side band: %" PRIu64 " records read after a newer "
			"one and put back in time order, %" PRIu64 " too late for it\n",
		sideband__reordered(s->sb), sideband__late(s->sb));
	if (s->stats_fd < 0 || loader__prog_stats(s->l, &ns, &runs) || !runs)
		fprintf(stderr, "bpfprof: stats: BPF run time unknown (cannot enable "
				"kernel.bpf_stats_enabled)\n");
	else
		fprintf(stderr, "bpfprof: stats: BPF program: %" PRIu64 " runs, %.0f ns per "
				"sample on average\n",
			runs, (double)ns / runs);
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

	sideband__drain(s->sb, &proc_ops, s);
	p.duration = elapsed(s->t0, s->t1);
	p.sideband_lost = sideband__lost(s->sb);
	err = loader__read_stats(s->l, p.stats, p.busiest);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot read the BPF counters: %s", strerror(-err));
	err = drain__profile(s->l, s->sym, s->o->stacks, NULL, &p);
	err = err ?: ops->write(outfile__stream(s->out), &p, &oo);
	err = err ?: outfile__commit(s->out);
	if (err) {
		fail(s, EXIT_RUNTIME, "cannot write the profile to '%s': %s",
		     s->o->output ? s->o->output : "-", strerror(-err));
	} else {
		session__warnings(s, &p, s->sym);
		if (!s->o->quiet)
			session__summary(s, &p);
		if (s->o->stats)
			session__stats(s, &p);
	}
	profile__free(&p);
	return err ? EXIT_RUNTIME : 0;
}

/* ---- the end of bpfprof range ---- */

static void session__range_summary(const struct session *s, const struct listing *ls)
{
	const uint64_t *st = ls->stats;
	double hz = ls->duration > 0 ? s->busiest / ls->duration : 0;

	fprintf(stderr, "%s: %" PRIu64 " samples in %zu range%s, %" PRIu64 " outside, %" PRIu64
		" lost, %" PRIu64 " seen, %.2f s, ",
		s->prog, st[STAT_KEPT], ls->nr, ls->nr == 1 ? "" : "s", st[STAT_OUT_OF_RANGE],
		st[STAT_DROP_COUNTS_FULL], st[STAT_SEEN], ls->duration);
	session__print_rate(s, hz);
	fputc('\n', stderr);
}

/* range --stacks: the stacks of the samples in the ranges, as record writes them. */
static int session__range_stacks(struct session *s, const struct listing *ls)
{
	const struct output_ops *ops = output__ops(s->ro->stacks_format);
	struct output_opts oo = { .lines = s->o->lines };
	struct profile p = { .ncpus = s->cpus.nr, .duration = ls->duration };
	char **labels = NULL;
	int err = 0;

	/* several ranges: the first frame says which, "[ARG]" */
	if (s->rs.nr > 1 && !(labels = calloc(s->rs.nr, sizeof(*labels))))
		err = -ENOMEM;
	for (size_t i = 0; labels && i < s->rs.nr && !err; i++)
		if (asprintf(&labels[s->rs.r[i].id], "[%s]", s->rs.r[i].arg) < 0)
			err = -ENOMEM;
	memcpy(p.stats, ls->stats, sizeof(p.stats));
	err = err ?: drain__profile(s->l, s->sym, s->o->stacks, (const char *const *)labels, &p);
	err = err ?: ops->write(outfile__stream(s->stacks_out), &p, &oo);
	err = err ?: outfile__commit(s->stacks_out);
	if (err)
		fail(s, EXIT_RUNTIME, "cannot write the stacks to '%s': %s", s->ro->stacks,
		     strerror(-err));
	else if (ls->stats[STAT_STACKS_LOST])
		fprintf(stderr, "%s: warning: %" PRIu64 " samples in the ranges have no stack "
				"in '%s' (the stacks maps were full)\n",
			s->prog, ls->stats[STAT_STACKS_LOST], s->ro->stacks);
	profile__free(&p);
	for (size_t i = 0; labels && i < s->rs.nr; i++)
		free(labels[i]);
	free(labels);
	return err;
}

/* Ranges that counted nothing because of what happened during the run. */
static void session__range_warnings(const struct session *s)
{
	for (size_t i = 0; i < s->rs.nr; i++) {
		const struct range *r = &s->rs.r[i];

		if (r->late)
			fprintf(stderr, "%s: warning: range '%s': %s\n", s->prog, r->arg,
				r->late);
		else if (r->unmapped)
			fprintf(stderr, "%s: warning: range '%s': no target process mapped "
					"%s during the run\n",
				s->prog, r->arg, r->spec.binary);
	}
	if (s->live && range_live__missed(s->live))
		fprintf(stderr, "%s: warning: %" PRIu64 " placements of ranges in processes "
				"that appeared during the run were not stored whole (the "
				"page map is full): their samples are missing\n",
			s->prog, range_live__missed(s->live));
	if (s->live_err)
		fprintf(stderr, "%s: warning: ranges could not be placed in processes "
				"that appeared during the run: %s\n",
			s->prog, strerror(-s->live_err));
}

static int session__finish_range(struct session *s)
{
	const struct listing_opts lo = {
		.sort = s->ro->sort,
		.disasm = s->ro->disasm,
		.source = s->ro->source,
	};
	struct listing ls = { 0 };
	uint64_t busiest[STAT__MAX];
	int err;

	sideband__drain(s->sb, &proc_ops, s);
	ls.duration = elapsed(s->t0, s->t1);
	err = loader__read_stats(s->l, ls.stats, busiest);
	if (err)
		return fail(s, EXIT_RUNTIME, "cannot read the BPF counters: %s", strerror(-err));
	s->busiest = busiest[STAT_SEEN];
	session__range_warnings(s);
	err = drain__listing(s->l, &s->rs, s->pt, true, &ls);
	if (!err && s->stacks_out && session__range_stacks(s, &ls)) {
		listing__free(&ls);
		return EXIT_RUNTIME;
	}
	err = err ?: (s->ro->format == LISTING_JSON ? &output_listing_json : &output_listing)
			     ->write(outfile__stream(s->out), &ls, &lo);
	err = err ?: outfile__commit(s->out);
	if (err) {
		fail(s, EXIT_RUNTIME, "cannot write the listing to '%s': %s",
		     s->o->output ? s->o->output : "-", strerror(-err));
	} else {
		if (!ls.stats[STAT_KEPT])
			fprintf(stderr, "%s: warning: no samples fell in the ranges\n", s->prog);
		if (!s->o->quiet)
			session__range_summary(s, &ls);
	}
	listing__free(&ls);
	return err ? EXIT_RUNTIME : 0;
}

static void session__free(struct session *s)
{
	command__free(s->cmd);
	symbolizer__free(s->sym);
	unwinder__free(s->uw);
	free(s->cache_dir);
	events__free(s->ev);
	sideband__free(s->sb);
	loader__free(s->l);
	range_pages__free(&s->pages);
	range_live__free(s->live);
	range_set__free(&s->rs); /* its binaries may be the process table's */
	proc_table__free(s->pt);
	outfile__free(s->out);
	outfile__free(s->stacks_out);
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

/* A whole run of record (@ro NULL) or range; the exit status. */
static int session__main(const struct record_opts *o, const struct range_opts *ro)
{
	struct session s = { .o = o, .ro = ro, .prog = ro ? "bpfprof range" : "bpfprof",
			     .sigfd = -1, .timerfd = -1, .cgroup_fd = -1,
			     .stats_fd = -1 };
	int status;

	status = session__open(&s);
	status = status ?: session__run(&s);
	status = status ?: ro ? session__finish_range(&s) : session__finish(&s);
	session__free(&s);
	return status;
}

int record__run(const struct record_opts *o)
{
	return session__main(o, NULL);
}

int range__run(const struct record_opts *o, const struct range_opts *ro)
{
	return session__main(o, ro);
}
