// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "profile.h"

#define PROFILE_HASH_BASIS 0xcbf29ce484222325ULL

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

static bool profile__same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* 1 + the first item of hash @h; 0: none. */
static size_t chain__first(const struct profile_chain *c, uint64_t h)
{
	return (size_t)(uintptr_t)u64map__get(&c->first, h);
}

/* Item @idx (below UINT32_MAX) has hash @h. 0 or -ENOMEM. */
static int chain__add(struct profile_chain *c, uint64_t h, size_t idx)
{
	size_t first = chain__first(c, h);

	if (array__grow((void **)&c->next, &c->cap, idx + 1, sizeof(*c->next)) ||
	    u64map__set(&c->first, h, (void *)(uintptr_t)(idx + 1)))
		return -ENOMEM;
	c->next[idx] = first;
	return 0;
}

static void chain__free(struct profile_chain *c)
{
	u64map__free(&c->first);
	free(c->next);
	*c = (struct profile_chain){ 0 };
}

static uint64_t frame__hash(const struct frame *f)
{
	uint64_t h = profile__mix(PROFILE_HASH_BASIS, (uint64_t)f->kind << 32 | f->line);

	return profile__mix_str(profile__mix_str(h, f->name), f->file);
}

static bool frame__same(const void *a, const void *b)
{
	const struct frame *x = a, *y = b;

	return x->kind == y->kind && x->line == y->line && profile__same_str(x->name, y->name) &&
	       profile__same_str(x->file, y->file);
}

/* An array of distinct items, one of them found by its hash and @same. */
struct intern {
	struct profile_chain *chain;
	void **items;
	size_t *nr, *cap, size;
	bool (*same)(const void *a, const void *b);
	/* NULL, or: make the new item @item (in place) the profile's own */
	int (*own)(struct profile *p, void *item);
	struct profile *p;
};

/* The index of @item (of hash @h) in @in, appended when it is new. */
static int intern__id(const struct intern *in, uint64_t h, const void *item, uint32_t *id)
{
	const struct profile_chain *c = in->chain;
	void *slot;
	int err;

	for (size_t i = chain__first(c, h); i; i = c->next[i - 1]) {
		if (in->same((const char *)*in->items + (i - 1) * in->size, item)) {
			*id = i - 1;
			return 0;
		}
	}
	if (*in->nr >= UINT32_MAX)
		return -E2BIG;
	if (array__grow(in->items, in->cap, *in->nr + 1, in->size))
		return -ENOMEM;
	slot = (char *)*in->items + *in->nr * in->size;
	memcpy(slot, item, in->size);
	err = in->own ? in->own(in->p, slot) : 0;
	err = err ?: chain__add(in->chain, h, *in->nr);
	if (err)
		return err;
	*id = (*in->nr)++;
	return 0;
}

static bool str__same(const void *a, const void *b)
{
	return !strcmp(*(char *const *)a, *(char *const *)b);
}

/* A copy of the new string *@item in @p's chunks, in place of it. */
static int str__own(struct profile *p, void *item)
{
	const char **s = item;
	char *copy;

	copy = arena__strdup(&p->names, *s);
	if (!copy)
		return -ENOMEM;
	*s = copy;
	return 0;
}

/* The profile's own copy of @s (NULL: NULL), made once per distinct string. */
static int profile__str(struct profile *p, const char **s)
{
	const struct intern in = { &p->by_str, (void **)&p->strs, &p->nr_strs, &p->cap_strs,
				   sizeof(*p->strs), str__same, str__own, p };
	uint32_t id;
	int err;

	if (!*s)
		return 0;
	err = intern__id(&in, profile__mix_str(PROFILE_HASH_BASIS, *s), s, &id);
	if (!err)
		*s = p->strs[id];
	return err;
}

/* A new frame's name and file: the profile's, so it outlives the symbolizer's. */
static int frame__own(struct profile *p, void *item)
{
	struct frame *f = item;

	return profile__str(p, &f->name) ?: profile__str(p, &f->file);
}

static bool proc__same(const void *a, const void *b)
{
	return !memcmp(a, b, sizeof(struct profile_proc));
}

