/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Lists of ids given on the command line: pids, tids, CPUs. */
#ifndef BPFPROF_IDLIST_H
#define BPFPROF_IDLIST_H

#include <stddef.h>

/* A growable list of non-negative integers (pids, tids, CPUs). */
struct idlist {
	int *ids;
	size_t nr;
};

/*
 * Append the ids of a comma-separated list ("12,15") to @list. With
 * @ranges, "a-b" adds a..b inclusive ("0,2-3"). Each id must be in
 * [0, max]. Duplicates are dropped; the list is kept sorted.
 * Returns 0, -EINVAL (syntax: empty item, reversed range, junk), -ERANGE
 * or -ENOMEM. On error @list is unchanged.
 */
int idlist__parse(struct idlist *list, const char *s, int max, int ranges);
int idlist__has(const struct idlist *list, int id);
void idlist__free(struct idlist *list);

#endif /* BPFPROF_IDLIST_H */
