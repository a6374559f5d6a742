// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "profile.h"

static uint64_t profile__mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL; /* FNV-1a's prime, a 64-bit step per value */
	return h ^ (h >> 29);
}

static uint64_t profile__mix_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = profile__mix(h, (unsigned char)*s);
	return profile__mix(h, s ? 1 : 2);
}

static uint64_t profile__hash(const struct profile_stack *st)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = profile__mix(h, (uint64_t)st->tgid << 32 | st->tid);
	h = profile__mix_str(h, st->comm);
	for (uint32_t i = 0; i < st->nr; i++) {
		const struct frame *f = &st->frames[i];

		h = profile__mix(h, (uint64_t)f->kind << 32 | f->line);
		h = profile__mix_str(h, f->name);
		h = profile__mix_str(h, f->file);
	}
	return h;
}

static bool profile__same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool profile__same(const struct profile_stack *a, const struct profile_stack *b)
{
	if (a->tgid != b->tgid || a->tid != b->tid || a->nr != b->nr ||
	    strncmp(a->comm, b->comm, sizeof(a->comm)))
		return false;
	for (uint32_t i = 0; i < a->nr; i++) {
		const struct frame *x = &a->frames[i], *y = &b->frames[i];

		if (x->kind != y->kind || x->line != y->line || !profile__same_str(x->name, y->name) ||
		    !profile__same_str(x->file, y->file))
			return false;
	}
	return true;
}

int profile__add(struct profile *p, const struct profile_stack *st)
{
	uint64_t h = profile__hash(st);
	size_t first = (size_t)(uintptr_t)u64map__get(&p->index, h);
	struct profile_stack *dst;

	for (size_t i = first; i; i = p->stacks[i - 1].next) {
		if (profile__same(&p->stacks[i - 1], st)) {
			p->stacks[i - 1].count += st->count;
			return 0;
		}
	}
	if (array__grow((void **)&p->stacks, &p->cap, p->nr + 1, sizeof(*p->stacks)))
		return -ENOMEM;
	dst = &p->stacks[p->nr];
	*dst = *st;
	dst->frames = malloc((st->nr ? st->nr : 1) * sizeof(*dst->frames));
	if (!dst->frames)
		return -ENOMEM;
	if (st->nr)
		memcpy(dst->frames, st->frames, st->nr * sizeof(*dst->frames));
	dst->next = first;
	if (u64map__set(&p->index, h, (void *)(uintptr_t)(p->nr + 1))) {
		free(dst->frames);
		return -ENOMEM;
	}
	p->nr++;
	return 0;
}

uint64_t profile__samples(const struct profile *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->stacks[i].count;
	return n;
}

uint64_t profile__lost(const struct profile *p)
{
	return p->stats[STAT_DROP_STACKS_FULL] + p->stats[STAT_DROP_COUNTS_FULL] +
	       p->stats[STAT_DROP_SCRATCH];
}

void profile__free(struct profile *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	u64map__free(&p->index);
	p->stacks = NULL;
	p->nr = p->cap = 0;
}
