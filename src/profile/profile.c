// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hash.h"
#include "profile.h"

static bool profile__same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static uint32_t profile__hash32(uint64_t h)
{
	return (uint32_t)(h ^ h >> 32);
}

typedef bool index_same_fn(const void *ctx, uint32_t idx);

/* 1 + the index of the item of hash @h32 that @same takes for the one sought; 0: none. */
static uint32_t index__find(const struct profile_index *x, uint32_t h32, index_same_fn *same,
			    const void *ctx)
{
	uint64_t v;

	if (!x->cap)
		return 0;
	for (size_t pos = h32 & (x->cap - 1); (v = x->slots[pos]); pos = (pos + 1) & (x->cap - 1)) {
		if ((uint32_t)(v >> 32) == h32 && same(ctx, (uint32_t)v - 1))
			return (uint32_t)v;
	}
	return 0;
}

static void index__put(uint64_t *slots, size_t cap, uint64_t v)
{
	size_t pos = (v >> 32) & (cap - 1);

	while (slots[pos])
		pos = (pos + 1) & (cap - 1);
	slots[pos] = v;
}

/* New item @idx (below UINT32_MAX) has hash @h32. 0 or -ENOMEM. */
static int index__add(struct profile_index *x, uint32_t h32, uint32_t idx)
{
	if ((x->nr + 1) * 4 > x->cap * 3) {
		size_t cap = x->cap ? x->cap * 2 : 64;
		uint64_t *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < x->cap; i++) {
			if (x->slots[i])
				index__put(slots, cap, x->slots[i]);
		}
		free(x->slots);
		x->slots = slots;
		x->cap = cap;
	}
	index__put(x->slots, x->cap, (uint64_t)h32 << 32 | (idx + 1));
	x->nr++;
	return 0;
}

static void index__free(struct profile_index *x)
{
	free(x->slots);
	*x = (struct profile_index){ 0 };
}

static uint64_t frame__hash(const struct frame *f)
{
	uint64_t h = hash__mix(HASH_BASIS, (uint64_t)f->kind << 32 | f->line);

	h = hash__mix(h, (uint64_t)f->start_line << 32 | f->bin);

	return hash__str(hash__str(hash__str(h, f->name), f->file), f->system_name);
}

static bool frame__same(const void *a, const void *b)
{
	const struct frame *x = a, *y = b;

	return x->kind == y->kind && x->line == y->line && x->bin == y->bin &&
	       x->start_line == y->start_line && profile__same_str(x->name, y->name) &&
	       profile__same_str(x->file, y->file) &&
	       profile__same_str(x->system_name, y->system_name);
}

/* An array of distinct items, one of them found by its hash and @same. */
struct intern {
	struct profile_index *index;
	void **items;
	size_t *nr, *cap, size;
	bool (*same)(const void *a, const void *b);
	/* NULL, or: make the new item @item (in place) the profile's own */
	int (*own)(struct profile *p, void *item);
	struct profile *p;
};

struct intern_sought {
	const struct intern *in;
	const void *item;
};

static bool intern__same(const void *ctx, uint32_t idx)
{
	const struct intern_sought *q = ctx;

	return q->in->same((const char *)*q->in->items + idx * q->in->size, q->item);
}

/* The index of @item (of hash @h) in @in, appended when it is new. */
static int intern__id(const struct intern *in, uint64_t h, const void *item, uint32_t *id)
{
	const struct intern_sought q = { in, item };
	uint32_t h32 = profile__hash32(h), found = index__find(in->index, h32, intern__same, &q);
	void *slot;
	int err;

	if (found) {
		*id = found - 1;
		return 0;
	}
	if (*in->nr >= UINT32_MAX)
		return -E2BIG;
	if (array__grow(in->items, in->cap, *in->nr + 1, in->size))
		return -ENOMEM;
	slot = (char *)*in->items + *in->nr * in->size;
	memcpy(slot, item, in->size);
	err = in->own ? in->own(in->p, slot) : 0;
	err = err ?: index__add(in->index, h32, *in->nr);
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
	err = intern__id(&in, hash__str(HASH_BASIS, *s), s, &id);
	if (!err)
		*s = p->strs[id];
	return err;
}

