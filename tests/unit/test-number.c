/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/lib/number.c and src/lib/idlist.c: numbers, durations, id lists. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "check.h"
#include "idlist.h"
#include "number.h"

static void test_parse_ull(void)
{
	unsigned long long v = 7;

	CHECK(number__parse_ull("0", 0, 10, &v) == 0 && v == 0, "ull: 0");
	CHECK(number__parse_ull("42", 1, 100, &v) == 0 && v == 42, "ull: 42");
	CHECK(number__parse_ull("100", 1, 100, &v) == 0 && v == 100, "ull: max is inclusive");
	CHECK(number__parse_ull("1", 1, 100, &v) == 0 && v == 1, "ull: min is inclusive");
	CHECK(number__parse_ull("007", 0, 10, &v) == 0 && v == 7, "ull: leading zeros");
	CHECK(number__parse_ull("18446744073709551615", 0, ULLONG_MAX, &v) == 0 &&
		      v == ULLONG_MAX,
	      "ull: ULLONG_MAX");
	v = 7;
	CHECK(number__parse_ull("", 0, 10, &v) == -EINVAL && v == 7, "ull: empty");
	CHECK(number__parse_ull(NULL, 0, 10, &v) == -EINVAL, "ull: NULL");
	CHECK(number__parse_ull("abc", 0, 10, &v) == -EINVAL, "ull: junk");
	CHECK(number__parse_ull("12x", 0, 100, &v) == -EINVAL, "ull: trailing junk");
	CHECK(number__parse_ull("-1", 0, 10, &v) == -EINVAL, "ull: minus sign");
	CHECK(number__parse_ull("+1", 0, 10, &v) == -EINVAL, "ull: plus sign");
	CHECK(number__parse_ull(" 1", 0, 10, &v) == -EINVAL, "ull: leading space");
	CHECK(number__parse_ull("1 ", 0, 10, &v) == -EINVAL, "ull: trailing space");
	CHECK(number__parse_ull("0x10", 0, 100, &v) == -EINVAL, "ull: hex");
	CHECK(number__parse_ull("1.5", 0, 100, &v) == -EINVAL, "ull: decimal point");
	CHECK(number__parse_ull("0", 1, 10, &v) == -ERANGE, "ull: below min");
	CHECK(number__parse_ull("11", 1, 10, &v) == -ERANGE, "ull: above max");
	CHECK(number__parse_ull("99999999999999999999", 0, ULLONG_MAX, &v) == -ERANGE,
	      "ull: overflow");
	CHECK(number__parse_ull("18446744073709551616", 0, ULLONG_MAX, &v) == -ERANGE,
	      "ull: ULLONG_MAX + 1");
	CHECK(number__parse_ull("99999999999999999999x", 0, ULLONG_MAX, &v) == -EINVAL,
	      "ull: overflow with junk is junk");
	CHECK(v == 7, "ull: output untouched on error");
}

static void test_parse_decimal(void)
{
	double d = -1;

	CHECK(number__parse_decimal("0.5", 0, 10, &d) == 0 && d == 0.5, "decimal: 0.5");
	CHECK(number__parse_decimal("0", 0, 10, &d) == 0 && d == 0, "decimal: the minimum");
	CHECK(number__parse_decimal("10", 0, 10, &d) == 0 && d == 10, "decimal: the maximum");
	d = -1;
	CHECK(number__parse_decimal("10.5", 0, 10, &d) == -ERANGE && d == -1,
	      "decimal: above the maximum, unchanged");
	CHECK(number__parse_decimal("-1", 0, 10, &d) == -ERANGE, "decimal: below the minimum");
	CHECK(number__parse_decimal("1e3", 0, 1e4, &d) == -EINVAL, "decimal: no exponent");
	CHECK(number__parse_decimal("nan", 0, 10, &d) == -EINVAL, "decimal: no nan");
	CHECK(number__parse_decimal("", 0, 10, &d) == -EINVAL, "decimal: empty");
}

static void test_parse_seconds(void)
{
	double d = -1;

	CHECK(number__parse_seconds("10", &d) == 0 && d == 10, "seconds: 10");
	CHECK(number__parse_seconds("0.5", &d) == 0 && d == 0.5, "seconds: 0.5");
	CHECK(number__parse_seconds(".25", &d) == 0 && d == 0.25, "seconds: .25");
	CHECK(number__parse_seconds("3.", &d) == 0 && d == 3, "seconds: 3.");
	CHECK(number__parse_seconds("31536000", &d) == 0, "seconds: a year");
	d = -1;
	CHECK(number__parse_seconds("31536001", &d) == -ERANGE && d == -1,
	      "seconds: above a year");
	CHECK(number__parse_seconds("0", &d) == -ERANGE, "seconds: zero");
	CHECK(number__parse_seconds("0.0", &d) == -ERANGE, "seconds: 0.0");
	CHECK(number__parse_seconds("-1", &d) == -ERANGE, "seconds: negative");
	CHECK(number__parse_seconds("", &d) == -EINVAL, "seconds: empty");
	CHECK(number__parse_seconds(NULL, &d) == -EINVAL, "seconds: NULL");
	CHECK(number__parse_seconds(".", &d) == -EINVAL, "seconds: lone point");
	CHECK(number__parse_seconds("-", &d) == -EINVAL, "seconds: lone minus");
	CHECK(number__parse_seconds("abc", &d) == -EINVAL, "seconds: junk");
	CHECK(number__parse_seconds("1s", &d) == -EINVAL, "seconds: unit suffix");
	CHECK(number__parse_seconds("1e3", &d) == -EINVAL, "seconds: exponent");
	CHECK(number__parse_seconds("0x10", &d) == -EINVAL, "seconds: hex");
	CHECK(number__parse_seconds("inf", &d) == -EINVAL, "seconds: inf");
	CHECK(number__parse_seconds("nan", &d) == -EINVAL, "seconds: nan");
	CHECK(number__parse_seconds("1.2.3", &d) == -EINVAL, "seconds: two points");
	CHECK(number__parse_seconds(" 1", &d) == -EINVAL, "seconds: leading space");
	CHECK(d == -1, "seconds: output untouched on error");
}

