// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The unwinder's maps (bpf/unwind.bpf.h): sized for --unwind=dwarf|auto
 * from --unwind-memory (one entry each otherwise); the rows and page index
 * written a window at a time, the binary map mapped whole, the processes'
 * mappings set, the binaries walks asked for taken.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader-internal.h"

int loader_unwind__prepare(struct loader *l, const struct loader_unwind_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	struct record_bpf__rodata *ro = skel->rodata;
	bool on = cfg != NULL;
	unsigned int pairs = on ? (cfg->rows + UNWIND_ROW_PAIR - 1) / UNWIND_ROW_PAIR : 0;
	int err;

	ro->cfg_unwind = on;
	ro->cfg_unwind_fallback = on && cfg->fallback;
	ro->cfg_unwind_maps = on ? cfg->maps : 1;
	l->unwind.on = on;
	l->unwind.proc_size = sizeof(struct unwind_proc) +
			      (size_t)(on ? cfg->maps : 1) * sizeof(struct unwind_map);
	err = bpf_map__set_value_size(skel->maps.unwind_procs, l->unwind.proc_size);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_procs,
					      on ? loader__at_least_one(cfg->procs) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_rows,
					      on ? loader__at_least_one(pairs) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_pages,
					      on ? loader__at_least_one(cfg->pages) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_bins,
					      on ? loader__at_least_one(cfg->bins) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_wanted,
					      on ? loader__at_least_one(cfg->bins) : 1);
	return err;
}

/* Map an mmapable array map read-write: *@len bytes at the result, or NULL. */
static void *loader_unwind__mmap(const struct bpf_map *map, size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t elem = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	void *p;

	*len = (elem * bpf_map__max_entries(map) + page - 1) & ~(size_t)(page - 1);
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	return p == MAP_FAILED ? NULL : p;
}

/* The binary map, whole (rows and pages: a window at a time, loader_unwind__write). */
int loader_unwind__loaded(struct loader *l)
{
	if (!l->unwind.on)
		return 0;
	l->unwind.bins = loader_unwind__mmap(l->skel->maps.unwind_bins, &l->unwind.bins_len);
	return l->unwind.bins ? 0 : -errno;
}

void loader_unwind__free(struct loader *l)
{
	if (l->unwind.bins)
		munmap(l->unwind.bins, l->unwind.bins_len);
}

size_t loader_unwind__rows(const struct loader *l)
{
	return l->unwind.on ?
		       bpf_map__max_entries(l->skel->maps.unwind_rows) * UNWIND_ROW_PAIR : 0;
}

size_t loader_unwind__pages(const struct loader *l)
{
	return l->unwind.on ? bpf_map__max_entries(l->skel->maps.unwind_pages) : 0;
}

/*
 * Copy @len bytes to byte @off of the mmapable array map @map through a
 * mapping of the pages they cover alone: the kernel maps every page of a
 * mapping at once, so a whole-map mapping would make all of the map
 * resident in bpfprof (28 MiB of rows at the default --unwind-memory)
 * where the stack maps, written by syscalls, are not.
 */
static int loader_unwind__write(const struct bpf_map *map, size_t off, const void *src,
				size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE), start = off & ~(page - 1);
	size_t end = (off + len + page - 1) & ~(page - 1);
	char *p;

	p = mmap(NULL, end - start, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), start);
	if (p == MAP_FAILED)
		return -errno;
	memcpy(p + (off - start), src, len);
	munmap(p, end - start);
	return 0;
}

int loader_unwind__write_rows(struct loader *l, size_t first, const struct unwind_row *rows,
			      size_t n)
{
	if (first + n > loader_unwind__rows(l))
		return -ERANGE;
	return n ? loader_unwind__write(l->skel->maps.unwind_rows, first * sizeof(*rows), rows,
					n * sizeof(*rows)) :
		   0;
}

int loader_unwind__write_pages(struct loader *l, size_t first, const __u64 *pages, size_t n)
{
	if (first + n > loader_unwind__pages(l))
		return -ERANGE;
	return n ? loader_unwind__write(l->skel->maps.unwind_pages, first * sizeof(*pages),
					pages, n * sizeof(*pages)) :
		   0;
}

struct unwind_bin *loader_unwind__bins(struct loader *l, size_t *nr)
{
	*nr = l->unwind.bins ? bpf_map__max_entries(l->skel->maps.unwind_bins) : 0;
	return l->unwind.bins;
}

void loader_unwind__set_epoch(struct loader *l, __u32 epoch)
{
	__atomic_store_n(&l->skel->bss->unwind_epoch, epoch, __ATOMIC_RELAXED);
}

int loader_unwind__take_wanted(struct loader *l, __u32 *ids, size_t max, size_t *nr)
{
	int fd = bpf_map__fd(l->skel->maps.unwind_wanted);
	__u32 key, next;
	bool first = true;

	*nr = 0;
	while (*nr < max && !bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		ids[(*nr)++] = next;
		key = next;
		first = false;
	}
	/* deleted after the walk: deleting while iterating restarts it */
	for (size_t i = 0; i < *nr; i++)
		bpf_map_delete_elem(fd, &ids[i]);
	return 0;
}

void loader_unwind__drop_cached_rows(struct loader *l)
{
	__atomic_fetch_add(&l->skel->bss->unwind_gen, 1, __ATOMIC_RELEASE);
}

size_t loader_unwind__proc_size(const struct loader *l)
{
	return l->unwind.proc_size;
}

int loader_unwind__set_proc(struct loader *l, __u32 tgid, const struct unwind_proc *p)
{
	return bpf_map__update_elem(l->skel->maps.unwind_procs, &tgid, sizeof(tgid), p,
				    l->unwind.proc_size, BPF_ANY);
}

int loader_unwind__delete_proc(struct loader *l, __u32 tgid)
{
	return bpf_map__delete_elem(l->skel->maps.unwind_procs, &tgid, sizeof(tgid), 0);
}
