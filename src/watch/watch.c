// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The watch mode: the locations resolved after the /proc scan (kernel
 * ones through kallsyms, a command's against its file before it runs),
 * their addresses in watch_locs, one breakpoint per location per target
 * thread (inherited by what the thread creates later) or per CPU for
 * kernel data, each with the program as its handler. A command stops at
 * its exec (the exec program's SIGSTOP) until its breakpoints are set at
 * its new image's addresses. More locations than debug registers take
 * turns (watchrotation.c) on the breakpoint slots, moved every --rotate ms
 * by a thread of their own (watchmover.c). After the run: the stacks
 * written as record writes them, and the summary per location on stderr.
 * The top level of the subcommand with the core.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "array.h"
#include "drain-session.h"
#include "escape.h"
#include "events.h"
#include "loader-watch.h"
#include "monotime.h"
#include "procfs.h"
#include "stacks.h"
#include "watch.h"
#include "watchset.h"
#include "watchinsns.h"
#include "watchmover.h"

/* Debug registers of x86-64: what one thread (or CPU) can watch at once. */
#define WATCH_DEBUG_REGS 4
/* Most (location, process, ip) and (location, value) pairs counted. */
#define WATCH_MAX_KEYS (1u << 16)
/* How long the command may take to stop at its exec. */
#define WATCH_EXEC_WAIT_MS 2000

struct watch_mode {
	const struct watch_opts *o;
	struct watch_set ws;
	struct watch_fd *fds;     /* the breakpoint events */
	size_t nr_fds, cap_fds;
	unsigned int slots;       /* breakpoints per thread or CPU: at most 4 */
	bool slots_fixed;         /* the first thread or CPU has them: ENOSPC is an error */
	bool rotate;              /* more locations than registers: they take turns */
	struct watch_mover *mover; /* the turns, once the breakpoints are set */
	struct loader_watch_cfg maps; /* the watch maps' sizes and the filter (configure) */
	struct stacks stacks;     /* drained while sampling */
	char **labels;            /* several locations: each's first frame, "[NAME]" */
	size_t nr_labels;
	size_t rows;              /* unique stacks written */
	struct watch_insns *insns; /* the summary's instructions */
	pid_t held;               /* the command, stopped at its exec until its breakpoints are set */
	uint64_t t_start, t_stop; /* when the breakpoints were set, and taken away */
	uint64_t *since;          /* per location: when it was first watched (0: never) */
	bool *placed;             /* per location: just resolved in a library loaded later */
	pid_t *tgids;             /* per -t thread (targets.tids): its process, read at prepare */
	bool count_reached;
};

/* The breakpoint type of --access: x86 has no read-only data breakpoint. */
static unsigned int watch__bp_type(enum watch_access a)
{
	switch (a) {
	case WATCH_ACCESS_W:
		return HW_BREAKPOINT_W;
	case WATCH_ACCESS_X:
		return HW_BREAKPOINT_X;
	default:
		return HW_BREAKPOINT_RW;
	}
}

static int watch__keep_fd(struct watch_mode *wm, int fd, const struct perf_event_attr *a,
			  unsigned int slot, pid_t tgid)
{
	int err = array__grow((void **)&wm->fds, &wm->cap_fds, wm->nr_fds + 1,
			      sizeof(*wm->fds));

	if (err) {
		close(fd);
		return err;
	}
	wm->fds[wm->nr_fds++] = (struct watch_fd){ fd, slot, tgid, *a };
	return 0;
}

/*
 * A breakpoint on location @w at its place @at for thread @pid (with
 * @inherit) or, with @pid -1, on CPU @cpu, the program attached: the slot
 * of @w's index. 0, or the exit status after its one line. Rotating, the
 * first thread or CPU takes the registers it finds free (fewer slots).
 */
static int watch__open(struct session *s, struct watch_mode *wm, const struct watch *w,
		       const struct watch_place *at, pid_t pid, int cpu, bool inherit)
{
	uint64_t addr = at->addr;
	struct perf_event_attr a = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(a),
		.bp_type = watch__bp_type(wm->ws.access),
		.bp_addr = addr,
		.bp_len = w->len,
		.sample_period = 1,
		.inherit = inherit,
		/* a child that execs another program: these addresses mean nothing there */
		.remove_on_exec = !w->kernel,
		/*
		 * --trap: a synchronous SIGTRAP to the accessing thread for each
		 * access the program keeps (it returns 0 for the others), its
		 * si_perf_data the location's index; the kernel takes sigtrap only
		 * with remove_on_exec, on a task, and these events are opened after
		 * the command's exec (the stop at exec)
		 */
		.sigtrap = wm->o->trap,
		.sig_data = wm->o->trap ? w->index : 0,
		/*
		 * enabled once the program is attached: an access in between
		 * would trap (--trap) with nothing to count or filter it
		 */
		.disabled = 1,
	};
	int fd = events__open(&a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC), err;

	if (fd == -ESRCH)
		return 0; /* the thread exited meanwhile */
	if (fd == -ENOSPC && wm->rotate && !wm->slots_fixed && w->index) {
		wm->slots = w->index; /* others hold the rest: the turns go round these */
		return 0;
	}
	if (fd == -ENOSPC && !w->index)
		return session__fail(s, EXIT_RUNTIME, "no free debug register for "
				     "location '%s' on %s %d: all %u are held by others (a "
				     "debugger, perf, another watch)", w->name,
				     pid >= 0 ? "thread" : "CPU", pid >= 0 ? pid : cpu,
				     WATCH_DEBUG_REGS);
	if (fd == -ENOSPC) {
		unsigned int ours = w->index;

		/* the slots before this one hold a register each on this thread or CPU */
		return session__fail(s, EXIT_RUNTIME,
				     "no free debug register for location '%s': %u of %u in use "
				     "on %s %d (%u by this watch, %u by others: a debugger, perf, "
				     "another watch); watch at most %u location%s here",
				     w->name, WATCH_DEBUG_REGS, WATCH_DEBUG_REGS,
				     pid >= 0 ? "thread" : "CPU", pid >= 0 ? pid : cpu, ours,
				     WATCH_DEBUG_REGS - ours, ours, ours == 1 ? "" : "s");
	}
	if (fd < 0)
		return session__fail(s, EXIT_RUNTIME, "cannot set a breakpoint on location '%s' "
				     "(0x%" PRIx64 ", %u bytes, %s) for %s %d: %s",
				     w->name, addr, w->len, watch_spec__access_name(wm->ws.access),
				     pid >= 0 ? "thread" : "CPU", pid >= 0 ? pid : cpu,
				     strerror(-fd));
	/* kept enabled: a move (MODIFY_ATTRIBUTES) sets the attributes' disabled too */
	a.disabled = 0;
	err = watch__keep_fd(wm, fd, &a, w->index, at->tgid);
	if (!err && (ioctl(fd, PERF_EVENT_IOC_SET_BPF, loader__sample_fd(session__loader(s))) ||
		     ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)))
		err = -errno;
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot attach to the breakpoint on "
				     "location '%s': %s", w->name, strerror(-err));
	return 0;
}

