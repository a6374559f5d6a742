// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The table of functions of a profile, self and total samples (toptable.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toptable.h"

static int top_table__cmp(const void *a, const void *b)
{
	const struct top_table_row *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Each row's self and total samples, and all samples. 0 or -ENOMEM. */
static int top_table__count(struct top_table *t, const struct profile *p)
{
	uint32_t n = t->rank.nr_ranks;
	size_t ne = p->nr_events > 1 ? p->nr_events : 0;
	/* per row: 1 + the last stack that counted it in the row's total */
	size_t *seen = calloc(n ? n : 1, sizeof(*seen));

	t->rows = calloc(n ? n : 1, sizeof(*t->rows));
	if (ne) {
		t->nr_events = ne;
		t->event_self = calloc((n ? n : 1) * ne, sizeof(*t->event_self));
		t->event_samples = calloc(ne, sizeof(*t->event_samples));
	}
	if (!seen || !t->rows || (ne && (!t->event_self || !t->event_samples))) {
		free(seen);
		return -ENOMEM;
	}
	t->nr = n;
	for (uint32_t r = 0; r < n; r++)
		t->rows[r].rank = r;
	for (size_t s = 0; s < p->nr; s++) {
		const struct profile_stack *st = &p->stacks[s];

		if (ne && st->event < ne) {
			t->event_samples[st->event] += st->count;
			if (st->nr)
				t->event_self[t->rank.id[p->ids[st->at + st->nr - 1]] * ne +
					      st->event] += st->count;
		}
		if (ne && st->event) /* the rows' self and total: the first event's */
			continue;
		for (uint32_t i = 0; i < st->nr; i++) {
			uint32_t r = t->rank.id[p->ids[st->at + i]];

			if (seen[r] != s + 1) {
				seen[r] = s + 1;
				t->rows[r].total += st->count;
			}
		}
		if (st->nr)
			t->rows[t->rank.id[p->ids[st->at + st->nr - 1]]].self += st->count;
		t->samples += st->count;
	}
	free(seen);
	qsort(t->rows, n, sizeof(*t->rows), top_table__cmp);
	return 0;
}

int top_table__build(struct top_table *t, const struct profile *p,
		    const struct output_opts *o)
{
	int err;

	memset(t, 0, sizeof(*t));
	err = frame_text__build(&t->text, p, o, frame_text__put_escaped, "");
	err = err ?: frame_text__rank(&t->rank, &t->text, p, false);
	return err ?: top_table__count(t, p);
}

const char *top_table__name(const struct top_table *t, size_t i, size_t *len)
{
	uint32_t f = t->rank.rep[t->rows[i].rank];

	*len = t->text.frame[f + 1] - t->text.frame[f];
	return t->text.buf + t->text.frame[f];
}

uint64_t top_table__event_self(const struct top_table *t, size_t i, size_t event)
{
	return t->event_self[(size_t)t->rows[i].rank * t->nr_events + event];
}

double top_table__percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

void top_table__free(struct top_table *t)
{
	frame_text__free(&t->text);
	frame_text__free_rank(&t->rank);
	free(t->rows);
	free(t->event_self);
	free(t->event_samples);
	t->rows = NULL;
	t->event_self = t->event_samples = NULL;
	t->nr = t->nr_events = 0;
}
