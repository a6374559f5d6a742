/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The page layout of `bpfprof range`'s address ranges, as the BPF program
 * looks them up (bpf/bpfprof.h: range_pages): every page a range touches
 * in a process (or in the kernel) gets an entry holding the ranges that
 * overlap it, so that the check of a sample is one hash lookup and a loop
 * over a few slots. Pure: no BPF, no files.
 */
#ifndef BPFPROF_RANGEPAGES_H
#define BPFPROF_RANGEPAGES_H

#include <stddef.h>
#include <stdint.h>

#include "bpfprof.h"

/* One range in one process (tgid 0: the kernel), as absolute addresses. */
struct range_place {
	uint32_t tgid;
	struct range_slot slot; /* start < end */
};

struct range_pages {
	unsigned int shift;         /* page = address >> shift */
	unsigned int slots;         /* slots per entry: the most ranges on one page */
	struct range_page_key *keys; /* nr entries, sorted by tgid then page */
	struct range_slot *vals;    /* nr * slots: each entry's slots, unused ones zeroed */
	size_t nr;
};

/*
 * Lay out the @n places in pages of the smallest size (shift from
 * RANGE_PAGE_SHIFT up) that needs at most @max_pages entries, so that a
 * huge range costs bigger pages rather than memory. Within an entry, the
 * slots are ordered by range id, then start. 0, -ENOMEM, or -E2BIG when
 * not even the largest pages fit in @max_pages. @rp is overwritten.
 */
int range_pages__build(struct range_pages *rp, const struct range_place *places, size_t n,
		       size_t max_pages);
void range_pages__free(struct range_pages *rp);

/* The first and last page a place covers at @shift. */
static inline uint64_t range_place__first_page(const struct range_place *p, unsigned int shift)
{
	return p->slot.start >> shift;
}

static inline uint64_t range_place__last_page(const struct range_place *p, unsigned int shift)
{
	return (p->slot.end - 1) >> shift;
}

/*
 * Put @slot among a page entry's @n slots (the used ones first, ordered by
 * range id then start; unused ones zeroed). 0: added, 1: it was there
 * already, -ENOSPC: every slot is used.
 */
int range_pages__insert(struct range_slot *slots, unsigned int n, const struct range_slot *slot);

#endif /* BPFPROF_RANGEPAGES_H */
