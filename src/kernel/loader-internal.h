/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Inside the loader, for loader.c and its map families (loader-*.c) only:
 * the skeleton, the state each family keeps, what loader.c calls of each
 * family around the load, and the helpers they share.
 */
#ifndef BPFPROF_LOADER_INTERNAL_H
#define BPFPROF_LOADER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "loader-range.h"
#include "loader-unwind.h"
#include "loader-watch.h"
#include "loader.h"
#include "record.skel.h"

struct loader {
	struct record_bpf *skel;
	struct bpf_link *fork_link, *exec_link;
	size_t stack_size;
	unsigned int max_stacks; /* counts entries of a stack set; stacks get twice that */
	int ncpus;
	struct {
		size_t page_size; /* value size of range_pages */
	} range;
	struct {
		bool on;                 /* the unwind maps are in use */
		size_t proc_size;        /* value size of unwind_procs */
		struct unwind_bin *bins; /* unwind_bins, mmap'd */
		size_t bins_len;         /* its mapped bytes */
	} unwind;
};

/* Nonzero, as a map's max_entries must be. */
static inline unsigned int loader__at_least_one(unsigned int n)
{
	return n ? n : 1;
}

/*
 * Call @fn for every entry of the map of @ksize-byte keys and __u64
 * values @fd, in batches; @take: each batch deleted as it is read. 0,
 * -errno, or @fn's error.
 */
int loader__counts_batch(int fd, size_t ksize, bool take, loader_count_fn fn, void *ctx);

/*
 * Before load: a family's rodata and map sizes from its part of the
 * configuration (@cfg NULL: not in use, one entry each). 0 or -errno.
 */
int loader_range__prepare(struct loader *l, const struct loader_range_cfg *cfg);
int loader_unwind__prepare(struct loader *l, const struct loader_unwind_cfg *cfg);
int loader_watch__prepare(struct loader *l, const struct loader_watch_cfg *cfg);
/* After load: the unwinder's binary map mapped into memory. 0 or -errno. */
int loader_unwind__loaded(struct loader *l);
/* loader__free: what loader_unwind__loaded mapped. */
void loader_unwind__free(struct loader *l);

#endif /* BPFPROF_LOADER_INTERNAL_H */
