/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal TAP producer for the unit tests: each CHECK is one test point,
 * "ok N - what" or "not ok N - what (file:line)". check_done() prints the
 * plan and returns the exit status. scripts/test and meson both read TAP.
 */
#ifndef BPFPROF_CHECK_H
#define BPFPROF_CHECK_H

#include <stdio.h>
#include <string.h>

static int check__n, check__failed;

#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		int ok__ = !!(cond);                                              \
		check__n++;                                                       \
		printf("%sok %d - ", ok__ ? "" : "not ", check__n);             \
		printf(__VA_ARGS__);                                              \
		if (!ok__) {                                                      \
			printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);        \
			check__failed++;                                          \
		}                                                                 \
		printf("\n");                                                     \
	} while (0)

#define CHECK_STR(got, want, ...)                                                 \
	do {                                                                      \
		const char *g__ = (got), *w__ = (want);                           \
		CHECK(g__ && w__ && strcmp(g__, w__) == 0, __VA_ARGS__);          \
		if (!(g__ && w__ && strcmp(g__, w__) == 0))                       \
			printf("#   got '%s', want '%s'\n", g__ ? g__ : "(null)",   \
			       w__ ? w__ : "(null)");                             \
	} while (0)

static inline int check_done(void)
{
	printf("1..%d\n", check__n);
	return check__failed ? 1 : 0;
}

#endif /* BPFPROF_CHECK_H */
