/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/watch/watchrotation.c: the turns of more locations than
 * breakpoint slots, and the time each location was watched.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "watchrotation.h"

/*
 * @turns turns of @slots slots over @locs locations, one every 10 ns,
 * each move checked: no location on two slots, each slot on a location
 * of the turn. Then every location must have been watched alike.
 */
static void turns(size_t locs, unsigned int slots, unsigned int nr_turns)
{
	struct watch_rotation r;
	size_t *to = calloc(slots, sizeof(*to));
	bool twice = false, outside = false, stayed_ok = true;
	uint64_t now = 1000, min = UINT64_MAX, max = 0, total = 0;
	int err = watch_rotation__init(&r, locs, slots, now);

	CHECK(err == 0 && to, "%zu locations on %u slots: init", locs, slots);
	if (err || !to) {
		watch_rotation__free(&r);
		free(to);
		return;
	}
	for (unsigned int t = 0; t < nr_turns; t++) {
		size_t first = r.next;

		watch_rotation__plan(&r, to);
		now += 10;
		for (unsigned int s = 0; s < slots; s++) {
			/* the turn's locations: first ... first + slots - 1, round robin */
			if ((to[s] + locs - first) % locs >= slots)
				outside = true;
			for (unsigned int o = 0; o < s; o++)
				twice |= to[o] == to[s];
			/* a slot keeps its location exactly when it is in the turn */
			if ((to[s] == r.at[s]) != ((r.at[s] + locs - first) % locs < slots))
				stayed_ok = false;
		}
		for (unsigned int s = 0; s < slots; s++)
			watch_rotation__move(&r, s, to[s], now);
		for (unsigned int s = 0; s < slots; s++)
			for (unsigned int o = 0; o < s; o++)
				twice |= r.at[o] == r.at[s];
	}
	now += 10;
	watch_rotation__stop(&r, now);
	for (size_t l = 0; l < locs; l++) {
		uint64_t w = watch_rotation__watched_ns(&r, l);

		min = w < min ? w : min;
		max = w > max ? w : max;
		total += w;
	}
	CHECK(!twice, "%zu on %u: no location on two slots at once", locs, slots);
	CHECK(!outside, "%zu on %u: each turn watches the next %u locations", locs, slots, slots);
	CHECK(stayed_ok, "%zu on %u: a slot keeps its location when the turn has it, else moves", locs, slots);
	/* slots × the whole time, shared out */
	CHECK(total == (uint64_t)slots * (now - 1000), "%zu on %u: the watched times add up "
	      "to the slots' time (%llu)", locs, slots, (unsigned long long)total);
	CHECK(r.turns == nr_turns, "%zu on %u: %u turns", locs, slots, nr_turns);
	if (!((nr_turns + 1) * (uint64_t)slots % locs)) {
		CHECK(min == max, "%zu on %u: after whole rounds every location was watched "
		      "alike (%llu to %llu ns)", locs, slots, (unsigned long long)min,
		      (unsigned long long)max);
	}
	watch_rotation__free(&r);
	free(to);
}

int main(void)
{
	struct watch_rotation r;
	size_t to[4];

	/* 16 on 4: four turns go round once, every slot moves each turn */
	turns(16, 4, 3);
	turns(16, 4, 399);
	/* fewer than twice the slots: the turns overlap, and some slots keep theirs */
	turns(5, 4, 4);
	turns(6, 4, 2);
	turns(7, 3, 6);
	/* others held a register: 3 slots over 16 */
	turns(16, 3, 47);
	turns(1000, 4, 249);

	/* the first turn of 5 on 4 is 4, 0, 1, 2: slot 3 moves to 4, the others stay */
	watch_rotation__init(&r, 5, 4, 0);
	watch_rotation__plan(&r, to);
	CHECK(to[0] == 0 && to[1] == 1 && to[2] == 2 && to[3] == 4,
	      "5 on 4: the first turn moves slot 3 to location 4 (%zu %zu %zu %zu)", to[0],
	      to[1], to[2], to[3]);
	watch_rotation__move(&r, 3, 4, 30);
	watch_rotation__stop(&r, 50);
	CHECK(watch_rotation__watched_ns(&r, 3) == 30 && watch_rotation__watched_ns(&r, 4) == 20 &&
	      watch_rotation__watched_ns(&r, 0) == 50,
	      "5 on 4: location 3 watched 30 ns, 4 from then on 20, 0 the whole 50");
	/* the next turn is 3, 4, 0, 1: slot 2 (location 2) takes 3 */
	watch_rotation__plan(&r, to);
	CHECK(to[0] == 0 && to[1] == 1 && to[2] == 3 && to[3] == 4,
	      "5 on 4: the second turn moves slot 2 to location 3 (%zu %zu %zu %zu)", to[0],
	      to[1], to[2], to[3]);
	CHECK(watch_rotation__watched_ns(&r, 99) == 0, "a location out of range: 0");
	watch_rotation__free(&r);
	watch_rotation__free(&r);

	CHECK(watch_rotation__init(&r, 3, 4, 0) == -EINVAL, "more slots than locations: -EINVAL");
	watch_rotation__free(&r);
	CHECK(watch_rotation__init(&r, 3, 0, 0) == -EINVAL, "no slot: -EINVAL");
	watch_rotation__free(&r);
	return check_done();
}
