// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The unwinder's hooks in a capture: see unwind-session.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cficache.h"
#include "loader-unwind.h"
#include "monotime.h"
#include "unwind-session.h"

/*
 * Bins: binaries with tables; maps: executable mappings per process, at
 * least UNWIND_MAPS and twice the most a target has at the start.
 */
#define UNWIND_BINS 16384
#define UNWIND_MAPS 512
#define UNWIND_PROCS 32768

struct unwind_session {
	struct unwind_opts o;
	struct session *s;
	struct unwinder *uw;          /* NULL until started, and without DWARF unwinding */
	char *cache_dir;              /* the unwind tables' disk cache */
	double load_s;                /* the tables loaded before sampling: seconds */
	unsigned int most_maps;       /* the most executable mappings of a target at the start */
	unsigned int maps_cap;        /* mappings a process's table holds */
	struct loader_unwind_cfg maps; /* the unwinder's maps' sizes (configure) */
};

struct unwind_session *unwind_session__new(const struct unwind_opts *o)
{
	struct unwind_session *us = calloc(1, sizeof(*us));

	if (us)
		us->o = *o;
	return us;
}

void unwind_session__free(struct unwind_session *us)
{
	if (!us)
		return;
	unwinder__free(us->uw);
	free(us->cache_dir);
	free(us);
}

void unwind_session__stats(const struct unwind_session *us, struct unwind_session_stats *st)
{
	st->uw = us->uw ? unwinder__stats(us->uw) : NULL;
	st->dwarf_only = us->o.mode == UNWIND_DWARF;
	st->load_s = us->load_s;
	st->maps_cap = us->maps_cap;
}

static int count_mapping(pid_t tgid, const struct mapping *m, void *ctx)
{
	(void)tgid;
	(void)m;
	++*(unsigned int *)ctx;
	return 0;
}

static void most_mappings(pid_t tgid, void *ctx)
{
	struct unwind_session *us = ctx;
	unsigned int n = 0;

	proc_table__for_each_mapping_of(session__procs(us->s), tgid, count_mapping, &n);
	if (n > us->most_maps)
		us->most_maps = n;
}

/* --unwind=dwarf|auto: the unwinder's map sizes, from --unwind-memory. */
static int unwind_session__configure(struct session *s, void *priv, struct loader_cfg *cfg)
{
	struct unwind_session *us = priv;
	unsigned long long mem = us->o.memory;

	us->s = s;
	if (us->o.mode == UNWIND_FP || !cfg->user_stacks || cfg->empty_handler)
		return 0;
	cfg->unwind = &us->maps;
	us->maps.fallback = us->o.mode == UNWIND_AUTO;
	/*
	 * 31/32 for rows, 1/32 for page entries: one 8-byte entry per 4 KiB
	 * of code, against about 900 bytes of rows (libLLVM-14: 949k rows,
	 * 12k pages). At 1/8, clang's 2.5M rows (28.6 MiB) did not fit.
	 */
	us->maps.rows = mem / 32 * 31 / sizeof(struct unwind_row);
	us->maps.pages = mem / 32 / sizeof(__u64);
	us->maps.bins = UNWIND_BINS;
	us->most_maps = 0;
	proc_table__for_each_process(session__procs(s), most_mappings, us);
	us->maps.maps = us->most_maps > UNWIND_MAPS / 2 ? 2 * us->most_maps : UNWIND_MAPS;
	us->maps_cap = us->maps.maps;
	us->maps.procs = UNWIND_PROCS;
	return 0;
}

/*
 * Give the unwinder @tgid's mappings as they are after this batch of side
 * band records (unwinder__flush); not the command's before its exec: that
 * image is bpfprof's own (its exec gives it).
 */
static void unwind_session__sync(struct unwind_session *us, pid_t tgid)
{
	if (us->uw && !session__before_exec(us->s, tgid))
		unwinder__mark(us->uw, tgid);
}

static void unwind_sync(pid_t tgid, void *ctx)
{
	unwind_session__sync(ctx, tgid);
}

/*
 * Hold (stop) a process while its tables are built only when every target
 * is bpfprof's own: the command and its children, never -p, -t, -G or -a.
 */
