// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* u64map: set, get and delete, with runs of colliding keys that wrap around. */
#include <stdint.h>

#include "check.h"
#include "u64map.h"

#define N 5000

int main(void)
{
	struct u64map m = { 0 };
	int bad = 0;

	for (uint64_t k = 1; k <= N; k++)
		if (u64map__set(&m, k * 7919, (void *)(uintptr_t)k))
			bad++;
	CHECK(!bad && m.nr == N, "%d keys set", N);
	CHECK(u64map__del(&m, 12345) == NULL, "deleting a key that is not there: NULL");
	bad = 0;
	for (uint64_t k = 1; k <= N; k += 2)
		if (u64map__del(&m, k * 7919) != (void *)(uintptr_t)k)
			bad++;
	CHECK(!bad && m.nr == N / 2, "every odd key deleted, with its value returned");
	bad = 0;
	for (uint64_t k = 1; k <= N; k++) {
		void *want = k % 2 ? NULL : (void *)(uintptr_t)k;

		if (u64map__get(&m, k * 7919) != want)
			bad++;
	}
	CHECK(!bad, "the even keys are all found, the odd ones none (%d wrong)", bad);
	for (uint64_t k = 1; k <= N; k += 2)
		u64map__set(&m, k * 7919, (void *)(uintptr_t)(k + 1));
	bad = 0;
	for (uint64_t k = 1; k <= N; k++)
		if (u64map__get(&m, k * 7919) != (void *)(uintptr_t)(k % 2 ? k + 1 : k))
			bad++;
	CHECK(!bad && m.nr == N, "deleted keys set again");
	/* a full table's worth of deletions and insertions leaves it searchable */
	for (int round = 0; round < 20; round++)
		for (uint64_t k = 1; k <= N; k++)
			if (u64map__del(&m, (k + round * N) * 7919))
				u64map__set(&m, (k + (round + 1) * N) * 7919, (void *)1);
	bad = 0;
	for (uint64_t k = 1; k <= N; k++)
		bad += !u64map__get(&m, (k + 20 * N) * 7919) || u64map__get(&m, k * 7919);
	CHECK(m.nr == N && !bad,
	      "churn keeps the count and finds the last keys");
	u64map__free(&m);
	return check_done();
}
