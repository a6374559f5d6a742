// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* arena: aligned items that never overlap, items longer than a chunk, reuse after free. */
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "check.h"

#define N 20000

int main(void)
{
	struct arena a = { .chunk_size = 4096 };
	unsigned char *items[N];
	size_t lens[N];
	int bad = 0, misaligned = 0;

	for (int round = 0; round < 2; round++) {
		bad = misaligned = 0;
		for (int i = 0; i < N; i++) {
			/* 1..300 bytes, and now and then one longer than a chunk */
			lens[i] = i % 997 == 0 ? 10000 : 1 + (size_t)(i * 7919) % 300;
			items[i] = arena__alloc(&a, lens[i], i % 3 ? 8 : 1);
			if (!items[i]) {
				bad++;
				continue;
			}
			if (i % 3 && (uintptr_t)items[i] % 8)
				misaligned++;
			memset(items[i], i & 0xff, lens[i]);
		}
		for (int i = 0; i < N; i++)
			for (size_t j = 0; items[i] && j < lens[i]; j++)
				if (items[i][j] != (i & 0xff)) {
					bad++;
					break;
				}
		CHECK(!bad, "round %d: %d items of 1 to 10,000 bytes, none overwritten by another (%d bad)",
		      round, N, bad);
		CHECK(!misaligned, "round %d: items asked for 8-byte alignment have it", round);
		arena__free(&a);
		CHECK(!a.chunks && !a.used, "round %d: freed, empty and usable again", round);
	}
	char *s = arena__strdup(&a, "a string");
	CHECK(s && !strcmp(s, "a string"), "a string copied");
	arena__free(&a);
	return check_done();
}
