/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The names nearest to one that was not found ("did you mean"): offered
 * one at a time, the @k best are kept. A name that holds the wanted one
 * (memcpy in __memcpy_chk) comes before any other, the shorter first;
 * else the nearest by edit distance (insertions, deletions, substitutions),
 * if within a third of the wanted name's length (at least 1). Ties go to
 * the name first in strcmp order, so the result does not depend on the
 * order of the offers.
 */
#ifndef BPFPROF_NEAREST_H
#define BPFPROF_NEAREST_H

#include <stddef.h>

struct nearest {
	const char *want;
	size_t want_len;
	size_t k;
	const char **names; /* the best so far, best first; they must outlive it */
	size_t *score;
	size_t nr;
	size_t *row; /* the edit distance's one row */
};

/* 0 or -ENOMEM (nearest__free either way). */
int nearest__init(struct nearest *n, const char *want, size_t k);
void nearest__offer(struct nearest *n, const char *name);
void nearest__free(struct nearest *n);

#endif /* BPFPROF_NEAREST_H */
