/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Pure parsing of numbers and lists given on the command line. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "numlist.h"

#define SECONDS_MAX (365.0 * 24 * 60 * 60)

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Parse the leading digits of @s into @out. Sets *@end past them.
 * Returns 0, -EINVAL (no digit) or -ERANGE (does not fit).
 */
static int parse_digits(const char *s, const char **end, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *p = s;

	*end = s;
	if (!is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		unsigned int d = *p - '0';

		if (v > (ULLONG_MAX - d) / 10) {
			while (is_digit(*p))
				p++;
			*end = p;
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	*end = p;
	*out = v;
	return 0;
}

int parse_ull(const char *s, unsigned long long min, unsigned long long max,
	      unsigned long long *out)
{
	unsigned long long v = 0;
	const char *end;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_digits(s, &end, &v);
	if (*end)
		return -EINVAL;
	if (err)
		return err;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size(const char *s, unsigned long long min, unsigned long long max,
	       unsigned long long *out)
{
	static const char units[] = "KMG";
	unsigned long long v = 0;
	const char *end, *u;
	int err, shift = 0;

	if (!s)
		return -EINVAL;
	err = parse_digits(s, &end, &v);
	if (*end) {
		u = strchr(units, *end);
		if (!u || !*u || end[1])
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
	}
	if (err)
		return err;
	if (v > (~0ull >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* "[-]digits[.digits]" or "[-].digits": plain decimal, no exponent, hex, inf. */
static int is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '-')
		s++;
	for (; is_digit(*s); s++)
		digits++;
	if (*s == '.')
		for (s++; is_digit(*s); s++)
			digits++;
	return digits > 0 && *s == '\0';
}

int parse_seconds(const char *s, double *out)
{
	double v;

	if (!s || !is_decimal(s))
		return -EINVAL;
	v = strtod(s, NULL);
	if (!(v > 0) || v > SECONDS_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

/* A growable array of ids, sorted and deduplicated at the end. */
struct idvec {
	int *ids;
	size_t nr, alloc;
};

static int idvec__push(struct idvec *v, int id)
{
	if (array__grow((void **)&v->ids, &v->alloc, v->nr + 1, sizeof(*v->ids)))
		return -ENOMEM;
	v->ids[v->nr++] = id;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void idvec__sort_unique(struct idvec *v)
{
	size_t i, n = 0;

	if (!v->nr)
		return;
	qsort(v->ids, v->nr, sizeof(*v->ids), cmp_int);
	for (i = 1; i < v->nr; i++)
		if (v->ids[i] != v->ids[n])
			v->ids[++n] = v->ids[i];
	v->nr = n + 1;
}

/*
 * One item, "N" or (with @ranges) "A-B"; leaves *@s at ',' or the end.
 * Syntax is checked before range, so "1x" is -EINVAL whatever @max is.
 */
static int parse_item(struct idvec *v, const char **s, int max, int ranges)
{
	unsigned long long lo = 0, hi, id;
	const char *p = *s;
	int err_lo, err_hi;

	err_lo = parse_digits(p, &p, &lo);
	if (err_lo == -EINVAL)
		return -EINVAL;
	hi = lo;
	err_hi = err_lo;
	if (*p == '-') {
		if (!ranges)
			return -EINVAL;
		err_hi = parse_digits(p + 1, &p, &hi);
		if (err_hi == -EINVAL)
			return -EINVAL;
	}
	if (*p && *p != ',')
		return -EINVAL;
	*s = p;
	if (err_lo || err_hi)
		return -ERANGE; /* does not even fit */
	if (hi < lo)
		return -EINVAL;
	if (hi > (unsigned long long)max)
		return -ERANGE;
	for (id = lo; id <= hi; id++)
		if (idvec__push(v, (int)id))
			return -ENOMEM;
	return 0;
}

/* Every item; a range error is reported only when the syntax is right. */
static int parse_items(struct idvec *v, const char *s, int max, int ranges)
{
	int err, range_err = 0;

	for (;;) {
		err = parse_item(v, &s, max, ranges);
		if (err == -ERANGE)
			range_err = err;
		else if (err)
			return err;
		if (!*s)
			return range_err;
		s++; /* ',' */
	}
}

int idlist__parse(struct idlist *list, const char *s, int max, int ranges)
{
	struct idvec v = { 0 };
	size_t i;
	int err;

	if (!s || max < 0)
		return -EINVAL;
	for (i = 0; i < list->nr; i++) {
		err = idvec__push(&v, list->ids[i]);
		if (err)
			goto out;
	}
	err = parse_items(&v, s, max, ranges);
	if (err)
		goto out;
	idvec__sort_unique(&v);
	free(list->ids);
	list->ids = v.ids;
	list->nr = v.nr;
	return 0;
out:
	free(v.ids);
	return err;
}

int idlist__has(const struct idlist *list, int id)
{
	return list->nr &&
	       bsearch(&id, list->ids, list->nr, sizeof(*list->ids), cmp_int) != NULL;
}

void idlist__free(struct idlist *list)
{
	if (!list)
		return;
	free(list->ids);
	list->ids = NULL;
	list->nr = 0;
}

int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
