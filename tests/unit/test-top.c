// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The top table's writer: self and total samples (recursion counted once
 * a stack), the order, --limit, frames that read alike as one row, kinds
 * as folded suffixes, escaping, an empty profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profiles.h"

static char *write_top(const struct profile *p, const struct output_opts *o, size_t *rows)
{
	return profiles__write(&output_top, p, o, rows);
}

/* Line @n (0: the first) of @s, in memory of its own; NULL past the last. */
static char *line(const char *s, int n)
{
	for (; n > 0 && s; n--)
		if ((s = strchr(s, '\n')))
			s++;
	if (!s || !*s)
		return NULL;
	return strndup(s, strcspn(s, "\n"));
}

/* Does row line @n read "SELF SELF% TOTAL TOTAL% NAME"? */
static int row_is(const char *out, int n, const char *want)
{
	char *l = line(out, n), norm[256] = "";
	size_t len = 0;
	int ok;

	/* the columns with single spaces */
	for (const char *c = l ? l : ""; *c && len + 1 < sizeof(norm); c++)
		if (*c != ' ' || (len && norm[len - 1] != ' '))
			norm[len++] = *c;
	norm[len] = '\0';
	ok = !strcmp(norm, want);
	if (!ok)
		printf("#   row %d: got '%s', want '%s'\n", n, norm, want);
	free(l);
	return ok;
}

int main(void)
{
	struct frame rec[] = { { "main", FRAME_USER }, { "walk", FRAME_USER },
			       { "walk", FRAME_USER }, { "walk", FRAME_USER },
			       { "leaf", FRAME_USER } };
	struct frame sys[] = { { "main", FRAME_USER }, { "walk", FRAME_USER },
			       { "vfs_read", FRAME_KERNEL } };
	struct frame other[] = { { "main", FRAME_USER }, { "other", FRAME_USER },
				 { "memcpy", FRAME_INLINE } };
	struct frame mark[] = { { "[truncated]", FRAME_MARK }, { "leaf", FRAME_USER } };
	struct output_opts none = { 0 }, two = { .limit = 2 };
	struct profile p = { .drop_lines = true, .duration = 2, .ncpus = 2 };
	size_t rows;
	char *out, *l;

	profiles__add(&p, "app", 1, rec, 5, 50);
	profiles__add(&p, "app", 2, sys, 3, 20);
	profiles__add(&p, "cc", 3, other, 3, 25);
	profiles__add(&p, "app", 1, mark, 2, 5);
	out = write_top(&p, &none, &rows);
	l = line(out, 0);
	CHECK_STR(l, "# 100 samples, 0 lost, 2.00 s, 2 CPUs; 7 functions",
		  "the header: samples, lost, duration, CPUs, rows");
	free(l);
	CHECK(row_is(out, 1, "# self self% total total% function"), "the column heads");
	CHECK(row_is(out, 2, "55 55.00% 55 55.00% leaf"), "a leaf's self and total");
	CHECK(row_is(out, 3, "25 25.00% 25 25.00% memcpy_[i]"), "inlined frames as folded");
	CHECK(row_is(out, 4, "20 20.00% 20 20.00% vfs_read_[k]"), "kernel frames as folded");
	CHECK(row_is(out, 5, "0 0.00% 95 95.00% main"), "main: no self, total of its stacks");
	CHECK(row_is(out, 6, "0 0.00% 70 70.00% walk"),
	      "recursion counts once a stack (70, not 170)");
	CHECK(row_is(out, 7, "0 0.00% 25 25.00% other"), "sorted by self, then total");
	CHECK(row_is(out, 8, "0 0.00% 5 5.00% [truncated]"), "marks are rows");
	CHECK(!line(out, 9), "one row per function");
	CHECK(rows == 4, "the summary's stacks: the profile's (%zu)", rows);
	free(out);

	out = write_top(&p, &two, NULL);
	l = line(out, 0);
	CHECK_STR(l, "# 100 samples, 0 lost, 2.00 s, 2 CPUs; 7 functions, the first 2 shown "
		     "(--limit)",
		  "--limit: the header says so");
	free(l);
	CHECK(row_is(out, 3, "25 25.00% 25 25.00% memcpy_[i]") && !line(out, 4),
	      "--limit 2: two rows");
	free(out);
	profile__free(&p);

	/* frames that read alike are one row; the name order breaks ties */
	struct frame l1[] = { { "f", FRAME_USER, 10, "a.c" } }, l2[] = { { "f", FRAME_USER, 11, "a.c" } };
	struct frame b[] = { { "b\x1b\x88", FRAME_USER } }, a[] = { { "a", FRAME_USER } };
	struct output_opts lines = { .lines = true };

	memset(&p, 0, sizeof(p));
	p.ncpus = 1;
	profiles__add(&p, "x", 1, l1, 1, 3);
	profiles__add(&p, "x", 1, l2, 1, 3);
	profiles__add(&p, "x", 1, b, 1, 3);
	profiles__add(&p, "x", 1, a, 1, 3);
	out = write_top(&p, &none, NULL);
	CHECK(row_is(out, 2, "6 50.00% 6 50.00% f"), "two lines of f, without --lines: one row");
	CHECK(row_is(out, 3, "3 25.00% 3 25.00% a"), "ties in name order");
	CHECK(row_is(out, 4, "3 25.00% 3 25.00% b\\x1b\\x88"),
	      "control bytes and invalid UTF-8 as \\xHH");
	CHECK(!strchr(out, '\x1b'), "no raw control byte");
	free(out);
	out = write_top(&p, &lines, NULL);
	CHECK(row_is(out, 4, "3 25.00% 3 25.00% f a.c:10") &&
		      row_is(out, 5, "3 25.00% 3 25.00% f a.c:11"),
	      "--lines: a row per line");
	free(out);
	profile__free(&p);

	memset(&p, 0, sizeof(p));
	out = write_top(&p, &none, &rows);
	l = line(out, 0);
	/* no CPU count: the profile has none (a saved one read back) */
	CHECK_STR(l, "# 0 samples, 0 lost, 0.00 s; 0 functions", "an empty profile");
	free(l);
	CHECK(!line(out, 2) && rows == 0, "no rows");
	free(out);
	profile__free(&p);
	return check_done();
}
