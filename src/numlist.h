/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Pure parsing of numbers and lists given on the command line. */
#ifndef BPFPROF_NUMLIST_H
#define BPFPROF_NUMLIST_H

#include <stddef.h>

/* A growable list of non-negative integers (pids, tids, CPUs). */
struct idlist {
	int *ids;
	size_t nr;
};

/*
 * Parse a whole decimal unsigned integer in [min, max]: no sign, no
 * trailing garbage, no empty string. Returns 0, -EINVAL (not a number)
 * or -ERANGE (outside [min, max]).
 */
int parse_ull(const char *s, unsigned long long min, unsigned long long max,
	      unsigned long long *out);

/*
 * Parse a duration in seconds: a positive decimal number ("10", "0.5").
 * Returns 0, -EINVAL or -ERANGE (zero, negative, or above a day * 365).
 */
int parse_seconds(const char *s, double *out);

/*
 * Parse a size in bytes: decimal digits with an optional binary suffix K,
 * M or G (KiB, MiB, GiB), in [min, max]. Returns 0, -EINVAL or -ERANGE.
 */
int parse_size(const char *s, unsigned long long min, unsigned long long max,
	       unsigned long long *out);

/* The value of hex digit @c, or -1. */
int hex_digit(char c);

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

#endif /* BPFPROF_NUMLIST_H */
