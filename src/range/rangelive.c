// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The BPF range pages while sampling runs: merged, dropped per process. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "loader-range.h"
#include "rangelive.h"
#include "u64map.h"

/* The pages one process has entries for. */
struct proc_pages {
	uint64_t *pages;
	size_t nr, cap;
};

struct range_live {
	struct loader *l;
	unsigned int shift, slots;
	struct range_slot *buf; /* one entry's slots */
	struct u64map procs;    /* tgid -> struct proc_pages (user processes only) */
	uint64_t missed;
};

struct range_live *range_live__new(struct loader *l, unsigned int shift, unsigned int slots)
{
	struct range_live *rl = calloc(1, sizeof(*rl));

	if (!rl)
		return NULL;
	rl->l = l;
	rl->shift = shift;
	rl->slots = slots;
	rl->buf = calloc(slots, sizeof(*rl->buf));
	if (!rl->buf) {
		free(rl);
		return NULL;
	}
	return rl;
}

void range_live__free(struct range_live *rl)
{
	if (!rl)
		return;
	for (size_t i = 0; i < rl->procs.cap; i++) {
		struct proc_pages *pp = rl->procs.vals[i];

		if (pp) {
			free(pp->pages);
			free(pp);
		}
	}
	u64map__free(&rl->procs);
	free(rl->buf);
	free(rl);
}

uint64_t range_live__missed(const struct range_live *rl)
{
	return rl->missed;
}

/* Remember that @tgid has an entry for @page (the kernel's are never dropped). */
static int range_live__note(struct range_live *rl, uint32_t tgid, uint64_t page)
{
	struct proc_pages *pp;

	if (!tgid)
		return 0;
	pp = u64map__get(&rl->procs, tgid);
	if (!pp) {
		pp = calloc(1, sizeof(*pp));
		if (!pp || u64map__set(&rl->procs, tgid, pp)) {
			free(pp);
			return -ENOMEM;
		}
	}
	if (array__grow((void **)&pp->pages, &pp->cap, pp->nr + 1, sizeof(*pp->pages)))
		return -ENOMEM;
	pp->pages[pp->nr++] = page;
	return 0;
}

int range_live__store(struct range_live *rl, const struct range_pages *rp)
{
	for (size_t i = 0; i < rp->nr; i++) {
		int err = loader_range__set_page(rl->l, &rp->keys[i],
						 &rp->vals[i * rp->slots]);

		err = err ?: range_live__note(rl, rp->keys[i].tgid, rp->keys[i].page);
		if (err)
			return err;
	}
	return 0;
}

/* One place on one page: read the entry, insert, write back. */
static int range_live__add_page(struct range_live *rl, const struct range_page_key *key,
				const struct range_slot *slot)
{
	int err = loader_range__get_page(rl->l, key, rl->buf);
	bool fresh = err == -ENOENT;

	if (fresh)
		memset(rl->buf, 0, rl->slots * sizeof(*rl->buf));
	else if (err)
		return err;
	err = range_pages__insert(rl->buf, rl->slots, slot);
	if (err)
		return err > 0 ? 0 : err;
	err = loader_range__set_page(rl->l, key, rl->buf);
	if (!err && fresh)
		err = range_live__note(rl, key->tgid, key->page);
	return err;
}

int range_live__add(struct range_live *rl, const struct range_place *places, size_t n)
{
	int missed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct range_place *p = &places[i];
		uint64_t last = range_place__last_page(p, rl->shift);
		bool whole = true;

		for (uint64_t pg = range_place__first_page(p, rl->shift); pg <= last; pg++) {
			struct range_page_key key = { .tgid = p->tgid, .page = pg };
			int err = range_live__add_page(rl, &key, &p->slot);

			if (err == -ENOSPC || err == -E2BIG)
				whole = false; /* slots or map entries used up */
			else if (err)
				return err;
		}
		missed += !whole;
	}
	rl->missed += missed;
	return missed;
}

void range_live__drop(struct range_live *rl, pid_t tgid)
{
	struct proc_pages *pp = tgid ? u64map__get(&rl->procs, tgid) : NULL;

	if (!pp)
		return;
	for (size_t i = 0; i < pp->nr; i++) {
		struct range_page_key key = { .tgid = tgid, .page = pp->pages[i] };

		loader_range__delete_page(rl->l, &key);
	}
	pp->nr = 0;
}