/* The id of frame @f, a new one when it is not in @p yet. */
static int profile__frame_id(struct profile *p, const struct frame *f, uint32_t *id)
{
	const struct intern in = { &p->by_frame, (void **)&p->frames, &p->nr_frames,
				   &p->cap_frames, sizeof(*f), frame__same, frame__own, p };

	return intern__id(&in, frame__hash(f), f, id);
}

/* The id of @s's process, a new one when it is not in @p yet. */
static int profile__proc_id(struct profile *p, const struct profile_sample *s, uint32_t *id)
{
	const struct intern in = { &p->by_proc, (void **)&p->procs, &p->nr_procs,
				   &p->cap_procs, sizeof(struct profile_proc), proc__same };
	struct profile_proc pr = { .tgid = s->tgid, .tid = s->tid };
	uint64_t h;

	if (s->comm)
		strncpy(pr.comm, s->comm, sizeof(pr.comm) - 1);
	h = profile__mix_str(profile__mix(PROFILE_HASH_BASIS, (uint64_t)pr.tgid << 32 | pr.tid),
			     pr.comm);
	return intern__id(&in, h, &pr, id);
}

int profile__add(struct profile *p, const struct profile_sample *s)
{
	uint64_t h;
	uint32_t proc, *ids;
	int err;

	err = profile__proc_id(p, s, &proc);
	if (err)
		return err;
	/* the frame ids go where a new stack's would: kept only if it is new */
	if (array__grow((void **)&p->ids, &p->cap_ids, p->nr_ids + s->nr, sizeof(*p->ids)))
		return -ENOMEM;
	ids = &p->ids[p->nr_ids];
	h = profile__mix(PROFILE_HASH_BASIS, proc);
	for (uint32_t i = 0; i < s->nr; i++) {
		err = profile__frame_id(p, &s->frames[i], &ids[i]);
		if (err)
			return err;
		h = profile__mix(h, ids[i]);
	}
	for (size_t i = chain__first(&p->by_stack, h); i; i = p->by_stack.next[i - 1]) {
		struct profile_stack *st = &p->stacks[i - 1];

		if (st->proc == proc && st->nr == s->nr &&
		    !memcmp(&p->ids[st->at], ids, s->nr * sizeof(*ids))) {
			st->count += s->count;
			return 0;
		}
	}
	if (p->nr >= UINT32_MAX)
		return -E2BIG;
	if (array__grow((void **)&p->stacks, &p->cap, p->nr + 1, sizeof(*p->stacks)))
		return -ENOMEM;
	err = chain__add(&p->by_stack, h, p->nr);
	if (err)
		return err;
	p->stacks[p->nr++] = (struct profile_stack){ .count = s->count, .at = p->nr_ids,
						     .nr = s->nr, .proc = proc };
	p->nr_ids += s->nr;
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

static size_t chain__memory(const struct profile_chain *c)
{
	return c->first.cap * (sizeof(*c->first.keys) + sizeof(*c->first.vals)) +
	       c->cap * sizeof(*c->next);
}

size_t profile__memory(const struct profile *p)
{
	return p->cap * sizeof(*p->stacks) + p->cap_frames * sizeof(*p->frames) +
	       p->cap_procs * sizeof(*p->procs) + p->cap_ids * sizeof(*p->ids) +
	       p->cap_strs * sizeof(*p->strs) + p->names.used + chain__memory(&p->by_stack) +
	       chain__memory(&p->by_frame) + chain__memory(&p->by_proc) +
	       chain__memory(&p->by_str);
}

void profile__free(struct profile *p)
{
	free(p->stacks);
	free(p->frames);
	free(p->procs);
	free(p->ids);
	free(p->strs);
	arena__free(&p->names);
	chain__free(&p->by_str);
	chain__free(&p->by_stack);
	chain__free(&p->by_frame);
	chain__free(&p->by_proc);
	p->stacks = NULL;
	p->frames = NULL;
	p->procs = NULL;
	p->ids = NULL;
	p->nr = p->cap = p->nr_frames = p->cap_frames = 0;
	p->nr_procs = p->cap_procs = p->nr_ids = p->cap_ids = 0;
	p->strs = NULL;
	p->nr_strs = p->cap_strs = 0;
}
