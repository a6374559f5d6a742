// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"

int nearest__init(struct nearest *n, const char *want, size_t k)
{
	memset(n, 0, sizeof(*n));
	n->want = want;
	n->want_len = strlen(want);
	n->k = k;
	n->names = calloc(k ? k : 1, sizeof(*n->names));
	n->score = calloc(k ? k : 1, sizeof(*n->score));
	n->row = calloc(n->want_len + 1, sizeof(*n->row));
	return n->names && n->score && n->row ? 0 : -ENOMEM;
}

void nearest__free(struct nearest *n)
{
	free(n->names);
	free(n->score);
	free(n->row);
	memset(n, 0, sizeof(*n));
}

/* Levenshtein distance of @name to the wanted name, with one row. */
static size_t nearest__distance(struct nearest *n, const char *name)
{
	size_t *row = n->row, m = n->want_len;

	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; name[i - 1]; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j], best = diag + (name[i - 1] != n->want[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[m];
}

/*
 * Lower is nearer: a name holding the wanted one scores its extra length;
 * others their distance past any such name (SIZE_MAX / 2 above). SIZE_MAX:
 * too far to be offered.
 */
static size_t nearest__score(struct nearest *n, const char *name)
{
	size_t len = strlen(name), d, limit = n->want_len / 3 ? n->want_len / 3 : 1;

	if (!strcmp(name, n->want))
		return SIZE_MAX; /* the name itself is no suggestion */
	if (n->want_len && strstr(name, n->want))
		return len - n->want_len;
	if ((len > n->want_len ? len - n->want_len : n->want_len - len) > limit)
		return SIZE_MAX; /* the distance is at least the difference in length */
	d = nearest__distance(n, name);
	return d <= limit ? SIZE_MAX / 2 + d : SIZE_MAX;
}

void nearest__offer(struct nearest *n, const char *name)
{
	size_t s = nearest__score(n, name), at;

	if (s == SIZE_MAX || !n->k)
		return;
	for (at = 0; at < n->nr; at++) {
		int c = strcmp(name, n->names[at]);

		if (!c)
			return; /* offered already (an alias in two tables) */
		if (s < n->score[at] || (s == n->score[at] && c < 0))
			break;
	}
	for (size_t i = at + 1; i < n->nr; i++)
		if (!strcmp(name, n->names[i]))
			return;
	if (at >= n->k)
		return;
	if (n->nr < n->k)
		n->nr++;
	memmove(&n->names[at + 1], &n->names[at], (n->nr - 1 - at) * sizeof(*n->names));
	memmove(&n->score[at + 1], &n->score[at], (n->nr - 1 - at) * sizeof(*n->score));
	n->names[at] = name;
	n->score[at] = s;
}
