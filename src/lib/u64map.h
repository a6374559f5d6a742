/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A u64 -> pointer hash map (open addressing, linear probing): per-run caches. */
#ifndef BPFPROF_U64MAP_H
#define BPFPROF_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	void **vals; /* NULL = empty slot; values are never NULL */
	size_t cap, nr;
};

void *u64map__get(const struct u64map *m, uint64_t key);
/* Insert or replace; @val must not be NULL. 0 or -ENOMEM. */
int u64map__set(struct u64map *m, uint64_t key, void *val);
/* Remove @key: its value, or NULL when it was not there. */
void *u64map__del(struct u64map *m, uint64_t key);
void u64map__free(struct u64map *m);

#endif /* BPFPROF_U64MAP_H */