/* Every location's address in @tgid into watch_locs. */
static int watch__store(struct session *s, struct watch_mode *wm, pid_t tgid)
{
	for (size_t i = 0; i < wm->ws.nr; i++) {
		const struct watch *w = &wm->ws.w[i];

		for (size_t j = 0; j < w->nr_places; j++) {
			struct watch_loc loc = { .index = w->index, .len = w->len,
						 .kernel = w->kernel };
			int err;

			if (w->places[j].tgid != tgid)
				continue;
			err = loader_watch__set_addr(session__loader(s), w->places[j].addr, &loc);
			if (err)
				return session__fail(s, EXIT_RUNTIME, "cannot store location '%s': %s",
						     w->name, strerror(-err));
		}
	}
	return 0;
}

/*
 * The breakpoints of thread @tid, of process @tgid: slot i on location i
 * (with @only, the locations it marks alone).
 */
static int watch__open_thread(struct session *s, struct watch_mode *wm, pid_t tgid, pid_t tid,
			      bool inherit, const bool *only)
{
	int status = 0;

	for (size_t i = 0; i < wm->slots && !status; i++) {
		const struct watch *w = &wm->ws.w[i];

		for (size_t j = 0; j < w->nr_places && !status; j++)
			if (w->places[j].tgid == tgid && (!only || only[i]))
				status = watch__open(s, wm, w, &w->places[j], tid, -1, inherit);
	}
	wm->slots_fixed = true;
	return status;
}

/*
 * Every thread of process @tgid, each with its breakpoints (inherited by
 * the threads and processes it creates later). Threads that appear while
 * this runs are found by listing the threads again until none is new.
 */
static int watch__open_process(struct session *s, struct watch_mode *wm, pid_t tgid,
			       const bool *only)
{
	pid_t *done = NULL;
	size_t nr_done = 0, cap = 0;
	bool found = true;
	char path[64];
	int status = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	while (found && !status) {
		struct dirent *de;
		DIR *d = opendir(path);

		found = false;
		if (!d)
			break; /* gone: the run ends with it */
		while (!status && (de = readdir(d))) {
			pid_t tid = atoi(de->d_name);
			bool seen = false;

			if (tid <= 0)
				continue;
			for (size_t i = 0; i < nr_done && !seen; i++)
				seen = done[i] == tid;
			if (seen)
				continue;
			if (array__grow((void **)&done, &cap, nr_done + 1, sizeof(*done))) {
				status = session__fail(s, EXIT_RUNTIME, "out of memory");
				break;
			}
			done[nr_done++] = tid;
			found = true;
			status = watch__open_thread(s, wm, tgid, tid, true, only);
		}
		closedir(d);
	}
	free(done);
	return status;
}

