// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "profile.h"

int profile__add(struct profile *p, const struct profile_stack *st)
{
	struct profile_stack *dst;

	if (array__grow((void **)&p->stacks, &p->cap, p->nr + 1, sizeof(*p->stacks)))
		return -ENOMEM;
	dst = &p->stacks[p->nr];
	*dst = *st;
	dst->frames = malloc((st->nr ? st->nr : 1) * sizeof(*dst->frames));
	if (!dst->frames)
		return -ENOMEM;
	if (st->nr)
		memcpy(dst->frames, st->frames, st->nr * sizeof(*dst->frames));
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
	p->stacks = NULL;
	p->nr = p->cap = 0;
}