/* A new frame's names and file: the profile's, so they outlive the symbolizer's. */
static int frame__own(struct profile *p, void *item)
{
	struct frame *f = item;

	return profile__str(p, &f->name) ?: profile__str(p, &f->file) ?:
	       profile__str(p, &f->system_name);
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

static bool bin__same(const void *a, const void *b)
{
	const struct profile_bin *x = a, *y = b;

	return profile__same_str(x->path, y->path) && profile__same_str(x->build_id, y->build_id);
}

/* A new binary's path and build-id: the profile's. */
static int bin__own(struct profile *p, void *item)
{
	struct profile_bin *b = item;

	return profile__str(p, &b->path) ?: profile__str(p, &b->build_id);
}

int profile__bin(struct profile *p, const char *path, const char *build_id, uint32_t *id)
{
	const struct intern in = { &p->by_bin, (void **)&p->bins, &p->nr_bins, &p->cap_bins,
				   sizeof(struct profile_bin), bin__same, bin__own, p };
	const struct profile_bin b = { path, build_id };
	int err;

	err = intern__id(&in, hash__str(hash__str(HASH_BASIS, path), build_id), &b, id);
	if (!err)
		++*id;
	return err;
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
	h = hash__str(hash__mix(HASH_BASIS, (uint64_t)pr.tgid << 32 | pr.tid),
			     pr.comm);
	return intern__id(&in, h, &pr, id);
}

/* The stack sought: the frame ids at the end of the profile's array. */
struct stack_sought {
	const struct profile *p;
	uint32_t proc, nr, event;
};

static bool stack__same(const void *ctx, uint32_t idx)
{
	const struct stack_sought *q = ctx;
	const struct profile_stack *st = &q->p->stacks[idx];

	return st->proc == q->proc && st->nr == q->nr && st->event == q->event &&
	       !memcmp(&q->p->ids[st->at], &q->p->ids[q->p->nr_ids], q->nr * sizeof(uint32_t));
}

int profile__add(struct profile *p, const struct profile_sample *s)
{
	uint32_t stack;

	return profile__add_at(p, s, &stack);
}

int profile__add_at(struct profile *p, const struct profile_sample *s, uint32_t *stack)
{
	struct stack_sought q = { p, 0, s->nr, s->event };
	uint32_t h32, found, *ids;
	uint64_t h;
	int err;

	if (p->nr_ids + s->nr > UINT32_MAX)
		return -E2BIG;
	err = profile__proc_id(p, s, &q.proc);
	if (err)
		return err;
	/* the frame ids go where a new stack's would: kept only if it is new */
	if (array__grow((void **)&p->ids, &p->cap_ids, p->nr_ids + s->nr, sizeof(*p->ids)))
		return -ENOMEM;
	ids = &p->ids[p->nr_ids];
	h = hash__mix(HASH_BASIS, (uint64_t)s->event << 32 | q.proc);
	for (uint32_t i = 0; i < s->nr; i++) {
		struct frame f = s->frames[i];

		if (p->drop_lines) {
			f.file = NULL;
			f.line = 0;
		}
		if (!p->keep_bins) {
			f.start_line = 0;
			f.system_name = NULL;
		}
		err = profile__frame_id(p, &f, &ids[i]);
		if (err)
			return err;
		h = hash__mix(h, ids[i]);
	}
	h32 = profile__hash32(h);
	found = index__find(&p->by_stack, h32, stack__same, &q);
	if (found) {
		p->stacks[found - 1].count += s->count;
		*stack = found - 1;
		return 0;
	}
	if (p->nr >= UINT32_MAX)
		return -E2BIG;
	if (array__grow((void **)&p->stacks, &p->cap, p->nr + 1, sizeof(*p->stacks)))
		return -ENOMEM;
	err = index__add(&p->by_stack, h32, p->nr);
	if (err)
		return err;
	p->stacks[p->nr++] = (struct profile_stack){ .count = s->count, .at = p->nr_ids,
						     .nr = s->nr, .proc = q.proc,
						     .event = s->event };
	p->nr_ids += s->nr;
	*stack = p->nr - 1;
	return 0;
}

uint64_t profile__samples(const struct profile *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		n += p->stacks[i].count;
	return n;
}

uint64_t profile__event_samples(const struct profile *p, uint32_t event)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->nr; i++)
		if (p->stacks[i].event == event)
			n += p->stacks[i].count;
	return n;
}

uint64_t profile__lost(const struct profile *p)
{
	return p->stats[STAT_DROP_STACKS_FULL] + p->stats[STAT_DROP_COUNTS_FULL] +
	       p->stats[STAT_DROP_SCRATCH];
}

static size_t index__memory(const struct profile_index *x)
{
	return x->cap * sizeof(*x->slots);
}

size_t profile__memory(const struct profile *p)
{
	return p->cap * sizeof(*p->stacks) + p->cap_frames * sizeof(*p->frames) +
	       p->cap_procs * sizeof(*p->procs) + p->cap_ids * sizeof(*p->ids) +
	       p->cap_bins * sizeof(*p->bins) + index__memory(&p->by_bin) +
	       p->cap_strs * sizeof(*p->strs) + p->names.used + index__memory(&p->by_stack) +
	       index__memory(&p->by_frame) + index__memory(&p->by_proc) +
	       index__memory(&p->by_str) + p->cap_base * sizeof(*p->base);
}

void profile__free(struct profile *p)
{
	free(p->stacks);
	free(p->frames);
	free(p->procs);
	free(p->ids);
	free(p->bins);
	index__free(&p->by_bin);
	p->bins = NULL;
	p->nr_bins = p->cap_bins = 0;
	free(p->strs);
	arena__free(&p->names);
	index__free(&p->by_str);
	index__free(&p->by_stack);
	index__free(&p->by_frame);
	index__free(&p->by_proc);
	p->stacks = NULL;
	p->frames = NULL;
	p->procs = NULL;
	p->ids = NULL;
	p->nr = p->cap = p->nr_frames = p->cap_frames = 0;
	p->nr_procs = p->cap_procs = p->nr_ids = p->cap_ids = 0;
	p->strs = NULL;
	p->nr_strs = p->cap_strs = 0;
	free(p->base);
	p->base = NULL;
	p->cap_base = 0;
}
