/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/lib/nearest.c: names holding the wanted one first,
 * then near ones by edit distance, the far ones never; the same result
 * whatever the order of the offers.
 */
#include <stdlib.h>

#include "check.h"
#include "nearest.h"

static const char *const libc[] = {
	"memmove", "__memcpy_chk", "wmemcpy", "memccpy", "mempcpy", "strlen", "printf",
	"__memmove_avx_unaligned_erms", "memcpy", "__mempcpy_chk", "memset", "mencpy",
};

static void offer_all(struct nearest *n, const char *const *v, size_t nr, int step)
{
	for (size_t i = 0; i < nr; i++)
		nearest__offer(n, v[(i * step) % nr]);
}

static void test_holding_first(void)
{
	struct nearest n;

	CHECK(!nearest__init(&n, "memcpy", 4), "init");
	offer_all(&n, libc, sizeof(libc) / sizeof(*libc), 1);
	CHECK(n.nr == 4, "four kept (%zu)", n.nr);
	CHECK_STR(n.names[0], "wmemcpy", "the shortest name holding memcpy first");
	CHECK_STR(n.names[1], "__memcpy_chk", "then the next shortest");
	CHECK_STR(n.names[2], "memccpy", "then one edit away, in strcmp order");
	CHECK_STR(n.names[3], "mempcpy", "and the other one edit away");
	nearest__free(&n);
}

static void test_order_free(void)
{
	struct nearest a, b;
	size_t nr = sizeof(libc) / sizeof(*libc);
	int same = 1;

	CHECK(!nearest__init(&a, "memcpyx", 5) && !nearest__init(&b, "memcpyx", 5), "init");
	offer_all(&a, libc, nr, 1);
	offer_all(&b, libc, nr, 5); /* 5 and 12 are coprime: every name, another order */
	for (size_t i = 0; i < a.nr; i++)
		same &= a.nr == b.nr && !strcmp(a.names[i], b.names[i]);
	CHECK(same && a.nr, "the same names whatever the order of the offers");
	CHECK_STR(a.names[0], "memcpy", "one deletion away comes first");
	nearest__free(&a);
	nearest__free(&b);
}

static void test_far_and_twice(void)
{
	struct nearest n;

	CHECK(!nearest__init(&n, "loops", 3), "init");
	nearest__offer(&n, "printf");
	nearest__offer(&n, "loops");
	CHECK(n.nr == 0, "a far name and the name itself are no suggestion");
	nearest__offer(&n, "loop");
	nearest__offer(&n, "loop");
	CHECK(n.nr == 1, "a name offered twice is kept once");
	nearest__free(&n);
}

int main(void)
{
	test_holding_first();
	test_order_free();
	test_far_and_twice();
	return check_done();
}
