/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Many small allocations that live and die together, carved out of a few
 * large chunks: no malloc per item, no header per item, and nothing left
 * scattered through the heap when they all go at once (a chunk of 128 KiB
 * or more is a mapping of its own in glibc, given back when freed).
 */
#ifndef BPFPROF_ARENA_H
#define BPFPROF_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	size_t chunk_size; /* bytes a chunk holds; 0: ARENA_CHUNK */
	struct arena_chunk *chunks;
	size_t used;       /* bytes handed out, in every chunk */
};

#define ARENA_CHUNK 262144

/*
 * @len bytes aligned to @align (a power of two up to 16), living until
 * arena__free; an item longer than a chunk gets one of its own. NULL when
 * memory runs out.
 */
void *arena__alloc(struct arena *a, size_t len, size_t align);
/* A copy of the string @s, or NULL. */
char *arena__strdup(struct arena *a, const char *s);
/* Free every item; the arena is empty and usable again. */
void arena__free(struct arena *a);

#endif /* BPFPROF_ARENA_H */
