/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/lib/search.c: the binary search against a linear scan,
 * on records whose key is not their first field (the stride is the record's).
 */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "search.h"

struct rec {
	uint32_t tag;
	uint64_t key;
	char pad[3];
};

static uint64_t rec__key(const void *r)
{
	return ((const struct rec *)r)->key;
}

static size_t upper(const struct rec *v, size_t nr, uint64_t key)
{
	return search__upper_bound(v, nr, sizeof(*v), key, rec__key);
}

static size_t last_le(const struct rec *v, size_t nr, uint64_t key)
{
	return search__last_le(v, nr, sizeof(*v), key, rec__key);
}

static void test_empty(void)
{
	CHECK(upper(NULL, 0, 0) == 0 && upper(NULL, 0, UINT64_MAX) == 0,
	      "empty: no record is <= any key (and the array is not read)");
	CHECK(last_le(NULL, 0, 5) == 0, "empty: last_le is nr (0)");
}

static void test_distinct(void)
{
	static const struct rec v[] = { { 0, 10, "" }, { 1, 20, "" }, { 2, 30, "" } };

	CHECK(upper(v, 3, 9) == 0 && last_le(v, 3, 9) == 3, "before the first: none");
	CHECK(upper(v, 3, 0) == 0 && last_le(v, 3, 0) == 3, "key 0: none");
	CHECK(upper(v, 3, 10) == 1 && last_le(v, 3, 10) == 0, "exact hit on the first");
	CHECK(upper(v, 3, 20) == 2 && last_le(v, 3, 20) == 1, "exact hit in the middle");
	CHECK(upper(v, 3, 30) == 3 && last_le(v, 3, 30) == 2, "exact hit on the last");
	CHECK(upper(v, 3, 15) == 1 && last_le(v, 3, 15) == 0, "between: the one below");
	CHECK(upper(v, 3, 29) == 2 && last_le(v, 3, 29) == 1, "just below the last");
	CHECK(upper(v, 3, 31) == 3 && last_le(v, 3, 31) == 2, "after the last: the last");
	CHECK(upper(v, 3, UINT64_MAX) == 3 && last_le(v, 3, UINT64_MAX) == 2,
	      "UINT64_MAX: the last");
	CHECK(upper(v, 1, 10) == 1 && last_le(v, 1, 10) == 0 && last_le(v, 1, 9) == 1,
	      "one record: hit, or none below it");
}

static void test_duplicates(void)
{
	static const struct rec v[] = { { 0, 5, "" },  { 1, 10, "" }, { 2, 10, "" },
					{ 3, 10, "" }, { 4, 20, "" }, { 5, 20, "" } };

	CHECK(upper(v, 6, 10) == 4, "duplicates: upper_bound is past the last of them");
	CHECK(last_le(v, 6, 10) == 3 && v[3].tag == 3, "duplicates: last_le is the last of them");
	CHECK(last_le(v, 6, 15) == 3, "duplicates: between, the last of the ones below");
	CHECK(last_le(v, 6, 20) == 5 && last_le(v, 6, 99) == 5,
	      "duplicates at the end: the last of them");
	CHECK(upper(v, 6, 9) == 1 && last_le(v, 6, 9) == 0, "below the duplicates: the one before");
	CHECK(upper(v, 6, 4) == 0 && last_le(v, 6, 4) == 6, "before all: none");
}

/* Every key from 0 to past the end, on random sorted arrays of every size to 64. */
static void test_like_linear(void)
{
	struct rec v[64];
	int bad = 0, runs = 0;

	srand(12);
	for (size_t nr = 0; nr <= 64; nr++) {
		for (int round = 0; round < 8; round++) {
			uint64_t k = 0;

			for (size_t i = 0; i < nr; i++) {
				k += rand() % 3; /* steps of 0 make duplicates */
				v[i] = (struct rec){ .tag = (uint32_t)i, .key = k };
			}
			for (uint64_t key = 0; key <= k + 1; key++) {
				size_t n = 0;

				while (n < nr && v[n].key <= key)
					n++;
				if (upper(v, nr, key) != n || last_le(v, nr, key) != (n ? n - 1 : nr))
					bad++;
				runs++;
			}
		}
	}
	CHECK(!bad, "as a linear scan finds, on %d searches (%d differ)", runs, bad);
}

int main(void)
{
	test_empty();
	test_distinct();
	test_duplicates();
	test_like_linear();
	return check_done();
}