static bool unwind_session__may_hold(const struct unwind_session *us, const struct session *s)
{
	const struct target_opts *t = &session__opts(s)->targets;

	return !us->o.no_hold && t->command && !t->all_cpus && !t->pids.nr && !t->tids.nr &&
	       !t->cgroup;
}

/* The tables of every binary the targets map now, before sampling starts. */
static int unwind_session__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct unwind_session *us = priv;
	uint64_t t0;
	int err;

	if (!cfg->unwind)
		return 0;
	us->cache_dir = cficache__default_dir();
	us->uw = unwinder__new(session__loader(s), session__procs(s),
			       &(struct unwinder_opts){ .cache_dir = us->cache_dir,
							.max_bins = cfg->unwind->bins,
							.hold = unwind_session__may_hold(us, s) });
	if (!us->uw)
		return session__fail(s, EXIT_RUNTIME, "cannot set up the unwinder: %s",
				     strerror(errno));
	t0 = monotime__ns();
	proc_table__for_each_process(session__procs(s), unwind_sync, us);
	err = unwinder__flush(us->uw);
	while (!err && (err = unwinder__wait(us->uw, session__signal_fd(s))) == -EINTR) {
		if (session__stopping(s))
			return 0; /* cut short: the run ends before sampling */
		err = 0; /* SIGCHLD */
	}
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot load unwind tables: %s",
				     strerror(-err));
	us->load_s = (monotime__ns() - t0) / 1e9;
	unwinder__reset_latency(us->uw);
	return 0;
}

static void unwind_session__mmap(struct session *s, void *priv, pid_t tgid,
				 const struct mapping *m)
{
	(void)s;
	(void)m;
	unwind_session__sync(priv, tgid);
}

static void unwind_session__exec(struct session *s, void *priv, pid_t tgid)
{
	(void)s;
	unwind_session__sync(priv, tgid);
}

static void unwind_session__fork(struct session *s, void *priv, pid_t ppid, pid_t pid)
{
	(void)s;
	(void)ppid;
	unwind_session__sync(priv, pid);
}

static void unwind_session__exit(struct session *s, void *priv, pid_t pid)
{
	struct unwind_session *us = priv;

	(void)s;
	if (us->uw)
		unwinder__drop(us->uw, pid);
}

static void unwind_session__binary_gone(struct session *s, void *priv, const struct binary *b)
{
	struct unwind_session *us = priv;

	(void)s;
	if (us->uw)
		unwinder__forget_binary(us->uw, b->id);
}

static int unwind_session__batch(struct session *s, void *priv)
{
	struct unwind_session *us = priv;

	(void)s;
	return us->uw ? unwinder__flush(us->uw) : 0;
}

/* The worker's finished tables: -1 (ignored by poll) without an unwinder. */
static int unwind_session__fd(void *priv)
{
	struct unwind_session *us = priv;

	return us->uw ? unwinder__fd(us->uw) : -1;
}

static int unwind_session__ready(struct session *s, void *priv)
{
	struct unwind_session *us = priv;

	(void)s;
	return unwinder__complete(us->uw);
}

static void unwind_session__tick(struct session *s, void *priv)
{
	struct unwind_session *us = priv;

	(void)s;
	if (us->uw)
		unwinder__tick(us->uw);
}

/* No process stays stopped for a table once sampling is over. */
static void unwind_session__stopped(struct session *s, void *priv)
{
	struct unwind_session *us = priv;

	(void)s;
	if (us->uw)
		unwinder__unhold(us->uw);
}

/* Before the loader and the process table go: the worker and the maps' users. */
static void unwind_session__end(struct session *s, void *priv)
{
	struct unwind_session *us = priv;

	(void)s;
	unwinder__free(us->uw);
	us->uw = NULL;
}

const struct session_hooks unwind_session_hooks = {
	.configure = unwind_session__configure,
	.start = unwind_session__start,
	.mmap = unwind_session__mmap,
	.exec = unwind_session__exec,
	.fork = unwind_session__fork,
	.exit = unwind_session__exit,
	.binary_gone = unwind_session__binary_gone,
	.batch = unwind_session__batch,
	.fd = unwind_session__fd,
	.ready = unwind_session__ready,
	.tick = unwind_session__tick,
	.stopped = unwind_session__stopped,
	.end = unwind_session__end,
};
