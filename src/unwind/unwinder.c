// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unwind tables into the BPF maps: built off the loop, placed, evicted; processes told. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cficache.h"
#include "cfiworker.h"
#include "elfloads.h"
#include "extentpool.h"
#include "loader-unwind.h"
#include "monotime.h"
#include "unwinder.h"
#include "vdso.h"

/*
 * A table read from the cache holds the command up to this size: read in
 * about a millisecond (libc's is 333 KiB), longer ones are left to run.
 */
#define UNWIND_HOLD_READ_MAX (INT64_C(1) << 20)

/* A binary as the unwinder knows it, by proc's binary id. */
struct ubin {
	enum {
		UBIN_NEW,      /* never needed yet */
		UBIN_BUILDING, /* with the worker */
		UBIN_LOADED,   /* in the maps as unwind_bins[bin] */
		UBIN_OUT,      /* has a table, not in the maps (did not fit, or evicted) */
		UBIN_NONE,     /* no usable CFI */
	} state;
	const struct binary *b;
	__u32 bin;              /* unwind_bins index, when loaded */
	uint64_t base;          /* the table's base vaddr */
	size_t row_off, row_len; /* its unwind_rows elements (row pairs) */
	size_t page_off, page_len; /* its unwind_pages entries */
	struct elf_load *loads; /* PT_LOAD segments: file offset -> vaddr */
	size_t nr_loads;
	uint64_t asked_ns;      /* when its table was last asked for */
	size_t need_rows, need_pages; /* OUT: the room its table takes (0: unknown) */
	bool again;             /* asked for after it was left out */
	bool cold;              /* BUILDING: built, or a small one read (holds processes) */
};

struct unwinder {
	struct loader *l;
	struct proc_table *pt;
	struct unwinder_opts o;
	struct cfi_worker *worker;
	struct unwind_bin *bins;
	struct extent_pool row_pool, page_pool; /* rows in pairs, pages in entries */
	__u32 *free_bins;       /* unwind_bins indexes to reuse */
	size_t nr_free_bins, cap_free_bins;
	__u32 nr_bins, cap_bins; /* indexes never used start at nr_bins */
	struct ubin *ubins;     /* by binary id */
	size_t nr_ubins;
	struct uproc {
		pid_t tgid;
		bool dirty;     /* its mappings changed since its table was written */
		bool cut;       /* had more mappings than its table holds */
		bool held;      /* stopped by us until its tables are built */
		uint64_t held_ns; /* since when */
	} *procs;               /* the processes with a mapping table (or about to) */
	size_t nr_procs, cap_procs;
	struct unwind_proc *proc; /* one value being built */
	unsigned int max_maps;
	__u32 epoch;
	struct unwinder_stats st;
};

struct unwinder *unwinder__new(struct loader *l, struct proc_table *pt,
			       const struct unwinder_opts *o)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	size_t nr_rows, nr_pages, nr_bins;

	if (!u)
		return NULL;
	u->l = l;
	u->pt = pt;
	u->o = *o;
	nr_rows = loader_unwind__rows(l);
	nr_pages = loader_unwind__pages(l);
	u->bins = loader_unwind__bins(l, &nr_bins);
	u->cap_bins = o->max_bins < nr_bins ? o->max_bins : nr_bins;
	u->max_maps = (loader_unwind__proc_size(l) - sizeof(struct unwind_proc)) /
		      sizeof(struct unwind_map);
	u->proc = calloc(1, loader_unwind__proc_size(l));
	if (!u->proc || !nr_rows || !nr_pages || !u->bins ||
	    extent_pool__init(&u->row_pool, nr_rows / UNWIND_ROW_PAIR) ||
	    extent_pool__init(&u->page_pool, nr_pages))
		goto fail;
	u->worker = cfi_worker__new(o->cache_dir);
	if (!u->worker)
		goto fail;
	return u;
fail:
	unwinder__free(u);
	errno = ENOMEM;
	return NULL;
}

void unwinder__free(struct unwinder *u)
{
	if (!u)
		return;
	unwinder__unhold(u);
	cfi_worker__free(u->worker);
	for (size_t i = 0; i < u->nr_ubins; i++)
		free(u->ubins[i].loads);
	free(u->ubins);
	free((char *)u->st.max_build_name);
	free(u->free_bins);
	free(u->procs);
	extent_pool__exit(&u->row_pool);
	extent_pool__exit(&u->page_pool);
	free(u->proc);
	free(u);
}

