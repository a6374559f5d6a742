// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdlib.h>
#include <string.h>

#include "listing.h"

uint64_t listing__target_samples(const struct listing *ls)
{
	const uint64_t *st = ls->stats;

	return st[STAT_SEEN] - st[STAT_IDLE] - st[STAT_FILTERED];
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