/* The command's executable as its exec will find it (PATH), for the check before it runs. */
static char *watch__command_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *dup, *dir, *save = NULL, *full = NULL;

	if (strchr(cmd, '/'))
		return strdup(cmd);
	dup = strdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = dup ? strtok_r(dup, ":", &save) : NULL; dir && !full;
	     dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&full, "%s/%s", *dir ? dir : ".", cmd) < 0) {
			full = NULL;
			break;
		}
		if (access(full, X_OK)) {
			free(full);
			full = NULL;
		}
	}
	free(dup);
	return full;
}

/* Several locations: the first frame of a stack says which, "[NAME]". 0 or -ENOMEM. */
static int watch__labels(struct watch_mode *wm)
{
	if (wm->ws.nr < 2)
		return 0;
	wm->labels = calloc(wm->ws.nr, sizeof(*wm->labels));
	if (!wm->labels)
		return -ENOMEM;
	wm->nr_labels = wm->ws.nr;
	for (size_t i = 0; i < wm->ws.nr; i++)
		if (asprintf(&wm->labels[wm->ws.w[i].index], "[%s]", wm->ws.w[i].name) < 0)
			return -ENOMEM;
	drain_session__set_ranges(wm->stacks.ds, (const char *const *)wm->labels);
	return 0;
}

static int watch__resolve_status(struct session *s, struct watch_mode *wm, int err)
{
	return session__fail(s, err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE, "%s",
			     err == -ENOMEM ? strerror(ENOMEM) : watch_set__error(&wm->ws));
}

/*
 * Resolve the locations in target process @tgid; a library it does not map
 * yet is watched once it does (watch__mmap), with a note. 0 or -errno.
 */
static int watch__resolve_target(struct session *s, struct watch_mode *wm, pid_t tgid)
{
	int err = watch_set__resolve_process(&wm->ws, tgid, true);

	for (size_t i = 0; i < wm->ws.nr && !err; i++) {
		const struct watch *w = &wm->ws.w[i];

		if (w->spec.kind == WATCH_BIN_SYM && !w->elem && !watch_set__place(w, tgid))
			session__note(s, "location '%s': process %d does not map %s yet: it is "
				      "watched once it does", w->arg, tgid, w->spec.binary);
	}
	return err;
}

/* The locations that have a place now and had none: watched from @ns. */
static void watch__since(struct watch_mode *wm, uint64_t ns)
{
	for (size_t i = 0; i < wm->ws.nr; i++)
		if (!wm->since[i] && wm->ws.w[i].nr_places)
			wm->since[i] = ns;
}

/*
 * The process of each -t thread, once: the loops over the threads and
 * every mmap record ask it (a thread whose status cannot be read, gone
 * meanwhile, stands for itself, as a process's main thread). 0 or -ENOMEM.
 */
static int watch__tgids(struct watch_mode *wm)
{
	const struct idlist *tids = &wm->o->session.targets.tids;

	wm->tgids = calloc(tids->nr ?: 1, sizeof(*wm->tgids));
	if (!wm->tgids)
		return -ENOMEM;
	for (size_t i = 0; i < tids->nr; i++) {
		pid_t tgid = procfs__tgid(tids->ids[i]);

		wm->tgids[i] = tgid > 0 ? tgid : tids->ids[i];
	}
	return 0;
}