const struct unwinder_stats *unwinder__stats(const struct unwinder *u)
{
	return &u->st;
}

void unwinder__reset_latency(struct unwinder *u)
{
	u->st.latency_ns = u->st.max_latency_ns = 0;
	u->st.latencies = 0;
}

int unwinder__fd(const struct unwinder *u)
{
	return cfi_worker__fd(u->worker);
}

static struct ubin *unwinder__ubin(struct unwinder *u, const struct binary *b)
{
	if (b->id >= u->nr_ubins) {
		size_t old = u->nr_ubins;

		if (array__grow((void **)&u->ubins, &u->nr_ubins, b->id + 1, sizeof(*u->ubins)))
			return NULL;
		memset(u->ubins + old, 0, (u->nr_ubins - old) * sizeof(*u->ubins));
	}
	u->ubins[b->id].b = b;
	return &u->ubins[b->id];
}

/* ---- which processes map what ---- */

static struct uproc *unwinder__proc(struct unwinder *u, pid_t tgid)
{
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].tgid == tgid)
			return &u->procs[i];
	if (array__grow((void **)&u->procs, &u->cap_procs, u->nr_procs + 1, sizeof(*u->procs)))
		return NULL;
	u->procs[u->nr_procs] = (struct uproc){ .tgid = tgid };
	return &u->procs[u->nr_procs++];
}

static int maps_bin(pid_t tgid, const struct mapping *m, void *ctx)
{
	(void)tgid;
	return m->bin && m->bin->id == *(unsigned int *)ctx;
}

/* Rewrite the mapping table of every process that maps binary @id. */
static void unwinder__resync_bin(struct unwinder *u, unsigned int id)
{
	for (size_t i = 0; i < u->nr_procs; i++)
		if (proc_table__for_each_mapping_of(u->pt, u->procs[i].tgid, maps_bin, &id) > 0)
			unwinder__sync(u, u->procs[i].tgid);
}

/* ---- room in the maps ---- */

/* Walks through @ub's table last went @return epochs ago. */
static __u32 ubin__age(const struct unwinder *u, const struct ubin *ub)
{
	return u->epoch - __atomic_load_n(&u->bins[ub->bin].used, __ATOMIC_RELAXED);
}

/* Walks went through @a less recently than through @b (ages in epochs). */
static int ubin__cmp_age(const struct unwinder *u, const struct ubin *a, const struct ubin *b)
{
	__u32 age_a = ubin__age(u, a), age_b = ubin__age(u, b);

	return age_a > age_b ? -1 : age_a < age_b;
}

/*
 * The table to evict to make room for @rows row pairs and @pages page
 * entries, or NULL. Only tables no walk went through during this epoch or
 * the one before (right after a tick, none went through the new one yet)
 * may go. Of those, the least recently walked through whose room alone,
 * with the free space around it, takes the new table; of tables walked
 * through as recently, the one whose room fits it best (the smallest). When
 * none does, the least recently walked through of all (its room may join
 * another's).
 *
 * Ties are common: a walk that stops at a binary without a table cannot
 * stamp the tables below it, so while a process waits for one, every table
 * its stacks go through ages alike, libc's as much as the library of the
 * phase that just ended. The best fit keeps the large runs for the large
 * tables: evicting a bigger table than needed splits the free space, and
 * the bigger one may then never fit again.
 */
static struct ubin *unwinder__victim(struct unwinder *u, size_t rows, size_t pages)
{
	struct ubin *alone = NULL, *oldest = NULL;
	size_t alone_run = 0;

	for (size_t i = 0; i < u->nr_ubins; i++) {
		struct ubin *ub = &u->ubins[i];
		size_t run;
		int c;

		if (ub->state != UBIN_LOADED || ubin__age(u, ub) < 2)
			continue;
		if (!oldest || ubin__cmp_age(u, ub, oldest) < 0)
			oldest = ub;
		run = extent_pool__run_if_released(&u->row_pool, ub->row_off, ub->row_len);
		if (run < rows ||
		    extent_pool__run_if_released(&u->page_pool, ub->page_off, ub->page_len) < pages)
			continue;
		if (!alone || (c = ubin__cmp_age(u, ub, alone)) < 0 || (c == 0 && run < alone_run)) {
			alone = ub;
			alone_run = run;
		}
	}
	return alone ?: oldest;
}

