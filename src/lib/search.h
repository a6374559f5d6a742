/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Binary search in an array of records sorted by a 64-bit key (an address,
 * an offset): the one search the symbolizers, the unwinder and the process
 * table share. The array is searched in place; the key is read through a
 * function, so any record layout will do.
 */
#ifndef BPFPROF_SEARCH_H
#define BPFPROF_SEARCH_H

#include <stddef.h>
#include <stdint.h>

/* The key of one record of the array searched. */
typedef uint64_t (*search_key_fn)(const void *elem);

/*
 * In @nr records of @size bytes at @base, sorted by @key_of (non-decreasing:
 * equal keys may follow each other): the index of the first record whose key
 * is above @key, which is also how many have a key <= @key. 0 when none has,
 * @nr when all have (so: after every record of a key equal to @key).
 */
size_t search__upper_bound(const void *base, size_t nr, size_t size, uint64_t key,
			   search_key_fn key_of);

/*
 * The index of the last record whose key is <= @key (of several with the
 * same key, the last one), or @nr when there is none. "Which record starts
 * at or below this address" when the keys are start addresses.
 */
size_t search__last_le(const void *base, size_t nr, size_t size, uint64_t key,
		       search_key_fn key_of);

#endif /* BPFPROF_SEARCH_H */