/* Parse, check and resolve every location; one that cannot be is a usage error. */
static int watch__prepare(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;
	const struct watch_opts *o = wm->o;
	const struct target_opts *t = &o->session.targets;
	pid_t cmd = session__command_pid(s);
	struct uspace us;
	int err;

	err = watch__tgids(wm);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	err = watch_set__init(&wm->ws, o->locations, o->nr_locations, o->access);
	us = uspace__bounds("/proc/sys/vm/mmap_min_addr");
	err = err ?: watch_set__check(&wm->ws, t->all_cpus, session__one_target(s) != 0, &us);
	err = err ?: watch_set__resolve_kernel(&wm->ws, "/proc/kallsyms");
	for (size_t i = 0; i < t->pids.nr && !err; i++)
		err = watch__resolve_target(s, wm, t->pids.ids[i]);
	for (size_t i = 0; i < t->tids.nr && !err; i++)
		err = watch__resolve_target(s, wm, wm->tgids[i]);
	/* more locations than registers: the first ones start, and all take turns */
	wm->rotate = wm->ws.nr > WATCH_DEBUG_REGS;
	wm->slots = wm->rotate ? WATCH_DEBUG_REGS : wm->ws.nr;
	for (size_t i = 0; i < wm->ws.nr && !err && wm->rotate; i++) {
		const struct watch *w = &wm->ws.w[i];

		/* the turns go round the places known when they start */
		if (w->spec.kind == WATCH_BIN_SYM &&
		    ((cmd && !t->all_cpus) || w->nr_places < t->pids.nr + t->tids.nr))
			return session__fail(s, EXIT_USAGE, "location '%s': a library loaded "
					     "later cannot take turns with others: watch at most "
					     "%u locations when one is in a library the target "
					     "does not map yet", w->arg, WATCH_DEBUG_REGS);
	}
	wm->since = calloc(wm->ws.nr ?: 1, sizeof(*wm->since));
	wm->placed = calloc(wm->ws.nr ?: 1, sizeof(*wm->placed));
	if (!err && (!wm->since || !wm->placed))
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	if (!err && cmd && !t->all_cpus) {
		char *path = watch__command_path(t->command[0]);

		/* resolved at its exec; checked now, before it runs */
		err = path ? watch_set__check_file(&wm->ws, path) : 0;
		free(path);
		wm->held = cmd;
	}
	if (err)
		return watch__resolve_status(s, wm, err);
	if (watch__labels(wm))
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	if (o->access == WATCH_ACCESS_R)
		session__note(s, "x86 has no read-only data breakpoint: --access=r watches reads "
				 "and writes, as rw does");
	return 0;
}

static int watch__configure(struct session *s, void *priv, struct loader_cfg *cfg)
{
	struct watch_mode *wm = priv;
	const struct watch_opts *o = wm->o;
	size_t addrs = 0;

	/*
	 * An address per place, the command's at its exec, and a library's
	 * in each target that maps it later
	 */
	for (size_t i = 0; i < wm->ws.nr; i++) {
		const struct watch *w = &wm->ws.w[i];

		addrs += w->nr_places + (wm->held != 0);
		if (w->spec.kind == WATCH_BIN_SYM)
			addrs += o->session.targets.pids.nr + o->session.targets.tids.nr;
	}
	if (addrs > UINT32_MAX)
		return session__fail(s, EXIT_USAGE, "%zu addresses to watch: a BPF map "
				     "holds at most %u", addrs, UINT32_MAX);
	wm->maps = (struct loader_watch_cfg){
		.locs = wm->ws.nr,
		.addrs = addrs,
		.keys = WATCH_MAX_KEYS,
		.values = o->values,
		.count = o->count,
		.nr_terms = o->nr_terms,
	};
	memcpy(wm->maps.terms, o->terms, sizeof(wm->maps.terms));
	cfg->watch = &wm->maps;
	cfg->stop_at_exec = wm->held != 0;
	return 0;
}

/* The addresses resolved before load into watch_locs. */
static int watch__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct watch_mode *wm = priv;
	const struct target_opts *t = &wm->o->session.targets;
	int status;

	(void)cfg;
	status = watch__store(s, wm, 0);
	for (size_t i = 0; i < t->pids.nr && !status; i++)
		status = watch__store(s, wm, t->pids.ids[i]);
	for (size_t i = 0; i < t->tids.nr && !status; i++)
		status = watch__store(s, wm, wm->tgids[i]);
	return status;
}

/*
 * The breakpoints are set: with more locations than registers, the turns
 * start (the timer), from the slots the first thread or CPU got.
 */
static int watch__rotate_start(struct session *s, struct watch_mode *wm)
{
	int err;

	if (!wm->rotate)
		return 0;
	if (wm->slots < WATCH_DEBUG_REGS)
		session__note(s, "%u of the %u debug registers are free (others hold the "
			      "rest: a debugger, perf, another watch): the %zu locations "
			      "take turns on %u", wm->slots, WATCH_DEBUG_REGS, wm->ws.nr,
			      wm->slots);
	err = watch_mover__start(&wm->mover, wm->fds, wm->nr_fds, &wm->ws, wm->slots,
				 wm->o->rotate_ms, wm->t_start);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot start the turns of the "
				     "locations: %s", strerror(-err));
	return 0;
}

