// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Binary search in an array of records sorted by a 64-bit key. */
#include "search.h"

size_t search__upper_bound(const void *base, size_t nr, size_t size, uint64_t key,
			   search_key_fn key_of)
{
	const char *p = base;
	size_t lo = 0, hi = nr;

	/* [0, lo) have keys <= @key, [hi, nr) above it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_of(p + mid * size) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t search__last_le(const void *base, size_t nr, size_t size, uint64_t key,
		       search_key_fn key_of)
{
	size_t n = search__upper_bound(base, nr, size, key, key_of);

	return n ? n - 1 : nr;
}
