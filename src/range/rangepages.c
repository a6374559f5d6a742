// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Address ranges -> the per-page entries the BPF range check looks up (pure). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rangepages.h"

/* One (page, range) pair before they are grouped into entries. */
struct page_pair {
	struct range_page_key key;
	const struct range_slot *slot;
};

/* Pages @p touches at @shift. */
static uint64_t place__pages(const struct range_place *p, unsigned int shift)
{
	return range_place__last_page(p, shift) - range_place__first_page(p, shift) + 1;
}

/* The smallest shift at which the places need at most @max pages; -1 if none. */
static int pages__shift(const struct range_place *places, size_t n, size_t max)
{
	for (unsigned int shift = RANGE_PAGE_SHIFT; shift < 64; shift++) {
		uint64_t total = 0;

		for (size_t i = 0; i < n && total <= max; i++)
			total += place__pages(&places[i], shift);
		if (total <= max)
			return shift;
	}
	return -1;
}

static int pair__cmp(const void *a, const void *b)
{
	const struct page_pair *x = a, *y = b;

	if (x->key.tgid != y->key.tgid)
		return x->key.tgid < y->key.tgid ? -1 : 1;
	if (x->key.page != y->key.page)
		return x->key.page < y->key.page ? -1 : 1;
	if (x->slot->id != y->slot->id)
		return x->slot->id < y->slot->id ? -1 : 1;
	return x->slot->start < y->slot->start ? -1 : x->slot->start > y->slot->start;
}

static bool pair__same_page(const struct page_pair *a, const struct page_pair *b)
{
	return a->key.tgid == b->key.tgid && a->key.page == b->key.page;
}

/* Every (page, range) pair, sorted; *@nr of them. NULL on ENOMEM. */
static struct page_pair *pages__pairs(const struct range_place *places, size_t n,
				      unsigned int shift, size_t *nr)
{
	struct page_pair *pairs;
	size_t total = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		total += place__pages(&places[i], shift);
	pairs = malloc((total ? total : 1) * sizeof(*pairs));
	if (!pairs)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct range_place *p = &places[i];

		for (uint64_t pg = p->slot.start >> shift; pg <= (p->slot.end - 1) >> shift;
		     pg++)
			pairs[k++] = (struct page_pair){
				.key = { .tgid = p->tgid, .page = pg },
				.slot = &p->slot,
			};
	}
	if (total)
		qsort(pairs, total, sizeof(*pairs), pair__cmp);
	*nr = total;
	return pairs;
}

/* Group the sorted pairs into entries of rp->slots slots. */
static int pages__group(struct range_pages *rp, const struct page_pair *pairs, size_t n)
{
	size_t entries = 0, run = 0, e = 0, used = 0;

	for (size_t i = 0; i < n; i++) {
		run = i && pair__same_page(&pairs[i - 1], &pairs[i]) ? run + 1 : 1;
		entries += run == 1;
		if (run > rp->slots)
			rp->slots = run;
	}
	rp->keys = calloc(entries ? entries : 1, sizeof(*rp->keys));
	rp->vals = calloc(entries ? entries * rp->slots : 1, sizeof(*rp->vals));
	if (!rp->keys || !rp->vals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (i && pair__same_page(&pairs[i - 1], &pairs[i])) {
			used++;
		} else {
			e = rp->nr++;
			rp->keys[e] = pairs[i].key;
			used = 0;
		}
		rp->vals[e * rp->slots + used] = *pairs[i].slot;
	}
	return 0;
}

int range_pages__build(struct range_pages *rp, const struct range_place *places, size_t n,
		       size_t max_pages)
{
	struct page_pair *pairs;
	size_t nr = 0;
	int shift, err;

	memset(rp, 0, sizeof(*rp));
	rp->slots = 1;
	shift = pages__shift(places, n, max_pages);
	if (shift < 0)
		return -E2BIG;
	rp->shift = shift;
	pairs = pages__pairs(places, n, shift, &nr);
	if (!pairs)
		return -ENOMEM;
	err = pages__group(rp, pairs, nr);
	free(pairs);
	if (err)
		range_pages__free(rp);
	return err;
}

void range_pages__free(struct range_pages *rp)
{
	if (!rp)
		return;
	free(rp->keys);
	free(rp->vals);
	memset(rp, 0, sizeof(*rp));
}

static int slot__cmp(const struct range_slot *a, const struct range_slot *b)
{
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

int range_pages__insert(struct range_slot *slots, unsigned int n, const struct range_slot *slot)
{
	unsigned int used = 0, at;

	while (used < n && slots[used].end)
		used++;
	for (at = 0; at < used && slot__cmp(&slots[at], slot) < 0; at++)
		;
	if (at < used && !slot__cmp(&slots[at], slot) && slots[at].end == slot->end &&
	    slots[at].base == slot->base)
		return 1;
	if (used == n)
		return -ENOSPC;
	memmove(&slots[at + 1], &slots[at], (used - at) * sizeof(*slots));
	slots[at] = *slot;
	return 0;
}