/* The breakpoints: per CPU for kernel data, per thread of the -p and -t targets. */
static int watch__events(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;
	const struct target_opts *t = &wm->o->session.targets;
	struct idlist cpus = { 0 };
	int err, status = 0;

	wm->t_start = monotime__ns();
	if (t->all_cpus) {
		err = t->cpus.nr ? 0 : procfs__online_cpus(&cpus, NULL);
		if (err)
			return session__fail(s, EXIT_RUNTIME, "cannot list CPUs: %s", strerror(-err));
		for (size_t c = 0; c < (t->cpus.nr ? t->cpus.nr : cpus.nr) && !status; c++) {
			int cpu = t->cpus.nr ? t->cpus.ids[c] : cpus.ids[c];

			for (size_t i = 0; i < wm->slots && !status; i++) {
				const struct watch *w = &wm->ws.w[i];

				status = watch__open(s, wm, w, &w->places[0], -1, cpu, false);
			}
			wm->slots_fixed = true;
		}
		idlist__free(&cpus);
		watch__since(wm, wm->t_start);
		return status ?: watch__rotate_start(s, wm);
	}
	for (size_t i = 0; i < t->pids.nr && !status; i++)
		status = watch__open_process(s, wm, t->pids.ids[i], NULL);
	for (size_t i = 0; i < t->tids.nr && !status; i++)
		status = watch__open_thread(s, wm, wm->tgids[i], t->tids.ids[i], false, NULL);
	watch__since(wm, wm->t_start);
	/* a command's are set at its exec */
	return status ?: wm->held ? 0 : watch__rotate_start(s, wm);
}

/* The command, stopped at its exec: resolve, set its breakpoints, continue it. */
static void watch__exec(struct session *s, void *priv, pid_t tgid)
{
	struct watch_mode *wm = priv;
	siginfo_t si = { 0 };
	int err, status;

	if (!wm->held || tgid != wm->held)
		return;
	wm->held = 0;
	/*
	 * The exec record comes before the exec is done: wait for its stop
	 * (microseconds; WATCH_EXEC_WAIT_MS at most, then set the breakpoints
	 * anyway, with a warning).
	 */
	for (int ms = 0; ms < WATCH_EXEC_WAIT_MS; ms++) {
		si.si_pid = 0;
		if (waitid(P_PID, tgid, &si, WSTOPPED | WEXITED | WNOWAIT | WNOHANG) &&
		    errno != EINTR)
			break;
		if (si.si_pid)
			break;
		usleep(1000);
	}
	if (si.si_pid && si.si_code != CLD_STOPPED)
		return; /* it died before it ran */
	if (!si.si_pid)
		session__warn(s, "'%s' did not stop at its exec: its first accesses may be missed",
			      wm->o->session.targets.command[0]);
	err = watch_set__resolve_process(&wm->ws, tgid, true);
	if (err) {
		watch__resolve_status(s, wm, err);
		session__stop(s, err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE);
	} else {
		wm->t_start = monotime__ns();
		status = watch__store(s, wm, tgid);
		watch__since(wm, wm->t_start);
		status = status ?: watch__open_thread(s, wm, tgid, tgid, true, NULL);
		status = status ?: watch__rotate_start(s, wm);
		if (status)
			session__stop(s, status);
	}
	kill(tgid, SIGCONT);
}

/* Is @tgid a target whose threads are all watched (-p, the command after its exec)? */
static bool watch__whole_target(struct session *s, const struct watch_mode *wm, pid_t tgid)
{
	const struct idlist *pids = &wm->o->session.targets.pids;

	if (tgid == session__command_pid(s))
		return !wm->held;
	for (size_t i = 0; i < pids->nr; i++)
		if (pids->ids[i] == tgid)
			return true;
	return false;
}

/*
 * A target mapped a file: the locations waiting for it there (a library
 * loaded later) are resolved, and their breakpoints set on its threads (on
 * the -t threads of it). Its accesses before this are not seen.
 */
static void watch__mmap(struct session *s, void *priv, pid_t tgid, const struct mapping *m)
{
	struct watch_mode *wm = priv;
	const struct idlist *tids = &wm->o->session.targets.tids;
	bool whole = watch__whole_target(s, wm, tgid), any = false;
	int err, status = 0;

	(void)m;
	if (wm->t_stop || !wm->t_start || !watch_set__waiting(&wm->ws, tgid))
		return;
	for (size_t i = 0; i < tids->nr && !whole && !any; i++)
		any = wm->tgids[i] == tgid;
	if (!whole && !any)
		return;
	err = watch_set__resolve_mapped(&wm->ws, tgid, wm->placed);
	if (err) {
		session__stop(s, watch__resolve_status(s, wm, err));
		return;
	}
	any = false;
	for (size_t i = 0; i < wm->ws.nr; i++)
		any |= wm->placed[i];
	if (!any)
		return;
	watch__since(wm, monotime__ns());
	status = watch__store(s, wm, tgid);
	if (whole)
		status = status ?: watch__open_process(s, wm, tgid, wm->placed);
	for (size_t i = 0; i < tids->nr && !whole && !status; i++)
		if (wm->tgids[i] == tgid)
			status = watch__open_thread(s, wm, tgid, tids->ids[i], false, wm->placed);
	if (status)
		session__stop(s, status);
}

