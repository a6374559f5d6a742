// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>

#include "u64map.h"

static size_t u64map__slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key & (cap - 1);
}

void *u64map__get(const struct u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = u64map__slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->vals[i])
			return NULL;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static void u64map__put(uint64_t *keys, void **vals, size_t cap, uint64_t key, void *val,
			size_t *nr)
{
	size_t i = u64map__slot(key, cap);

	while (vals[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	if (!vals[i])
		(*nr)++;
	keys[i] = key;
	vals[i] = val;
}

static int u64map__grow(struct u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, nr = 0;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			u64map__put(keys, vals, cap, m->keys[i], m->vals[i], &nr);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int u64map__set(struct u64map *m, uint64_t key, void *val)
{
	if ((m->nr + 1) * 4 > m->cap * 3 && u64map__grow(m))
		return -ENOMEM;
	u64map__put(m->keys, m->vals, m->cap, key, val, &m->nr);
	return 0;
}

void u64map__free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}
