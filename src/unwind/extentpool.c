// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Free extents of an array: first fit, coalesced on release. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "extentpool.h"

int extent_pool__init(struct extent_pool *p, size_t size)
{
	memset(p, 0, sizeof(*p));
	p->size = size;
	if (!size)
		return 0;
	if (array__grow((void **)&p->free, &p->cap, 1, sizeof(*p->free)))
		return -ENOMEM;
	p->free[0] = (struct extent){ 0, size };
	p->nr = 1;
	return 0;
}

void extent_pool__exit(struct extent_pool *p)
{
	free(p->free);
	memset(p, 0, sizeof(*p));
}

int extent_pool__alloc(struct extent_pool *p, size_t len, size_t *off)
{
	for (size_t i = 0; len && i < p->nr; i++) {
		struct extent *e = &p->free[i];

		if (e->len < len)
			continue;
		*off = e->off;
		e->off += len;
		e->len -= len;
		if (!e->len) {
			memmove(e, e + 1, (p->nr - i - 1) * sizeof(*e));
			p->nr--;
		}
		return 0;
	}
	return -ENOSPC;
}

int extent_pool__release(struct extent_pool *p, size_t off, size_t len)
{
	size_t i = 0;
	struct extent *e;

	if (!len)
		return 0;
	/* the first free extent after the released one */
	while (i < p->nr && p->free[i].off < off)
		i++;
	e = p->free;
	if (i > 0 && e[i - 1].off + e[i - 1].len == off) {
		e[i - 1].len += len;
		if (i < p->nr && off + len == e[i].off) {
			e[i - 1].len += e[i].len;
			memmove(e + i, e + i + 1, (p->nr - i - 1) * sizeof(*e));
			p->nr--;
		}
		return 0;
	}
	if (i < p->nr && off + len == e[i].off) {
		e[i].off = off;
		e[i].len += len;
		return 0;
	}
	if (array__grow((void **)&p->free, &p->cap, p->nr + 1, sizeof(*p->free)))
		return -ENOMEM;
	e = p->free;
	memmove(e + i + 1, e + i, (p->nr - i) * sizeof(*e));
	e[i] = (struct extent){ off, len };
	p->nr++;
	return 0;
}

size_t extent_pool__run_if_released(const struct extent_pool *p, size_t off, size_t len)
{
	size_t run = len;

	for (size_t i = 0; i < p->nr; i++) {
		const struct extent *e = &p->free[i];

		if (e->off + e->len == off || e->off == off + len)
			run += e->len;
	}
	return run;
}

size_t extent_pool__free_total(const struct extent_pool *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->free[i].len;
	return n;
}

size_t extent_pool__largest(const struct extent_pool *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		if (p->free[i].len > n)
			n = p->free[i].len;
	return n;
}