/* --count: stop once that many matching accesses were seen (they alone are kept). */
static void watch__tick(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;

	if (wm->o->count && !wm->count_reached &&
	    loader_watch__total(session__loader(s)) >= wm->o->count) {
		wm->count_reached = true;
		session__stop(s, 0);
	}
}

static int watch__fd(void *priv)
{
	const struct watch_mode *wm = priv;

	return watch_mover__fd(wm->mover);
}

/* A move failed: the turns stopped, and so does the run. */
static int watch__ready(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;
	uint64_t n;

	if (read(watch_mover__fd(wm->mover), &n, sizeof(n)) < 0)
		return 0;
	session__stop(s, session__fail(s, EXIT_RUNTIME, "%s", watch_mover__error(wm->mover)));
	return 0;
}

/* Sampling has stopped: the breakpoints go; a command still held goes on (to be ended). */
static void watch__stopped(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;

	(void)s;
	wm->t_stop = monotime__ns();
	watch_mover__stop(wm->mover, wm->t_stop); /* before the events it moves are touched */
	for (size_t i = 0; i < wm->nr_fds; i++)
		ioctl(wm->fds[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	if (wm->held)
		kill(wm->held, SIGCONT);
}

/* One accessing place of a location's summary: a function, a line, an instruction. */
struct watch_row {
	const char *name, *file;
	uint32_t line;
	struct watch_insn insn; /* insn.bin NULL: not known */
	uint64_t count;
};

struct watch_rows {
	struct session *s;
	struct watch_mode *wm;
	struct watch_insns *insns;
	unsigned int index;
	struct watch_row *r;
	size_t nr, cap;
	int err;
};

static bool watch_row__same(const struct watch_row *r, const struct frame *in,
			    const struct watch_insn *insn)
{
	return !strcmp(r->name, in->name) && r->line == in->line &&
	       (r->file == in->file || (r->file && in->file && !strcmp(r->file, in->file))) &&
	       r->insn.bin == insn->bin && r->insn.vaddr == insn->vaddr;
}

static int watch_rows__add(const void *key, __u64 count, void *ctx)
{
	const struct watch_ip_key *k = key;
	struct watch_rows *rows = ctx;
	const struct symloc *loc;
	const struct frame *in;
	struct watch_insn insn;
	/* a data breakpoint traps after the access: the instruction before ip made it */
	bool ret = rows->wm->ws.access != WATCH_ACCESS_X;
	int err;

	if (k->index != rows->index)
		return 0;
	loc = k->tgid ? symbolizer__user(session__symbolizer(rows->s), k->tgid,
					 proc_table__comm_of(session__procs(rows->s), k->tgid),
					 k->ip, ret) :
			symbolizer__kernel(session__symbolizer(rows->s), k->ip, ret);
	if (!loc || !loc->nr)
		return -ENOMEM;
	in = &loc->f[loc->nr - 1];
	err = k->tgid ? watch_insns__find(rows->insns, session__procs(rows->s), k->tgid,
					  proc_table__comm_of(session__procs(rows->s), k->tgid),
					  k->ip, ret, &insn) :
			-ENOENT;
	if (err == -ENOMEM)
		return err;
	if (err)
		memset(&insn, 0, sizeof(insn));
	for (size_t i = 0; i < rows->nr; i++) {
		struct watch_row *r = &rows->r[i];

		if (watch_row__same(r, in, &insn)) {
			r->count += count;
			return 0;
		}
	}
	if (array__grow((void **)&rows->r, &rows->cap, rows->nr + 1, sizeof(*rows->r)))
		return -ENOMEM;
	rows->r[rows->nr++] = (struct watch_row){ in->name, in->file, in->line, insn, count };
	return 0;
}

static int watch_row__cmp(const void *a, const void *b)
{
	const struct watch_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct watch_values {
	unsigned int index;
	struct watch_value_key *k;
	uint64_t *count;
	size_t nr, cap, cap2;
};

static int watch_values__add(const void *key, __u64 count, void *ctx)
{
	const struct watch_value_key *k = key;
	struct watch_values *v = ctx;

	if (k->index != v->index)
		return 0;
	if (array__grow((void **)&v->k, &v->cap, v->nr + 1, sizeof(*v->k)) ||
	    array__grow((void **)&v->count, &v->cap2, v->nr + 1, sizeof(*v->count)))
		return -ENOMEM;
	v->k[v->nr] = *k;
	v->count[v->nr++] = count;
	return 0;
}

/* --values: "value N (0xN): COUNT" by value. */
static int watch__print_values(struct session *s, const struct watch *w)
{
	struct watch_values v = { .index = w->index };
	int err = loader_watch__for_each_value(session__loader(s), watch_values__add, &v);

	/* a small insertion sort: the histogram is printed, not big */
	for (size_t i = 1; !err && i < v.nr; i++)
		for (size_t j = i; j > 0 && v.k[j - 1].value > v.k[j].value; j--) {
			struct watch_value_key tk = v.k[j];
			uint64_t tc = v.count[j];

			v.k[j] = v.k[j - 1];
			v.count[j] = v.count[j - 1];
			v.k[j - 1] = tk;
			v.count[j - 1] = tc;
		}
	for (size_t i = 0; !err && i < v.nr; i++)
		fprintf(stderr, "    value %" PRId64 " (0x%" PRIx64 "): %" PRIu64 "\n",
			(int64_t)v.k[i].value, (uint64_t)v.k[i].value, v.count[i]);
	free(v.k);
	free(v.count);
	return err;
}

/* @str on stderr, escaped (a name from outside) */
static void watch__put(const char *str)
{
	escape__write(stderr, str, strlen(str));
}

/* The summary of location @w: its accesses, who made them, its values. */
static int watch__summary(struct session *s, struct watch_mode *wm, const struct watch *w,
			  double seconds)
{
	uint64_t since = wm->since[w->index];
	struct watch_rows rows = { .s = s, .wm = wm, .insns = wm->insns, .index = w->index };
	const struct watch_rotation *rot = wm->mover ? watch_mover__rotation(wm->mover) : NULL;
	double watched = rot ? watch_rotation__watched_ns(rot, w->index) / 1e9 : 0;
	struct watch_count c;
	int err;

	err = loader_watch__count(session__loader(s), w->index, &c);
	if (err)
		return err;
	/* the names are the user's and the files': escaped */
	fprintf(stderr, "%s: '", session__prog(s));
	watch__put(w->name);
	if (!w->nr_places) {
		fputs("': not watched: no target mapped ", stderr);
		watch__put(w->spec.binary ? w->spec.binary : "it");
		fputc('\n', stderr);
		return 0;
	}
	fputc('\'', stderr);
	/* a library loaded later: watched from then */
	if (since > wm->t_start && wm->t_stop > since)
		seconds = (wm->t_stop - since) / 1e9;
	if (w->nr_places == 1)
		fprintf(stderr, " (0x%" PRIx64 ", %u bytes, %s)", w->places[0].addr, w->len,
			watch_spec__access_name(wm->ws.access));
	else
		fprintf(stderr, " (%zu places, %u bytes, %s)", w->nr_places, w->len,
			watch_spec__access_name(wm->ws.access));
	fprintf(stderr, ": %" PRIu64 " accesses", (uint64_t)c.kept);
	if (wm->o->cond)
		fprintf(stderr, ", %" PRIu64 " dropped by --if", (uint64_t)c.dropped);
	if (c.over)
		fprintf(stderr, ", %" PRIu64 " after --count", (uint64_t)c.over);
	if (!wm->rotate) {
		fprintf(stderr, ", watched %.2f s\n", seconds);
	} else if (!watched) {
		fprintf(stderr, ", not watched (the run ended before its turn)\n");
	} else {
		/* accesses at the rate seen while watched, over the whole run: an estimate */
		fprintf(stderr, ", watched %.2f s of %.2f s: ~%.0f in the run (~%.0f/s)\n",
			watched, seconds, c.kept * seconds / watched, c.kept / watched);
	}
	err = loader_watch__for_each_ip(session__loader(s), watch_rows__add, &rows);
	if (!err && rows.nr) /* none: rows.r is NULL, which qsort must not get */
		qsort(rows.r, rows.nr, sizeof(*rows.r), watch_row__cmp);
	for (size_t i = 0; !err && i < rows.nr; i++) {
		const struct watch_row *r = &rows.r[i];

		/* "COUNT  FUNCTION  FILE:LINE  at SYMBOL+0xOFF (BINARY 0xADDR): INSN" */
		fprintf(stderr, "    %" PRIu64 "  ", r->count);
		watch__put(r->name);
		if (r->file) {
			fputs("  ", stderr);
			watch__put(r->file);
			fprintf(stderr, ":%u", r->line);
		}
		if (r->insn.bin) {
			fputs("  at ", stderr);
			watch__put(r->insn.func);
			fprintf(stderr, "+0x%" PRIx64 " (", r->insn.func_off);
			watch__put(r->insn.bin->name);
			fprintf(stderr, " 0x%" PRIx64 "): %s", r->insn.vaddr, r->insn.text);
		}
		fprintf(stderr, "\n");
	}
	free(rows.r);
	return err ?: wm->o->values ? watch__print_values(s, w) : 0;
}

static int watch__finish(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;
	const struct watch_opts *o = wm->o;
	struct profile *p = &wm->stacks.p;
	double seconds = wm->t_start && wm->t_stop > wm->t_start ?
				 (wm->t_stop - wm->t_start) / 1e9 : 0;
	int err, status;

	status = drain_session__profile(wm->stacks.ds, s);
	if (status)
		return status;
	err = o->out.format->write_profile(session__out(s), p, &o->out, &wm->rows);
	status = session__commit(s, err, "profile");
	if (status || o->session.quiet)
		return status;
	wm->insns = watch_insns__new(o->session.symbols.demangle,
				     o->session.symbols.debug_dirs);
	err = wm->insns ? 0 : -ENOMEM;
	if (wm->mover) {
		uint64_t moves, ns;

		watch_mover__cost(wm->mover, &moves, &ns);
		session__note(s, "%zu locations took turns on %u debug registers, %u ms each "
			      "(%" PRIu64 " turns, %.1f µs a move): a location's accesses are "
			      "those seen while it was watched; '~N in the run' estimates them "
			      "over the whole run", wm->ws.nr, wm->slots, o->rotate_ms,
			      watch_mover__rotation(wm->mover)->turns,
			      moves ? ns / 1e3 / moves : 0.0);
	}
	for (size_t i = 0; i < wm->ws.nr && !err; i++)
		err = watch__summary(s, wm, &wm->ws.w[i], seconds);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot read the watch counts: %s",
				     strerror(-err));
	if (p->stats[STAT_STACKS_LOST] + p->stats[STAT_WATCH_MAP_FULL])
		session__warn(s, "%" PRIu64 " accesses have no stack, %" PRIu64 " no ip or value "
				 "(the maps were full)",
			      p->stats[STAT_STACKS_LOST], p->stats[STAT_WATCH_MAP_FULL]);
	fprintf(stderr, "%s: %" PRIu64 " accesses kept, %zu unique stacks, %.2f s",
		session__prog(s), p->stats[STAT_KEPT], wm->rows, p->duration);
	session__print_output(s, "profile");
	fputc('\n', stderr);
	return 0;
}

static void watch__end(struct session *s, void *priv)
{
	struct watch_mode *wm = priv;

	(void)s;
	watch_mover__free(wm->mover); /* the thread first: it moves the events */
	wm->mover = NULL;
	for (size_t i = 0; i < wm->nr_fds; i++)
		close(wm->fds[i].fd);
	free(wm->fds);
	wm->fds = NULL;
	wm->nr_fds = 0;
	if (wm->held)
		kill(wm->held, SIGCONT);
	wm->held = 0;
	watch_set__free(&wm->ws);
	free(wm->since);
	free(wm->placed);
	free(wm->tgids);
	wm->since = NULL;
	wm->placed = NULL;
	wm->tgids = NULL;
	watch_insns__free(wm->insns); /* its binaries are the process table's */
	wm->insns = NULL;
}

static const struct session_hooks watch_hooks = {
	.prepare = watch__prepare,
	.configure = watch__configure,
	.start = watch__start,
	.events = watch__events,
	.mmap = watch__mmap,
	.exec = watch__exec,
	.fd = watch__fd,
	.ready = watch__ready,
	.tick = watch__tick,
	.stopped = watch__stopped,
	.finish = watch__finish,
	.end = watch__end,
};

int watch__run(const struct watch_opts *o)
{
	/* the profile keeps what its format shows (as record's) */
	struct watch_mode wm = { .o = o,
				 .stacks.p.drop_lines = output__drop_lines(&o->out),
				 .stacks.p.keep_bins = output__keep_bins(&o->out) };
	struct session_plug plugs[3];
	size_t n;
	int status = EXIT_RUNTIME;

	/*
	 * The unwinder first, as record's: its tables are loaded before the
	 * breakpoints are set; then the drain (processes and binaries stay:
	 * the summary names the accesses at the end); then the mode.
	 */
	if (stacks__init(&wm.stacks, &o->unwind, o->out.per_pid, false)) {
		fprintf(stderr, "bpfprof watch: out of memory\n");
		goto out;
	}
	drain_session__set_leaf_after(wm.stacks.ds, o->access != WATCH_ACCESS_X);
	n = stacks__plugs(&wm.stacks, plugs);
	plugs[n++] = (struct session_plug){ &watch_hooks, &wm };
	status = session__main(&o->session, "bpfprof watch", plugs, n);
out:
	stacks__free(&wm.stacks);
	for (size_t i = 0; i < wm.nr_labels; i++)
		free(wm.labels[i]);
	free(wm.labels);
	return status;
}
