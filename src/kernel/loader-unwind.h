/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The unwinder's maps (bpf/unwind.bpf.h), for --unwind=dwarf|auto: the
 * rows and page index of every binary's table, the binaries, each
 * process's executable mappings, and the binaries walks asked a table
 * for. Without a loader_cfg.unwind they keep one entry each.
 */
#ifndef BPFPROF_LOADER_UNWIND_H
#define BPFPROF_LOADER_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "loader.h"

struct loader_unwind_cfg {
	bool fallback;      /* frame pointers where no table exists (auto) */
	unsigned int maps;  /* executable mappings per process */
	unsigned int procs; /* processes */
	unsigned int rows;  /* rows of all binaries */
	unsigned int pages; /* page index entries of all binaries */
	unsigned int bins;  /* binaries */
};

/*
 * The rows and page index (how many entries; 0 when unwinding is off),
 * written @n entries from entry @first (0, or -errno: -ERANGE past the
 * end), and the binary map, mapped into memory (*@nr entries; NULL when
 * unwinding is off). Write a binary's rows and pages before its
 * unwind_bins entry, and that before any process's mapping names it.
 */
size_t loader_unwind__rows(const struct loader *l);
size_t loader_unwind__pages(const struct loader *l);
int loader_unwind__write_rows(struct loader *l, size_t first, const struct unwind_row *rows,
			      size_t n);
int loader_unwind__write_pages(struct loader *l, size_t first, const __u64 *pages, size_t n);
struct unwind_bin *loader_unwind__bins(struct loader *l, size_t *nr);
/*
 * Drop every row the program has cached (unwind_gen): after a binary's
 * table is taken out, before its unwind_bins index can name another.
 */
void loader_unwind__drop_cached_rows(struct loader *l);
/* The clock the program stamps unwind_bin.used with. */
void loader_unwind__set_epoch(struct loader *l, __u32 epoch);
/*
 * Take (and remove) up to @max binaries walks asked a table for
 * (unwind_map.want values) into @ids, *@nr of them. 0 or -errno.
 */
int loader_unwind__take_wanted(struct loader *l, __u32 *ids, size_t max, size_t *nr);
/* A process's mappings: a value of loader_unwind__proc_size() bytes. 0 or -errno. */
size_t loader_unwind__proc_size(const struct loader *l);
int loader_unwind__set_proc(struct loader *l, __u32 tgid, const struct unwind_proc *p);
int loader_unwind__delete_proc(struct loader *l, __u32 tgid);

#endif /* BPFPROF_LOADER_UNWIND_H */