/* Does @list hold exactly the @n ids of @want, in order? */
static int list_is(const struct idlist *list, const int *want, size_t n)
{
	size_t i;

	if (list->nr != n)
		return 0;
	for (i = 0; i < n; i++)
		if (list->ids[i] != want[i])
			return 0;
	return 1;
}

#define LIST_IS(list, ...)                          \
	list_is(list, (const int[]){ __VA_ARGS__ }, \
		sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

static void test_idlist_good(void)
{
	struct idlist l = { 0 };

	CHECK(idlist__parse(&l, "12", 100, 0) == 0 && LIST_IS(&l, 12), "list: one id");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "15,12", 100, 0) == 0 && LIST_IS(&l, 12, 15),
	      "list: two ids, sorted");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "3,1,3,2,1", 100, 0) == 0 && LIST_IS(&l, 1, 2, 3),
	      "list: duplicates dropped");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "0,2-3", 10, 1) == 0 && LIST_IS(&l, 0, 2, 3),
	      "list: 0,2-3");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "5-5", 10, 1) == 0 && LIST_IS(&l, 5),
	      "list: range of one");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "4-6,0-1,5", 10, 1) == 0 && LIST_IS(&l, 0, 1, 4, 5, 6),
	      "list: overlapping ranges merged and sorted");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "0", 0, 0) == 0 && LIST_IS(&l, 0), "list: max 0");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "2147483647", INT_MAX, 0) == 0 && LIST_IS(&l, INT_MAX),
	      "list: INT_MAX");
	idlist__free(&l);
	CHECK(idlist__parse(&l, "0-99999", 99999, 1) == 0 && l.nr == 100000 &&
		      l.ids[99999] == 99999,
	      "list: a long range grows the list");
	idlist__free(&l);
}

static void test_idlist_append(void)
{
	struct idlist l = { 0 };

	CHECK(idlist__parse(&l, "7,3", 100, 0) == 0, "append: first list");
	CHECK(idlist__parse(&l, "5,3", 100, 0) == 0 && LIST_IS(&l, 3, 5, 7),
	      "append: second list merged, sorted, deduplicated");
	CHECK(idlist__parse(&l, "1,x", 100, 0) == -EINVAL && LIST_IS(&l, 3, 5, 7),
	      "append: unchanged after a syntax error");
	CHECK(idlist__parse(&l, "1,101", 100, 0) == -ERANGE && LIST_IS(&l, 3, 5, 7),
	      "append: unchanged after a range error");
	idlist__free(&l);
	CHECK(l.ids == NULL && l.nr == 0, "free: list reset");
	idlist__free(&l);
	idlist__free(NULL); /* a crash here prints no plan, and the run fails */
	CHECK(l.ids == NULL && l.nr == 0, "free: twice leaves the list reset");
}