/*
 * Take @ub's table out of the maps: the program stops finding it at once
 * (nr_pages 0), the processes mapping it are told before its index is
 * reused, and its rows and pages are free for the next table. A walk on
 * another CPU that was reading them at that moment can lose its frames;
 * it cannot read outside the maps.
 */
static void unwinder__unload(struct unwinder *u, struct ubin *ub)
{
	__atomic_store_n(&u->bins[ub->bin].nr_pages, 0, __ATOMIC_RELEASE);
	/* walks no longer reach it; rows cached from it must not outlive it */
	loader_unwind__drop_cached_rows(u->l);
	ub->state = UBIN_OUT;
	ub->need_rows = ub->row_len;
	ub->need_pages = ub->page_len;
	unwinder__resync_bin(u, ub->b->id);
	/* cannot fail: released extents only merge, or take the room grown for them */
	extent_pool__release(&u->row_pool, ub->row_off, ub->row_len);
	extent_pool__release(&u->page_pool, ub->page_off, ub->page_len);
	u->free_bins[u->nr_free_bins++] = ub->bin;
}

static void unwinder__evict(struct unwinder *u, struct ubin *ub)
{
	unwinder__unload(u, ub);
	u->st.evicted++;
}

void unwinder__forget_binary(struct unwinder *u, unsigned int id)
{
	struct ubin *ub = id < u->nr_ubins ? &u->ubins[id] : NULL;

	if (!ub)
		return;
	if (ub->state == UBIN_LOADED)
		unwinder__unload(u, ub);
	free(ub->loads);
	/* a table still with the worker arrives for a binary no longer building: freed */
	*ub = (struct ubin){ .state = UBIN_NEW };
}

/*
 * Room for @t: an unwind_bins index, rows and pages, evicting as needed.
 * 0, -ENOSPC (not now), -E2BIG (never: larger than the maps) or -ENOMEM.
 */
static int unwinder__make_room(struct unwinder *u, struct ubin *ub, const struct cfi_table *t)
{
	size_t rows = (t->nr_rows + UNWIND_ROW_PAIR - 1) / UNWIND_ROW_PAIR;
	size_t pages = (size_t)t->nr_pages + 1;
	struct ubin *victim;

	if (rows > u->row_pool.size || pages > u->page_pool.size)
		return -E2BIG;
	ub->need_rows = rows;
	ub->need_pages = pages;
	/* every index may come back to the free list: room for all of them */
	if (array__grow((void **)&u->free_bins, &u->cap_free_bins, u->cap_bins,
			sizeof(*u->free_bins)))
		return -ENOMEM;
	for (;;) {
		bool have_bin = u->nr_free_bins || u->nr_bins < u->cap_bins;

		if (have_bin && !extent_pool__alloc(&u->row_pool, rows, &ub->row_off)) {
			if (!extent_pool__alloc(&u->page_pool, pages, &ub->page_off))
				break;
			extent_pool__release(&u->row_pool, ub->row_off, rows);
		}
		victim = unwinder__victim(u, rows, pages);
		if (!victim)
			return -ENOSPC;
		unwinder__evict(u, victim);
	}
	ub->row_len = rows;
	ub->page_len = pages;
	ub->bin = u->nr_free_bins ? u->free_bins[--u->nr_free_bins] : u->nr_bins++;
	return 0;
}

