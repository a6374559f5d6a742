/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The range maps of the program (bpf/range.bpf.h), for bpfprof range: the
 * ranges by page, and the counts per (range, address) and per (range,
 * process). Without a loader_cfg.range they keep one entry each.
 */
#ifndef BPFPROF_LOADER_RANGE_H
#define BPFPROF_LOADER_RANGE_H

#include <stdbool.h>

#include "loader.h"

struct loader_range_cfg {
	unsigned int slots;    /* ranges per page entry at most */
	unsigned int shift;    /* page = address >> shift */
	unsigned int pages;    /* page entries */
	unsigned int addrs;    /* distinct (range, address) counted at most */
	unsigned int hit_keys; /* (range, process) pairs counted at most */
	bool stacks;           /* --stacks: in-range samples get stacks too */
};

/*
 * The ranges of one page: slots slots (unused ones zeroed, last). Set
 * (also while sampling: the program sees the old or the new value), read
 * (-ENOENT: no entry), delete. 0 or -errno.
 */
int loader_range__set_page(struct loader *l, const struct range_page_key *key,
			   const struct range_slot *slots);
int loader_range__get_page(struct loader *l, const struct range_page_key *key,
			   struct range_slot *slots);
int loader_range__delete_page(struct loader *l, const struct range_page_key *key);
/*
 * Call @fn for every range_counts entry (key: struct range_addr_key), every
 * range_hits entry (key: struct range_hit_key), in batches. 0, -errno, or
 * @fn's error.
 */
int loader_range__for_each_count(struct loader *l, loader_count_fn fn, void *ctx);
int loader_range__for_each_hit(struct loader *l, loader_count_fn fn, void *ctx);

#endif /* BPFPROF_LOADER_RANGE_H */
