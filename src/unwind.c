// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unwind tables into the BPF maps: binaries once, processes' mappings on change. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cficache.h"
#include "elfload.h"
#include "unwind.h"
#include "vdso.h"

/* A binary as the unwinder knows it, by proc's binary id. */
struct ubin {
	enum { UBIN_NEW, UBIN_LOADED, UBIN_NONE } state;
	__u32 bin;              /* unwind_bins index, when loaded */
	uint64_t base;          /* the table's base vaddr */
	struct elf_load *loads; /* PT_LOAD segments: file offset -> vaddr */
	size_t nr_loads;
};

struct unwinder {
	struct loader *l;
	struct unwinder_opts o;
	struct unwind_row *rows; /* the mmap'd maps */
	__u64 *pages;
	size_t cap_rows, cap_pages, used_rows, used_pages;
	__u32 nr_bins, cap_bins;
	struct ubin *ubins;     /* by binary id */
	size_t nr_ubins;
	struct unwind_proc *proc; /* one value being built */
	unsigned int max_maps;
	struct unwinder_stats st;
};

struct unwinder *unwinder__new(struct loader *l, const struct unwinder_opts *o)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->l = l;
	u->o = *o;
	u->rows = loader__unwind_rows(l, &u->cap_rows);
	u->pages = loader__unwind_pages(l, &u->cap_pages);
	u->cap_bins = o->max_bins;
	u->max_maps = (loader__unwind_proc_size(l) - sizeof(struct unwind_proc)) /
		      sizeof(struct unwind_map);
	u->proc = calloc(1, loader__unwind_proc_size(l));
	if (!u->proc || !u->rows || !u->pages) {
		unwinder__free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

void unwinder__free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_ubins; i++)
		free(u->ubins[i].loads);
	free(u->ubins);
	free(u->proc);
	free(u);
}

const struct unwinder_stats *unwinder__stats(const struct unwinder *u)
{
	return &u->st;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct ubin *unwinder__ubin(struct unwinder *u, const struct binary *b)
{
	struct ubin *v;

	if (b->id >= u->nr_ubins) {
		size_t n = b->id + 64;

		v = realloc(u->ubins, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + u->nr_ubins, 0, (n - u->nr_ubins) * sizeof(*v));
		u->ubins = v;
		u->nr_ubins = n;
	}
	return &u->ubins[b->id];
}

/* @b's table, from the disk cache or built; NULL + errno. */
static struct cfi_table *unwinder__table(struct unwinder *u, const struct binary *b,
					 bool *cached)
{
	const void *image;
	size_t size;

	*cached = false;
	if (b->vdso) {
		image = vdso__image(&size);
		if (!image) {
			errno = ENOENT;
			return NULL;
		}
		return cfi_table__build_mem(image, size);
	}
	if (b->fd < 0) {
		errno = EBADF;
		return NULL;
	}
	return cficache__get(u->o.cache_dir, b->fd, -1, cached);
}

/* Copy @t into the maps as the next binary; -ENOSPC when it does not fit. */
static int unwinder__store(struct unwinder *u, struct ubin *ub, const struct cfi_table *t)
{
	struct unwind_bin ent = { .page_base = u->used_pages, .nr_pages = t->nr_pages };
	int err;

	if (u->nr_bins >= u->cap_bins || t->nr_rows > u->cap_rows - u->used_rows ||
	    (size_t)t->nr_pages + 1 > u->cap_pages - u->used_pages)
		return -ENOSPC;
	memcpy(u->rows + u->used_rows, t->rows, t->nr_rows * sizeof(*t->rows));
	for (uint32_t i = 0; i <= t->nr_pages; i++)
		u->pages[u->used_pages + i] = u->used_rows + t->pages[i];
	/* the rows and pages are in place before the binary is named */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	err = loader__set_unwind_bin(u->l, u->nr_bins, &ent);
	if (err)
		return err;
	ub->bin = u->nr_bins++;
	ub->base = t->base;
	u->used_rows += t->nr_rows;
	/* a binary's rows start at a pair boundary: none shares another's element */
	u->used_rows += u->used_rows % UNWIND_ROW_PAIR;
	u->used_pages += t->nr_pages + 1;
	u->st.rows += t->nr_rows;
	u->st.bytes += cfi_table__bytes(t);
	return 0;
}

/* Load @b's table once; afterwards ub->state says whether it has one. */
static int unwinder__load(struct unwinder *u, const struct binary *b, struct ubin *ub)
{
	uint64_t t0 = now_ns(), dt;
	struct cfi_table *t;
	bool cached;
	int err = 0;

	ub->state = UBIN_NONE;
	if (!b->vdso && (b->fd < 0 || elf_loads__read(b->fd, 0, &ub->loads, &ub->nr_loads))) {
		u->st.no_cfi++;
		return 0;
	}
	t = unwinder__table(u, b, &cached);
	if (!t) {
		u->st.no_cfi++;
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	err = unwinder__store(u, ub, t);
	cfi_table__free(t);
	if (err == -ENOSPC) {
		u->st.full++;
		return 0;
	}
	if (err)
		return err;
	ub->state = UBIN_LOADED;
	u->st.tables++;
	u->st.cached += cached;
	dt = now_ns() - t0;
	u->st.build_ns += dt;
	if (dt > u->st.max_build_ns) {
		u->st.max_build_ns = dt;
		u->st.max_build_name = b->name;
	}
	return 0;
}

/* The vDSO is mapped at its own link address 0: vaddr = address - start. */
static bool ubin__bias(const struct ubin *ub, const struct binary *b, const struct mapping *m,
		       uint64_t *bias)
{
	const struct elf_load *seg;

	if (b->vdso) {
		*bias = m->start + ub->base;
		return true;
	}
	seg = elf_loads__by_offset(ub->loads, ub->nr_loads, m->pgoff, 0);
	if (!seg)
		return false;
	/* vaddr(a) = a - start + pgoff - p_offset + p_vaddr; row pc = vaddr - base */
	*bias = m->start - m->pgoff + seg->offset - seg->vaddr + ub->base;
	return true;
}

struct sync_ctx {
	struct unwinder *u;
	int err;
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
		if (ub->state == UBIN_NEW && unwinder__load(u, m->bin, ub))
			return -ENOMEM;
		if (ub->state == UBIN_LOADED && ubin__bias(ub, m->bin, m, &bias)) {
			um->bias = bias;
			um->bin = ub->bin;
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

int unwinder__sync(struct unwinder *u, struct proc_table *pt, pid_t tgid)
{
	struct sync_ctx c = { .u = u };
	int err;

	memset(u->proc, 0, loader__unwind_proc_size(u->l));
	err = proc_table__for_each_mapping_of(pt, tgid, unwinder__add_map, &c);
	if (err)
		return err;
	if (!u->proc->nr) {
		/* a new image (exec) with nothing mapped yet */
		loader__delete_unwind_proc(u->l, tgid);
		return 0;
	}
	if (c.err == -E2BIG)
		u->st.maps_cut++;
	qsort(u->proc->maps, u->proc->nr, sizeof(u->proc->maps[0]), map__cmp);
	err = loader__set_unwind_proc(u->l, tgid, u->proc);
	if (!err)
		u->st.updates++;
	return err;
}

void unwinder__drop(struct unwinder *u, pid_t tgid)
{
	loader__delete_unwind_proc(u->l, tgid);
}
