// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stackstore.h"

/* A stored stack; those whose ids share their low half are chained. */
struct stored {
	struct stored *next;
	__u64 hi;
	struct stack_trace st; /* st.nr frames follow */
};

static struct stored *stack_store__find(const struct stack_store *ss,
					const struct stack_id *id)
{
	struct stored *s = u64map__get(&ss->ids, id->lo);

	while (s && s->hi != id->hi)
		s = s->next;
	return s;
}

int stack_store__add(struct stack_store *ss, const struct stack_id *id,
		     const struct stack_trace *st)
{
	struct stored *first, *s;

	if (stack_store__find(ss, id))
		return 0;
	s = arena__alloc(&ss->stacks, sizeof(*s) + st->nr * sizeof(st->ips[0]), _Alignof(struct stored));
	if (!s)
		return -ENOMEM;
	first = u64map__get(&ss->ids, id->lo);
	s->next = first;
	s->hi = id->hi;
	memcpy(&s->st, st, sizeof(*st) + st->nr * sizeof(st->ips[0]));
	if (u64map__set(&ss->ids, id->lo, s))
		return -ENOMEM; /* its room goes with the others' */
	ss->nr++;
	return 0;
}

const struct stack_trace *stack_store__get(const struct stack_store *ss,
					   const struct stack_id *id)
{
	struct stored *s = stack_store__find(ss, id);

	return s ? &s->st : NULL;
}

void stack_store__clear(struct stack_store *ss)
{
	arena__free(&ss->stacks);
	u64map__free(&ss->ids);
	ss->nr = 0;
}