/* Copy @t into the maps as @ub's table. 0, or as unwinder__make_room(). */
static int unwinder__store(struct unwinder *u, struct ubin *ub, const struct cfi_table *t)
{
	size_t first_row;
	__u64 *pages;
	int err = unwinder__make_room(u, ub, t);

	if (err)
		return err;
	first_row = ub->row_off * UNWIND_ROW_PAIR;
	pages = malloc(((size_t)t->nr_pages + 1) * sizeof(*pages));
	for (uint32_t i = 0; pages && i <= t->nr_pages; i++)
		pages[i] = first_row + t->pages[i];
	err = pages ? loader_unwind__write_rows(u->l, first_row, t->rows, t->nr_rows) : -ENOMEM;
	err = err ?: loader_unwind__write_pages(u->l, ub->page_off, pages, t->nr_pages + 1);
	free(pages);
	if (err) { /* the room goes back; the run cannot go on without its maps */
		extent_pool__release(&u->row_pool, ub->row_off, ub->row_len);
		extent_pool__release(&u->page_pool, ub->page_off, ub->page_len);
		u->free_bins[u->nr_free_bins++] = ub->bin;
		return -ENOMEM;
	}
	u->bins[ub->bin].page_base = ub->page_off;
	/* new: not the next victim before a walk had the chance to go through it */
	u->bins[ub->bin].used = u->epoch;
	/* the rows, pages and base are in place before the binary has pages */
	__atomic_store_n(&u->bins[ub->bin].nr_pages, t->nr_pages, __ATOMIC_RELEASE);
	ub->base = t->base;
	u->st.rows += t->nr_rows;
	u->st.bytes += cfi_table__bytes(t);
	return 0;
}

/* ---- tables ---- */

/* A table (or none) for @ub arrived: into the maps, and the processes told. */
static int unwinder__arrived(struct unwinder *u, struct ubin *ub, struct cfi_table *t, int err,
			     bool cached, uint64_t build_ns)
{
	uint64_t dt;

	if (!t) {
		ub->state = UBIN_NONE;
		u->st.no_cfi++;
		return err == ENOMEM ? -ENOMEM : 0;
	}
	if (!ub->loads && !ub->b->vdso &&
	    elf_loads__read(ub->b->fd, 0, &ub->loads, &ub->nr_loads)) {
		ub->state = UBIN_NONE;
		u->st.no_cfi++;
		cfi_table__free(t);
		return 0;
	}
	err = unwinder__store(u, ub, t);
	cfi_table__free(t);
	if (err == -ENOMEM)
		return err;
	if (err == -E2BIG) {
		ub->state = UBIN_NONE;
		u->st.full++;
	} else if (err) {
		/*
		 * Everything in the maps was walked through lately: asked for
		 * again by the program when a walk goes through it, once there
		 * is a table to evict (unwinder__tick)
		 */
		ub->state = UBIN_OUT;
		u->st.full += !ub->again;
	} else {
		ub->state = UBIN_LOADED;
		u->st.tables++;
		u->st.cached += cached;
		u->st.reloaded += ub->again;
	}
	u->st.build_ns += build_ns;
	if (build_ns > u->st.max_build_ns) {
		u->st.max_build_ns = build_ns;
		char *name = strdup(ub->b->name); /* the binary may be freed before the stats are read */

		if (name) {
			free((char *)u->st.max_build_name);
			u->st.max_build_name = name;
		}
	}
	unwinder__resync_bin(u, ub->b->id);
	if (ub->state == UBIN_LOADED) {
		dt = monotime__ns() - ub->asked_ns;
		u->st.latency_ns += dt;
		u->st.latencies++;
		if (dt > u->st.max_latency_ns)
			u->st.max_latency_ns = dt;
	}
	return 0;
}

/*
 * Ask the worker for @ub's table (never built here: a table arriving
 * rewrites processes' mapping tables, and this runs while one is listed).
 */
static int unwinder__ask(struct unwinder *u, struct ubin *ub)
{
	const struct binary *b = ub->b;
	const void *image;
	int64_t cached;
	size_t size;
	int err;

	image = b->vdso ? vdso__image(&size) : NULL;
	if (b->vdso ? !image : b->fd < 0) {
		ub->state = UBIN_NONE;
		u->st.no_cfi++;
		return 0;
	}
	ub->asked_ns = monotime__ns();
	/*
	 * A build holds, and so does a small table read from the cache
	 * (libc's 333 KiB, mapped after the exec: without a hold the first
	 * samples of a loaded machine miss its start frames); a big one read
	 * (libLLVM's 11 MiB: hundreds of milliseconds under load) does not,
	 * nor does a file without CFI (libicudata's 30 MB, looked at every run)
	 */
	cached = !image && u->o.cache_dir && b->build_id_len ?
			 cficache__size(u->o.cache_dir, b->build_id, b->build_id_len) : -1;
	ub->cold = !image && cached <= UNWIND_HOLD_READ_MAX && cfi_table__has_cfi(b->fd);
	err = image ? cfi_worker__submit_image(u->worker, b->id, image, size) :
		      cfi_worker__submit(u->worker, b->id, b->fd);
	if (!err)
		ub->state = UBIN_BUILDING;
	return err;
}

