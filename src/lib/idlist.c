// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Lists of ids given on the command line ("12,15", "0,2-3"): parse, look up. */
#include <errno.h>
#include <stdlib.h>

#include "array.h"
#include "idlist.h"
#include "number.h"

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

	err_lo = number__digits(p, &p, &lo);
	if (err_lo == -EINVAL)
		return -EINVAL;
	hi = lo;
	err_hi = err_lo;
	if (*p == '-') {
		if (!ranges)
			return -EINVAL;
		err_hi = number__digits(p + 1, &p, &hi);
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
