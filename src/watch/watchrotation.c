// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `bpfprof watch`: locations taking turns on the breakpoint slots, and their watched time. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "watchrotation.h"

int watch_rotation__init(struct watch_rotation *r, size_t nr_locs, unsigned int nr_slots,
			 uint64_t now)
{
	memset(r, 0, sizeof(*r));
	if (!nr_slots || nr_slots > nr_locs)
		return -EINVAL;
	r->at = calloc(nr_slots, sizeof(*r->at));
	r->since = calloc(nr_slots, sizeof(*r->since));
	r->on = calloc(nr_locs, sizeof(*r->on));
	r->watched = calloc(nr_locs, sizeof(*r->watched));
	if (!r->at || !r->since || !r->on || !r->watched)
		return -ENOMEM;
	r->nr_locs = nr_locs;
	r->nr_slots = nr_slots;
	for (unsigned int s = 0; s < nr_slots; s++) {
		r->at[s] = s;
		r->since[s] = now;
		r->on[s] = true;
	}
	r->next = nr_slots % nr_locs;
	return 0;
}

void watch_rotation__free(struct watch_rotation *r)
{
	free(r->at);
	free(r->since);
	free(r->on);
	free(r->watched);
	memset(r, 0, sizeof(*r));
}

/* Is @loc among the nr_slots locations from r->next on (round robin)? */
static bool watch_rotation__in_turn(const struct watch_rotation *r, size_t loc)
{
	return (loc + r->nr_locs - r->next) % r->nr_locs < r->nr_slots;
}

void watch_rotation__plan(struct watch_rotation *r, size_t *to)
{
	size_t loc = r->next;

	for (unsigned int s = 0; s < r->nr_slots; s++)
		to[s] = watch_rotation__in_turn(r, r->at[s]) ? r->at[s] : SIZE_MAX;
	/* the slots that move take the turn's locations no slot keeps, in order */
	for (unsigned int s = 0; s < r->nr_slots; s++) {
		if (to[s] != SIZE_MAX)
			continue;
		while (r->on[loc])
			loc = (loc + 1) % r->nr_locs;
		to[s] = loc;
		loc = (loc + 1) % r->nr_locs;
	}
	r->next = (r->next + r->nr_slots) % r->nr_locs;
	r->turns++;
}

void watch_rotation__move(struct watch_rotation *r, unsigned int slot, size_t loc,
			  uint64_t now)
{
	size_t old = r->at[slot];

	if (old == loc)
		return;
	r->watched[old] += now > r->since[slot] ? now - r->since[slot] : 0;
	r->on[old] = false;
	r->on[loc] = true;
	r->at[slot] = loc;
	r->since[slot] = now;
}

void watch_rotation__stop(struct watch_rotation *r, uint64_t now)
{
	for (unsigned int s = 0; s < r->nr_slots; s++) {
		r->watched[r->at[s]] += now > r->since[s] ? now - r->since[s] : 0;
		r->since[s] = now;
	}
}

uint64_t watch_rotation__watched_ns(const struct watch_rotation *r, size_t loc)
{
	return loc < r->nr_locs ? r->watched[loc] : 0;
}
