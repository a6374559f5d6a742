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

/* Is slot @home cyclically in (@i, @j]: may the entry at @j not move back to @i? */
static int u64map__between(size_t i, size_t home, size_t j)
{
	return i <= j ? i < home && home <= j : i < home || home <= j;
}

void *u64map__del(struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i;
	void *val;

	if (!m->cap)
		return NULL;
	for (i = u64map__slot(key, m->cap); m->keys[i] != key || !m->vals[i];
	     i = (i + 1) & mask)
		if (!m->vals[i])
			return NULL;
	val = m->vals[i];
	m->vals[i] = NULL;
	m->nr--;
	/* the entries after it in its run move back, so no search stops at the hole */
	for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		if (u64map__between(i, u64map__slot(m->keys[j], m->cap), j))
			continue;
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		m->vals[j] = NULL;
		i = j;
	}
	return val;
}

void u64map__free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->nr = 0;
}
