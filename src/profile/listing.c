// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>

#include "listing.h"

uint64_t listing__target_samples(const struct listing *ls)
{
	const uint64_t *st = ls->stats;

	return st[STAT_SEEN] - st[STAT_IDLE] - st[STAT_FILTERED];
}

static int row_ptr__cmp_samples(const void *a, const void *b)
{
	const struct listing_row *x = *(const struct listing_row *const *)a;
	const struct listing_row *y = *(const struct listing_row *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

const struct listing_row **listing__range_rows(const struct listing_range *lr,
					       enum listing_sort sort)
{
	const struct listing_row **rows = malloc((lr->nr_rows ? lr->nr_rows : 1) * sizeof(*rows));

	if (!rows)
		return NULL;
	for (size_t i = 0; i < lr->nr_rows; i++)
		rows[i] = &lr->rows[i];
	if (sort == SORT_SAMPLES)
		qsort(rows, lr->nr_rows, sizeof(*rows), row_ptr__cmp_samples);
	return rows;
}

void listing__free(struct listing *ls)
{
	for (size_t i = 0; i < ls->nr; i++) {
		struct listing_range *lr = &ls->ranges[i];

		for (size_t j = 0; j < lr->nr_rows; j++)
			free(lr->rows[j].text);
		free(lr->rows);
		free(lr->srcs);
		free(lr->procs);
	}
	free(ls->ranges);
	ls->ranges = NULL;
	ls->nr = 0;
}
