// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	_Alignas(16) char buf[];
};

void *arena__alloc(struct arena *a, size_t len, size_t align)
{
	size_t chunk = a->chunk_size ? a->chunk_size : ARENA_CHUNK;
	struct arena_chunk *c = a->chunks;
	size_t at = c ? (c->used + align - 1) & ~(align - 1) : 0;

	if (!c || at > c->size || c->size - at < len) {
		size_t size = len > chunk ? len : chunk;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		*c = (struct arena_chunk){ .next = a->chunks, .size = size };
		/* a chunk of its own goes behind the one being filled */
		if (len > chunk && a->chunks) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			a->chunks = c;
		}
		at = 0;
	}
	c->used = at + len;
	a->used += len;
	return c->buf + at;
}

char *arena__strdup(struct arena *a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *copy = arena__alloc(a, len, 1);

	if (copy)
		memcpy(copy, s, len);
	return copy;
}

void arena__free(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *next = a->chunks->next;

		free(a->chunks);
		a->chunks = next;
	}
	a->used = 0;
}
