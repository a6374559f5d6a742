/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Free space of a fixed-size array, as sorted, coalesced extents: first
 * fit on allocation, merged with its neighbours on release. The unwinder
 * places binaries' rows and page indexes in its BPF arrays with it, so a
 * table evicted leaves room another can take.
 */
#ifndef BPFPROF_EXTENTPOOL_H
#define BPFPROF_EXTENTPOOL_H

#include <stddef.h>

struct extent {
	size_t off, len;
};

struct extent_pool {
	struct extent *free; /* sorted by off, none adjacent or empty */
	size_t nr, cap;
	size_t size;         /* elements managed: [0, size) */
};

/* All of [0, @size) free. 0 or -ENOMEM. */
int extent_pool__init(struct extent_pool *p, size_t size);
void extent_pool__exit(struct extent_pool *p);
/* The first free extent of at least @len (> 0) elements: its start in *@off. 0 or -ENOSPC. */
int extent_pool__alloc(struct extent_pool *p, size_t len, size_t *off);
/* Give back [@off, @off + @len), which must have been allocated. 0 or -ENOMEM. */
int extent_pool__release(struct extent_pool *p, size_t off, size_t len);
/* The free run [@off, @off + @len) would be part of, were it released (its length). */
size_t extent_pool__run_if_released(const struct extent_pool *p, size_t off, size_t len);
/* Elements free in all, and in the largest extent. */
size_t extent_pool__free_total(const struct extent_pool *p);
size_t extent_pool__largest(const struct extent_pool *p);

#endif /* BPFPROF_EXTENTPOOL_H */
