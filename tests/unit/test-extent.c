/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* extent: first fit, coalescing on release, against a byte map of the array. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "extentpool.h"

#define SIZE 1000

static unsigned char used[SIZE];

/* The pool agrees with the byte map: the same elements free, extents sorted and coalesced. */
static int consistent(const struct extent_pool *p)
{
	unsigned char f[SIZE] = { 0 };
	size_t end = 0;

	for (size_t i = 0; i < p->nr; i++) {
		const struct extent *e = &p->free[i];

		if (!e->len || e->off + e->len > SIZE || (i && e->off <= end))
			return 0;
		for (size_t k = e->off; k < e->off + e->len; k++)
			f[k] = 1;
		end = e->off + e->len;
	}
	for (size_t k = 0; k < SIZE; k++)
		if (f[k] == used[k])
			return 0;
	return 1;
}

static void mark(size_t off, size_t len, unsigned char v)
{
	for (size_t k = off; k < off + len; k++)
		used[k] = v;
}

int main(void)
{
	struct extent_pool p;
	size_t off, a, b, c;
	size_t offs[64], lens[64] = { 0 };
	unsigned int seed = 1;
	int ok = 1;

	CHECK(extent_pool__init(&p, SIZE) == 0 && p.nr == 1, "init: one free extent");
	CHECK(extent_pool__alloc(&p, 0, &off) == -ENOSPC, "zero elements refused");
	CHECK(extent_pool__alloc(&p, SIZE + 1, &off) == -ENOSPC, "more than all refused");
	CHECK(!extent_pool__alloc(&p, 100, &a) && a == 0, "first fit at 0");
	CHECK(!extent_pool__alloc(&p, 200, &b) && b == 100, "next after it");
	CHECK(!extent_pool__alloc(&p, 300, &c) && c == 300, "and the next");
	mark(0, 600, 1);
	CHECK(consistent(&p), "600 used");
	mark(b, 200, 0);
	CHECK(!extent_pool__release(&p, b, 200) && consistent(&p), "a hole in the middle");
	CHECK(extent_pool__largest(&p) == 400 && extent_pool__free_total(&p) == 600,
	      "largest 400 at the end, 600 free");
	CHECK(!extent_pool__alloc(&p, 150, &off) && off == 100 && (mark(off, 150, 1), consistent(&p)),
	      "first fit takes the hole");
	mark(off, 150, 0);
	CHECK(!extent_pool__release(&p, off, 150) && consistent(&p), "hole back");
	mark(a, 100, 0);
	CHECK(!extent_pool__release(&p, a, 100) && consistent(&p) && p.nr == 2,
	      "merged with the hole after it");
	mark(c, 300, 0);
	CHECK(!extent_pool__release(&p, c, 300) && consistent(&p) && p.nr == 1 &&
		      extent_pool__largest(&p) == SIZE,
	      "merged on both sides: whole again");

	/* random allocations and releases against the byte map */
	for (int round = 0; round < 5000 && ok; round++) {
		int i = rand_r(&seed) % 64;

		if (lens[i]) {
			ok = !extent_pool__release(&p, offs[i], lens[i]);
			mark(offs[i], lens[i], 0);
			lens[i] = 0;
		} else {
			size_t len = 1 + rand_r(&seed) % 60;

			lens[i] = 0;
			if (!extent_pool__alloc(&p, len, &offs[i])) {
				for (size_t k = offs[i]; k < offs[i] + len; k++)
					ok &= !used[k];
				mark(offs[i], len, 1);
				lens[i] = len;
			} else {
				ok &= extent_pool__largest(&p) < len;
			}
		}
		ok &= consistent(&p);
	}
	CHECK(ok, "5000 random allocations and releases keep the pool exact");
	extent_pool__exit(&p);
	return check_done();
}
