/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* rangepages: the per-page entries the BPF range check looks up. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "check.h"
#include "rangepages.h"

#define PAGE 0x1000ull

static struct range_place place(uint32_t tgid, uint64_t start, uint64_t end, uint32_t id)
{
	return (struct range_place){
		.tgid = tgid,
		.slot = { .start = start, .end = end, .base = start - 0x100, .id = id },
	};
}

/* The entry for {tgid, page}, or NULL. */
static const struct range_slot *entry(const struct range_pages *rp, uint32_t tgid,
				      uint64_t page)
{
	for (size_t i = 0; i < rp->nr; i++)
		if (rp->keys[i].tgid == tgid && rp->keys[i].page == page)
			return &rp->vals[i * rp->slots];
	return NULL;
}

static void test_one_page(void)
{
	struct range_place p = place(7, 0x401010, 0x401080, 3);
	struct range_pages rp;
	const struct range_slot *s;

	CHECK(range_pages__build(&rp, &p, 1, 16) == 0, "one range in one page");
	CHECK(rp.shift == 12 && rp.slots == 1 && rp.nr == 1, "shift 12, one slot, one entry");
	s = entry(&rp, 7, 0x401);
	CHECK(s && s->start == 0x401010 && s->end == 0x401080 && s->id == 3 &&
		      s->base == 0x400f10,
	      "the slot is the range, for tgid 7, page 0x401");
	range_pages__free(&rp);
}

static void test_spanning(void)
{
	struct range_place p[] = {
		place(0, 0xffffffff81000ff0ull, 0xffffffff81002010ull, 0),
		place(0, 0xffffffff81001100ull, 0xffffffff81001200ull, 1),
		place(5, 0xffffffff81001100ull, 0xffffffff81001200ull, 2),
	};
	struct range_pages rp;
	const struct range_slot *s;

	CHECK(range_pages__build(&rp, p, 3, 100) == 0, "overlapping ranges over pages");
	CHECK(rp.shift == 12, "4 KiB pages");
	CHECK(rp.nr == 4, "pages 0x81000, 0x81001, 0x81002 for the kernel, 0x81001 for 5 (%zu)",
	      rp.nr);
	CHECK(rp.slots == 2, "two ranges share page 0x81001: two slots");
	s = entry(&rp, 0, 0xffffffff81001ull);
	CHECK(s && s[0].id == 0 && s[1].id == 1, "page 0x81001: ranges 0 then 1");
	s = entry(&rp, 0, 0xffffffff81000ull);
	CHECK(s && s[0].id == 0 && s[1].end == 0, "page 0x81000: range 0, an unused slot");
	s = entry(&rp, 0, 0xffffffff81002ull);
	CHECK(s && s[0].id == 0 && s[1].end == 0, "page 0x81002: range 0 (its last byte)");
	s = entry(&rp, 5, 0xffffffff81001ull);
	CHECK(s && s[0].id == 2 && s[1].end == 0, "tgid 5 has its own entry");
	CHECK(!entry(&rp, 0, 0xffffffff81003ull), "no entry past the end");
	for (size_t i = 1; i < rp.nr; i++)
		CHECK(rp.keys[i - 1].tgid < rp.keys[i].tgid ||
			      (rp.keys[i - 1].tgid == rp.keys[i].tgid &&
			       rp.keys[i - 1].page < rp.keys[i].page),
		      "entries sorted (%zu)", i);
	range_pages__free(&rp);
}

static void test_big(void)
{
	/* 64 MiB: 16384 pages of 4 KiB; at most 100 entries needs 1 MiB pages */
	struct range_place p[] = {
		place(1, 0x10000000, 0x14000000, 0),
		place(1, 0x10000010, 0x10000020, 1),
	};
	struct range_pages rp;

	CHECK(range_pages__build(&rp, p, 2, 100) == 0, "a 64 MiB range");
	CHECK(rp.shift == 20, "pages grow to 1 MiB (shift %u)", rp.shift);
	CHECK(rp.nr == 64 && rp.slots == 2, "64 entries (%zu), two slots", rp.nr);
	range_pages__free(&rp);
	CHECK(range_pages__build(&rp, p, 2, 0) == -E2BIG, "no room at all: -E2BIG");
	CHECK(range_pages__build(&rp, NULL, 0, 0) == 0 && rp.nr == 0 && rp.slots == 1,
	      "no ranges: no entries, one slot");
	range_pages__free(&rp);
	range_pages__free(NULL);
}

/* Ranges placed while sampling runs are merged into a page's slots. */
static void test_insert(void)
{
	struct range_slot slots[3] = { 0 };
	struct range_place a = place(9, 0x7f0010, 0x7f0040, 2), b = place(9, 0x7f0100, 0x7f0180, 0),
			   c = place(9, 0x7f0200, 0x7f0280, 1), d = place(9, 0x7f0300, 0x7f0380, 3);

	CHECK(range_pages__insert(slots, 3, &a.slot) == 0, "into an empty entry");
	CHECK(range_pages__insert(slots, 3, &b.slot) == 0 && slots[0].id == 0 &&
		      slots[1].id == 2,
	      "a lower range id goes first");
	CHECK(range_pages__insert(slots, 3, &a.slot) == 1 && slots[2].end == 0,
	      "the same place again: already there, nothing added");
	CHECK(range_pages__insert(slots, 3, &c.slot) == 0 && slots[0].id == 0 &&
		      slots[1].id == 1 && slots[2].id == 2,
	      "ordered by id: 0, 1, 2");
	CHECK(range_pages__insert(slots, 3, &d.slot) == -ENOSPC && slots[2].id == 2,
	      "every slot used: -ENOSPC, the entry unchanged");
	CHECK(range_place__first_page(&a, 12) == 0x7f0 && range_place__last_page(&a, 12) == 0x7f0,
	      "a place's pages");
}

int main(void)
{
	test_insert();
	test_one_page();
	test_spanning();
	test_big();
	return check_done();
}