static void unwinder__release(struct unwinder *u, struct uproc *p);

/*
 * A held process waits for the worker only. Its mapping table was
 * rewritten when a table it maps came, but not when the binary that held it
 * went out of its mappings (or was forgotten) meanwhile: look again at each
 * one, and let all go when the worker has nothing left.
 */
static int unwinder__recheck_held(struct unwinder *u)
{
	int err = 0;

	for (size_t i = 0; i < u->nr_procs; i++) {
		if (!u->procs[i].held)
			continue;
		if (!cfi_worker__pending(u->worker))
			unwinder__release(u, &u->procs[i]);
		else
			err = err ?: unwinder__sync(u, u->procs[i].tgid);
	}
	return err;
}

int unwinder__complete(struct unwinder *u)
{
	struct cfi_result r;
	int err = 0;

	while (!err && !cfi_worker__take(u->worker, &r)) {
		if (r.id < u->nr_ubins && u->ubins[r.id].state == UBIN_BUILDING)
			err = unwinder__arrived(u, &u->ubins[r.id], r.table, r.err, r.cached,
						r.build_ns);
		else
			cfi_table__free(r.table);
	}
	return err ?: unwinder__recheck_held(u);
}

int unwinder__wait(struct unwinder *u, int stop_fd)
{
	struct pollfd pfd[2] = { { .fd = unwinder__fd(u), .events = POLLIN },
				 { .fd = stop_fd, .events = POLLIN } };
	int err = 0;

	while (!err && cfi_worker__pending(u->worker)) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			return -errno;
		if (pfd[1].revents)
			return -EINTR;
		err = unwinder__complete(u);
	}
	return err;
}

/* Room for @ub's table now, or a table to evict for it (its size known). */
static bool unwinder__room_in_sight(struct unwinder *u, const struct ubin *ub)
{
	if (!ub->need_rows)
		return true;
	if ((u->nr_free_bins || u->nr_bins < u->cap_bins) &&
	    extent_pool__largest(&u->row_pool) >= ub->need_rows &&
	    extent_pool__largest(&u->page_pool) >= ub->need_pages)
		return true;
	return unwinder__victim(u, ub->need_rows, ub->need_pages) != NULL;
}

/* A process is stopped for its tables: its walks cannot stamp the tables they need. */
static bool unwinder__holding(const struct unwinder *u)
{
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].held)
			return true;
	return false;
}

void unwinder__tick(struct unwinder *u)
{
	size_t n = 0;
	__u32 ids[256];

	/* time stands still for eviction while one waits: its tables are not unused */
	if (!unwinder__holding(u))
		loader_unwind__set_epoch(u->l, ++u->epoch);
	if (loader_unwind__take_wanted(u->l, ids, ARRAY_SIZE(ids), &n))
		return;
	for (size_t i = 0; i < n; i++) {
		struct ubin *ub = ids[i] && ids[i] <= u->nr_ubins ? &u->ubins[ids[i] - 1] : NULL;

		/* each attempt reads (or builds) the table again: only with room in sight */
		if (ub && ub->state == UBIN_OUT && unwinder__room_in_sight(u, ub)) {
			ub->again = true;
			unwinder__ask(u, ub);
		}
	}
}

/* ---- processes ---- */

/* The vDSO is mapped at its own link address 0: vaddr = address - start. */
static bool ubin__bias(const struct ubin *ub, const struct binary *b, const struct mapping *m,
		       uint64_t *bias)
{
	const struct elf_load *seg;

	if (b->vdso) {
		*bias = m->start + ub->base;
		return true;
	}
	seg = elf_loads__code(ub->loads, ub->nr_loads, m->pgoff, m->end - m->start);
	if (!seg)
		return false;
	/* vaddr(a) = a - start + pgoff - p_offset + p_vaddr; row pc = vaddr - base */
	*bias = m->start - m->pgoff + seg->offset - seg->vaddr + ub->base;
	return true;
}

struct sync_ctx {
	struct unwinder *u;
	int err;
	bool building; /* a binary it maps has its table with the worker */
};