static void test_idlist_bad(void)
{
	struct idlist l = { 0 };

	CHECK(idlist__parse(&l, "", 100, 1) == -EINVAL, "bad: empty string");
	CHECK(idlist__parse(&l, NULL, 100, 1) == -EINVAL, "bad: NULL");
	CHECK(idlist__parse(&l, ",1", 100, 1) == -EINVAL, "bad: empty first item");
	CHECK(idlist__parse(&l, "1,", 100, 1) == -EINVAL, "bad: empty last item");
	CHECK(idlist__parse(&l, "1,,2", 100, 1) == -EINVAL, "bad: empty middle item");
	CHECK(idlist__parse(&l, "abc", 100, 1) == -EINVAL, "bad: junk");
	CHECK(idlist__parse(&l, "1x", 100, 1) == -EINVAL, "bad: trailing junk");
	CHECK(idlist__parse(&l, "1 ,2", 100, 1) == -EINVAL, "bad: space");
	CHECK(idlist__parse(&l, "-1", 100, 1) == -EINVAL, "bad: negative");
	CHECK(idlist__parse(&l, "+1", 100, 1) == -EINVAL, "bad: plus sign");
	CHECK(idlist__parse(&l, "3-1", 100, 1) == -EINVAL, "bad: reversed range");
	CHECK(idlist__parse(&l, "1-", 100, 1) == -EINVAL, "bad: open range");
	CHECK(idlist__parse(&l, "1-2-3", 100, 1) == -EINVAL, "bad: double range");
	CHECK(idlist__parse(&l, "1--2", 100, 1) == -EINVAL, "bad: double dash");
	CHECK(idlist__parse(&l, "1-2", 100, 0) == -EINVAL, "bad: range without ranges");
	CHECK(idlist__parse(&l, "101", 100, 0) == -ERANGE, "bad: above max");
	CHECK(idlist__parse(&l, "1-101", 100, 1) == -ERANGE, "bad: range end above max");
	CHECK(idlist__parse(&l, "2147483648", INT_MAX, 0) == -ERANGE,
	      "bad: above INT_MAX");
	CHECK(idlist__parse(&l, "99999999999999999999", INT_MAX, 0) == -ERANGE,
	      "bad: overflow");
	CHECK(idlist__parse(&l, "1", -1, 0) == -EINVAL, "bad: negative max");
	CHECK(idlist__parse(&l, "200,1x", 100, 1) == -EINVAL,
	      "bad: a syntax error wins over an earlier range error");
	CHECK(idlist__parse(&l, "1x", 0, 0) == -EINVAL, "bad: junk above max is junk");
	CHECK(idlist__parse(&l, "300-200", 100, 1) == -EINVAL,
	      "bad: reversed range above max is reversed");
	CHECK(idlist__parse(&l, "0-200,5", 100, 1) == -ERANGE,
	      "bad: range error, then good items");
	CHECK(idlist__parse(&l, "99999999999999999999-1", 100, 1) == -ERANGE,
	      "bad: overflowing range start");
	CHECK(idlist__parse(&l, "1-99999999999999999999", 100, 1) == -ERANGE,
	      "bad: overflowing range end");
	CHECK(l.nr == 0 && l.ids == NULL, "bad: list untouched");
}

static void test_idlist_has(void)
{
	struct idlist l = { 0 };

	CHECK(!idlist__has(&l, 0), "has: empty list");
	idlist__parse(&l, "1,4-6,9", 10, 1);
	CHECK(idlist__has(&l, 1) && idlist__has(&l, 5) && idlist__has(&l, 9),
	      "has: members");
	CHECK(!idlist__has(&l, 0) && !idlist__has(&l, 3) && !idlist__has(&l, 10),
	      "has: non-members");
	idlist__free(&l);
}

static void test_parse_size(void)
{
	unsigned long long v = 0;

	CHECK(number__parse_u64("4096", &v) == 0 && v == 4096, "u64: decimal");
	CHECK(number__parse_u64("0x1F", &v) == 0 && v == 31, "u64: 0x hexadecimal");
	CHECK(number__parse_u64("0xffffffffffffffff", &v) == 0 && v == ~0ull, "u64: the largest");
	CHECK(number__parse_u64("0x10000000000000000", &v) == -ERANGE, "u64: too big: ERANGE");
	CHECK(number__parse_u64("18446744073709551616", &v) == -ERANGE, "u64: decimal too big");
	CHECK(number__parse_u64("0x", &v) == -EINVAL, "u64: 0x alone: EINVAL");
	CHECK(number__parse_u64("12a", &v) == -EINVAL, "u64: trailing garbage: EINVAL");
	CHECK(number__parse_u64("", &v) == -EINVAL, "u64: empty: EINVAL");
	CHECK(number__parse_u64(NULL, &v) == -EINVAL, "u64: NULL: EINVAL");
	CHECK(number__parse_size("4096", 1, ~0ull, &v) == 0 && v == 4096, "plain bytes");
	CHECK(number__parse_size("64K", 1, ~0ull, &v) == 0 && v == 65536, "K is KiB");
	CHECK(number__parse_size("32M", 1, ~0ull, &v) == 0 && v == 32ull << 20, "M is MiB");
	CHECK(number__parse_size("2G", 1, ~0ull, &v) == 0 && v == 2ull << 30, "G is GiB");
	CHECK(number__parse_size("", 1, ~0ull, &v) == -EINVAL, "empty: EINVAL");
	CHECK(number__parse_size("M", 1, ~0ull, &v) == -EINVAL, "no digits: EINVAL");
	CHECK(number__parse_size("3T", 1, ~0ull, &v) == -EINVAL, "unknown unit: EINVAL");
	CHECK(number__parse_size("3MB", 1, ~0ull, &v) == -EINVAL, "trailing garbage: EINVAL");
	CHECK(number__parse_size("-1M", 1, ~0ull, &v) == -EINVAL, "negative: EINVAL");
	CHECK(number__parse_size("1K", 2048, ~0ull, &v) == -ERANGE, "below min: ERANGE");
	CHECK(number__parse_size("17179869184G", 1, ~0ull, &v) == -ERANGE, "overflow: ERANGE");
}

int main(void)
{
	test_parse_size();
	test_parse_ull();
	test_parse_decimal();
	test_parse_seconds();
	test_idlist_good();
	test_idlist_append();
	test_idlist_bad();
	test_idlist_has();
	return check_done();
}
