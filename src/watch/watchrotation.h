/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch` with more locations than debug registers: which
 * location each breakpoint slot watches, the turns, and how long each
 * location was watched (pure: the mode moves the events). A turn gives
 * the slots the next nr_slots locations, round robin; a slot whose
 * location is among them keeps it, the others take the rest, so no
 * location is on two slots and every location gets the same share of the
 * run, a turn in every nr_locs / nr_slots.
 */
#ifndef BPFPROF_WATCHROTATION_H
#define BPFPROF_WATCHROTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct watch_rotation {
	size_t nr_locs;
	unsigned int nr_slots;
	size_t *at;          /* [slot]: the location it watches */
	uint64_t *since;     /* [slot]: since when (ns) */
	bool *on;            /* [location]: a slot watches it */
	uint64_t *watched;   /* [location]: ns watched in the turns it ended */
	size_t next;         /* the first location of the next turn */
	uint64_t turns;
};

/*
 * @nr_slots slots (1 to @nr_locs) over @nr_locs locations, slot i on
 * location i since @now. 0 or -EINVAL, -ENOMEM; watch_rotation__free()
 * either way.
 */
int watch_rotation__init(struct watch_rotation *r, size_t nr_locs, unsigned int nr_slots,
			 uint64_t now);
void watch_rotation__free(struct watch_rotation *r);

/*
 * The next turn: @to[slot] (room for nr_slots) the location each slot is
 * to watch, its own when it keeps it. Then watch_rotation__move() each
 * slot that changes.
 */
void watch_rotation__plan(struct watch_rotation *r, size_t *to);

/* Slot @slot watches location @loc from @now on; its location until now gets the time. */
void watch_rotation__move(struct watch_rotation *r, unsigned int slot, size_t loc,
			  uint64_t now);

/* Watching ended at @now: every slot's turn so far is counted. */
void watch_rotation__stop(struct watch_rotation *r, uint64_t now);

/* How long location @loc was watched (ns), once stopped. */
uint64_t watch_rotation__watched_ns(const struct watch_rotation *r, size_t loc);

#endif /* BPFPROF_WATCHROTATION_H */