static int unwinder__add_map(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct sync_ctx *c = ctx;
	struct unwinder *u = c->u;
	struct unwind_map *um;
	struct ubin *ub;
	uint64_t bias;

	(void)tgid;
	if (u->proc->nr >= u->max_maps) {
		c->err = -E2BIG;
		return 0;
	}
	um = &u->proc->maps[u->proc->nr];
	*um = (struct unwind_map){ .start = m->start, .end = m->end, .bin = UNWIND_ANON };
	if (m->bin) {
		um->bin = UNWIND_NO_TABLE;
		ub = unwinder__ubin(u, m->bin);
		if (!ub)
			return -ENOMEM;
		if (ub->state == UBIN_NEW && unwinder__ask(u, ub) == -ENOMEM)
			return -ENOMEM;
		c->building |= ub->state == UBIN_BUILDING && ub->cold;
		if (ub->state == UBIN_LOADED && ubin__bias(ub, m->bin, m, &bias)) {
			um->bias = bias;
			um->bin = ub->bin;
		} else if (ub->state == UBIN_OUT) {
			um->want = m->bin->id + 1;
		}
	}
	u->proc->nr++;
	return 0;
}

static int map__cmp(const void *a, const void *b)
{
	const struct unwind_map *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* Continue @p if we stopped it. */
static void unwinder__release(struct unwinder *u, struct uproc *p)
{
	uint64_t dt;

	if (!p->held)
		return;
	p->held = false;
	kill(p->tgid, SIGCONT); /* ESRCH: it is gone, nothing to continue */
	dt = monotime__ns() - p->held_ns;
	u->st.held_ns += dt;
	if (dt > u->st.max_held_ns)
		u->st.max_held_ns = dt;
}

/*
 * With hold: stop @p while a table of a binary it maps is being built, so
 * it runs (and is sampled) only with every table in; continue it once none
 * is. Without a table that fits, it runs: only building holds it.
 */
static void unwinder__hold(struct unwinder *u, struct uproc *p, bool building)
{
	if (!building) {
		unwinder__release(u, p);
		return;
	}
	if (!u->o.hold || p->held || kill(p->tgid, SIGSTOP))
		return;
	p->held = true;
	p->held_ns = monotime__ns();
	u->st.holds++;
}

void unwinder__unhold(struct unwinder *u)
{
	u->o.hold = false;
	for (size_t i = 0; i < u->nr_procs; i++)
		unwinder__release(u, &u->procs[i]);
}

int unwinder__sync(struct unwinder *u, pid_t tgid)
{
	struct sync_ctx c = { .u = u };
	struct uproc *p = unwinder__proc(u, tgid);
	int err;

	if (!p)
		return -ENOMEM;
	p->dirty = false;
	memset(u->proc, 0, loader_unwind__proc_size(u->l));
	err = proc_table__for_each_mapping_of(u->pt, tgid, unwinder__add_map, &c);
	if (err)
		return err;
	/* listing the mappings may have grown procs: p may have moved */
	p = unwinder__proc(u, tgid);
	unwinder__hold(u, p, c.building);
	if (c.err == -E2BIG && !p->cut) {
		p->cut = true;
		u->st.maps_cut++;
	}
	if (!u->proc->nr) {
		/* a new image (exec) with nothing mapped yet */
		loader_unwind__delete_proc(u->l, tgid);
		return 0;
	}
	qsort(u->proc->maps, u->proc->nr, sizeof(u->proc->maps[0]), map__cmp);
	err = loader_unwind__set_proc(u->l, tgid, u->proc);
	if (!err)
		u->st.updates++;
	return err;
}

int unwinder__mark(struct unwinder *u, pid_t tgid)
{
	struct uproc *p = unwinder__proc(u, tgid);

	if (!p)
		return -ENOMEM;
	p->dirty = true;
	return 0;
}

int unwinder__flush(struct unwinder *u)
{
	int err = 0;

	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].dirty) {
			int e = unwinder__sync(u, u->procs[i].tgid);

			err = err ?: e;
		}
	return err;
}

void unwinder__drop(struct unwinder *u, pid_t tgid)
{
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].tgid == tgid) {
			/* held or not, never signalled: gone, its pid may be another's soon */
			u->procs[i] = u->procs[--u->nr_procs];
			break;
		}
	loader_unwind__delete_proc(u->l, tgid);
}
