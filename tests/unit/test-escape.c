// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Escaping of names from outside (escape.c) and the UTF-8 validator (utf8.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "escape.h"
#include "utf8.h"

static char *written(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	escape__write(f, s, strlen(s));
	fclose(f);
	return buf;
}

/* escape__stream: each line escaped, newlines kept, UTF-8 split across writes whole */
static void test_stream(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *to = open_memstream(&buf, &len), *f = to ? escape__stream(to) : NULL;

	CHECK(f, "a stream");
	if (!f)
		return;
	fprintf(f, "bpfprof: bad '%s'\n", "a\x1b[31m\\b");
	fputs("caf\xc3", f); /* a character written in two parts */
	fputs("\xa9 \x88\x7f\r\n", f);
	fputs("no newline\a", f);
	fclose(f);
	fclose(to);
	CHECK_STR(buf, "bpfprof: bad 'a\\x1b[31m\\\\b'\ncaf\xc3\xa9 \\x88\\x7f\\x0d\n"
		       "no newline\\x07",
		  "lines escaped, newlines kept, a character written in parts kept whole");
	free(buf);
}

int main(void)
{
	static const struct {
		const char *in, *out, *what;
	} cases[] = {
		{ "plain_name", "plain_name", "printable ASCII stays" },
		{ "a\x1b[31mred\a", "a\\x1b[31mred\\x07", "ESC and BEL become \\xHH" },
		{ "tab\there\nnl\x7f", "tab\\x09here\\x0anl\\x7f", "tab, newline and DEL too" },
		{ "c1 \xc2\x88 here", "c1 \\xc2\\x88 here", "a C1 control: each of its bytes" },
		{ "raw \x88 byte", "raw \\x88 byte", "a byte that is not UTF-8" },
		{ "overlong \xc0\xaf", "overlong \\xc0\\xaf", "an overlong form is not UTF-8" },
		{ "cut \xe2\x82", "cut \\xe2\\x82", "a sequence cut short" },
		{ "ns::f<\xc3\xa9t\xc3\xa9>() \xe2\x82\xac \xf0\x9f\x94\xa5",
		  "ns::f<\xc3\xa9t\xc3\xa9>() \xe2\x82\xac \xf0\x9f\x94\xa5",
		  "valid printable UTF-8 stays" },
		{ "a\\x1b", "a\\\\x1b", "a backslash is doubled: the escaping is unambiguous" },
		{ "", "", "the empty name" },
	};
	char buf[16];
	uint32_t cp;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *w = written(cases[i].in), *d = escape__dup(cases[i].in);

		CHECK_STR(w, cases[i].out, "write: %s", cases[i].what);
		CHECK_STR(d, cases[i].out, "dup: %s", cases[i].what);
		CHECK(escape__needed(cases[i].in) == !!strcmp(cases[i].in, cases[i].out),
		      "needed: %s", cases[i].what);
		CHECK(escape__str(NULL, 0, cases[i].in) == strlen(cases[i].out),
		      "the length without a buffer: %s", cases[i].what);
		free(w);
		free(d);
	}
	CHECK(escape__str(buf, 7, "abc\x1b" "def") == 10 && !strcmp(buf, "abc"),
	      "cut short before an escape that does not fit, never inside it");
	CHECK(escape__str(buf, sizeof(buf), "abc") == 3 && !strcmp(buf, "abc"), "fits");
	CHECK(utf8__valid_len((const unsigned char *)"\xed\xa0\x80", 3, &cp) == 0,
	      "a surrogate is not UTF-8");
	CHECK(utf8__valid_len((const unsigned char *)"\xf4\x90\x80\x80", 4, &cp) == 0,
	      "above U+10FFFF is not UTF-8");
	CHECK(utf8__valid_len((const unsigned char *)"\xe2\x82\xac", 3, &cp) == 3 &&
		      cp == 0x20ac,
	      "U+20AC: three bytes");
	test_stream();
	return check_done();
}
