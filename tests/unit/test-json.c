/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The JSON writer: exact output of escaping (control characters, invalid
 * UTF-8), numbers, nesting and its white space, and the misuses it refuses;
 * then the document of `bpfprof range -f json` from a listing built by hand.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"
#include "output.h"

/* A writer into memory; doc__end gives what it wrote (static) and the result. */
struct doc {
	struct json_writer w;
	FILE *f;
	char *buf;
	size_t size;
	int err;
};

static void doc__begin(struct doc *d, unsigned indent, unsigned levels)
{
	d->buf = NULL;
	d->size = 0;
	d->f = open_memstream(&d->buf, &d->size);
	if (!d->f) {
		perror("open_memstream");
		exit(2);
	}
	json__init(&d->w, d->f, indent, levels);
}

static const char *doc__end(struct doc *d)
{
	static char out[4096];

	d->err = json__finish(&d->w);
	fclose(d->f);
	snprintf(out, sizeof(out), "%s", d->buf ? d->buf : "");
	free(d->buf);
	return out;
}

/* One string value, escaped, on its own. */
static const char *string_doc(const char *s, size_t len)
{
	struct doc d;

	doc__begin(&d, 0, 0);
	json__string_len(&d.w, s, len);
	return doc__end(&d);
}

#define CHECK_ESCAPE(in, want, what) \
	CHECK_STR(string_doc(in, sizeof(in) - 1), want "\n", what)

static void test_escaping(void)
{
	char all_controls[0x21];
	char want[0x20 * 6 + 8] = "\"";
	struct doc d;

	CHECK_ESCAPE("plain", "\"plain\"", "plain ASCII unchanged");
	CHECK_ESCAPE("", "\"\"", "empty string");
	CHECK_ESCAPE("a\"b\\c/d", "\"a\\\"b\\\\c/d\"", "quote and backslash escaped, / not");
	CHECK_ESCAPE("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"", "short escapes");
	CHECK_ESCAPE("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"", "other controls and DEL as \\u");
	CHECK_ESCAPE("a\0b", "\"a\\u0000b\"", "NUL inside a counted string");
	/* every control character in one string */
	for (int c = 0; c < 0x20; c++)
		all_controls[c] = c;
	all_controls[0x20] = 0;
	for (int c = 0; c < 0x20; c++) {
		const char *s = c == '\b' ? "\\b" : c == '\f' ? "\\f" : c == '\n' ? "\\n" :
				c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
		char u[8];

		if (!s) {
			snprintf(u, sizeof(u), "\\u%04x", c);
			s = u;
		}
		strcat(want, s);
	}
	strcat(want, "\"\n");
	CHECK_STR(string_doc(all_controls, 0x20), want, "all 32 control characters escaped");

	/* valid UTF-8 passes through: 2, 3 and 4 bytes, the largest code point */
	CHECK_ESCAPE("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
		     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"",
		     "valid UTF-8 unchanged");
	CHECK_ESCAPE("\xef\xbf\xbd", "\"\xef\xbf\xbd\"", "U+FFFD itself unchanged");
	/* invalid: one U+FFFD per byte that starts no valid sequence */
	CHECK_ESCAPE("a\xff" "b", "\"a\\ufffdb\"", "0xff");
	CHECK_ESCAPE("\x80", "\"\\ufffd\"", "a lone continuation byte");
	CHECK_ESCAPE("\xc3", "\"\\ufffd\"", "a sequence cut by the end");
	CHECK_ESCAPE("\xe2\x82" "x", "\"\\ufffd\\ufffdx\"", "a sequence cut by ASCII");
	CHECK_ESCAPE("\xc0\xaf", "\"\\ufffd\\ufffd\"", "overlong 2-byte /");
	CHECK_ESCAPE("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"", "overlong 3-byte");
	CHECK_ESCAPE("\xf0\x80\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "overlong 4-byte");
	CHECK_ESCAPE("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "a UTF-16 surrogate");
	CHECK_ESCAPE("\xc2\x80 \xc2\x9f \xc2\xa0", "\"\\u0080 \\u009f \xc2\xa0\"",
		     "C1 controls as \\u, U+00A0 as it is");
	CHECK_ESCAPE("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", "above U+10FFFF");
	CHECK_ESCAPE("\xf8\x88\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
		     "5-byte form");
	CHECK_ESCAPE("\xc3\xa9\xc3", "\"\xc3\xa9\\ufffd\"", "valid then cut");

	/* keys are escaped the same way; NULL strings are null */
	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	json__field_string(&d.w, "k\"\n\xff", NULL);
	json__end_object(&d.w);
	CHECK_STR(doc__end(&d), "{\"k\\\"\\n\\ufffd\":null}\n", "keys escaped, NULL is null");
	CHECK(d.err == 0, "no error");
}

static void test_numbers(void)
{
	char want[512];
	struct doc d;

	doc__begin(&d, 0, 0);
	json__begin_array(&d.w);
	json__u64(&d.w, 0);
	json__u64(&d.w, UINT64_MAX);
	json__i64(&d.w, INT64_MIN);
	json__i64(&d.w, -1);
	json__double(&d.w, 80.0249, 2);
	json__double(&d.w, 100, 1);
	json__double(&d.w, 2.5, 0);
	json__double(&d.w, NAN, 2);
	json__double(&d.w, INFINITY, 2);
	json__double(&d.w, -INFINITY, 2);
	json__hex(&d.w, 0x401136);
	json__hex(&d.w, 0);
	json__hex(&d.w, UINT64_MAX);
	json__bool(&d.w, true);
	json__bool(&d.w, false);
	json__null(&d.w);
	json__end_array(&d.w);
	CHECK_STR(doc__end(&d),
		  "[0,18446744073709551615,-9223372036854775808,-1,80.02,100.0,2,null,null,"
		  "null,\"0x401136\",\"0x0\",\"0xffffffffffffffff\",true,false,null]\n",
		  "integers exact, fixed decimals, non-finite as null, hex strings, literals");
	CHECK(d.err == 0, "no error");

	/* the longest double, whole */
	doc__begin(&d, 0, 0);
	json__double(&d.w, -1.7976931348623157e308, 17);
	snprintf(want, sizeof(want), "%.17f\n", -1.7976931348623157e308);
	CHECK_STR(doc__end(&d), want, "-DBL_MAX with 17 decimals, not cut");
}

static void write_nested(struct json_writer *w)
{
	json__begin_object(w);
	json__field_u64(w, "version", 1);
	json__key(w, "empty_object");
	json__begin_object(w);
	json__end_object(w);
	json__key(w, "empty_array");
	json__begin_array(w);
	json__end_array(w);
	json__key(w, "rows");
	json__begin_array(w);
	for (int i = 0; i < 2; i++) {
		json__begin_object(w);
		json__field_hex(w, "address", 0x1180 + i);
		json__field_double(w, "percent", 50, 1);
		json__key(w, "list");
		json__begin_array(w);
		json__u64(w, 1);
		json__u64(w, 2);
		json__end_array(w);
		json__end_object(w);
	}
	json__end_array(w);
	json__end_object(w);
}

static void test_nesting(void)
{
	struct doc d;

	doc__begin(&d, 0, 0);
	write_nested(&d.w);
	CHECK_STR(doc__end(&d),
		  "{\"version\":1,\"empty_object\":{},\"empty_array\":[],\"rows\":["
		  "{\"address\":\"0x1180\",\"percent\":50.0,\"list\":[1,2]},"
		  "{\"address\":\"0x1181\",\"percent\":50.0,\"list\":[1,2]}]}\n",
		  "compact: commas and colons, no white space");
	CHECK(d.err == 0, "compact: no error");

	doc__begin(&d, 2, 0);
	write_nested(&d.w);
	CHECK_STR(doc__end(&d),
		  "{\n"
		  "  \"version\": 1,\n"
		  "  \"empty_object\": {},\n"
		  "  \"empty_array\": [],\n"
		  "  \"rows\": [\n"
		  "    {\n"
		  "      \"address\": \"0x1180\",\n"
		  "      \"percent\": 50.0,\n"
		  "      \"list\": [\n"
		  "        1,\n"
		  "        2\n"
		  "      ]\n"
		  "    },\n"
		  "    {\n"
		  "      \"address\": \"0x1181\",\n"
		  "      \"percent\": 50.0,\n"
		  "      \"list\": [\n"
		  "        1,\n"
		  "        2\n"
		  "      ]\n"
		  "    }\n"
		  "  ]\n"
		  "}\n",
		  "indented: one member a line");
	CHECK(d.err == 0, "indented: no error");

	doc__begin(&d, 2, 2);
	write_nested(&d.w);
	CHECK_STR(doc__end(&d),
		  "{\n"
		  "  \"version\": 1,\n"
		  "  \"empty_object\": {},\n"
		  "  \"empty_array\": [],\n"
		  "  \"rows\": [\n"
		  "    {\"address\": \"0x1180\", \"percent\": 50.0, \"list\": [1, 2]},\n"
		  "    {\"address\": \"0x1181\", \"percent\": 50.0, \"list\": [1, 2]}\n"
		  "  ]\n"
		  "}\n",
		  "indented two levels deep, deeper containers on one line");
	CHECK(d.err == 0, "two levels: no error");

	doc__begin(&d, 2, 0);
	json__u64(&d.w, 7);
	CHECK_STR(doc__end(&d), "7\n", "a scalar document");
	CHECK(d.err == 0, "scalar: no error");
}

/* Misuses: each makes the call, every later one and json__finish fail. */
static void test_misuse(void)
{
	struct doc d;
	int err;

	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	err = json__u64(&d.w, 1);
	CHECK(err == -EINVAL, "a value without a key in an object: -EINVAL");
	CHECK(json__key(&d.w, "a") == -EINVAL, "sticky: later calls fail too");
	CHECK_STR(doc__end(&d), "{", "nothing written after the error");
	CHECK(d.err == -EINVAL, "json__finish reports it");

	doc__begin(&d, 0, 0);
	json__begin_array(&d.w);
	CHECK(json__key(&d.w, "a") == -EINVAL, "a key in an array: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	CHECK(json__key(&d.w, "a") == -EINVAL, "a key at the top: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	json__key(&d.w, "a");
	CHECK(json__key(&d.w, "b") == -EINVAL, "two keys in a row: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	json__key(&d.w, "a");
	CHECK(json__end_object(&d.w) == -EINVAL, "an end after a key without value: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	CHECK(json__end_array(&d.w) == -EINVAL, "an array end for an object: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	CHECK(json__end_object(&d.w) == -EINVAL, "an end with nothing open: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__u64(&d.w, 1);
	CHECK(json__u64(&d.w, 2) == -EINVAL, "a second top-level value: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__begin_array(&d.w);
	doc__end(&d);
	CHECK(d.err == -EINVAL, "json__finish with a container open: -EINVAL");

	doc__begin(&d, 0, 0);
	doc__end(&d);
	CHECK(d.err == -EINVAL, "json__finish of an empty document: -EINVAL");

	doc__begin(&d, 0, 0);
	CHECK(json__double(&d.w, 1, -1) == -EINVAL, "negative decimals: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	json__begin_object(&d.w);
	CHECK(json__key(&d.w, NULL) == -EINVAL, "a NULL key: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	err = 0;
	for (int i = 0; i < JSON_MAX_DEPTH && !err; i++)
		err = json__begin_array(&d.w);
	CHECK(err == 0, "JSON_MAX_DEPTH levels open");
	CHECK(json__begin_object(&d.w) == -EINVAL, "one level more: -EINVAL");
	doc__end(&d);

	doc__begin(&d, 0, 0);
	err = 0;
	for (int i = 0; i < JSON_MAX_DEPTH && !err; i++)
		err = i % 2 ? json__begin_array(&d.w) :
			      json__begin_object(&d.w) ?: json__key(&d.w, "k");
	for (int i = JSON_MAX_DEPTH - 1; i >= 0 && !err; i--)
		err = i % 2 ? json__end_array(&d.w) : json__end_object(&d.w);
	CHECK(err == 0, "objects and arrays alternating %d deep, closed in order",
	      JSON_MAX_DEPTH);
	doc__end(&d);
	CHECK(d.err == 0, "... a complete document");
}

/* An unbuffered stream whose every write fails (ENOSPC), or NULL. */
static FILE *full_stream(void)
{
	FILE *f = fopen("/dev/full", "w");

	if (f)
		setvbuf(f, NULL, _IONBF, 0);
	else
		CHECK(1, "# SKIP no /dev/full");
	return f;
}

/* A stream that fails on write: json__finish says -EIO. */
static void test_write_error(void)
{
	struct json_writer w;
	FILE *f = full_stream();

	if (!f)
		return;
	json__init(&w, f, 0, 0);
	json__begin_array(&w);
	json__string(&w, "x");
	json__end_array(&w);
	CHECK(json__finish(&w) == -EIO, "a write error: json__finish returns -EIO");
	fclose(f);
}

static struct listing_row rows[] = {
	{ .addr = 0x1180, .count = 0, .func = "loops", .func_off = 0, .file = "a.c", .line = 26,
	  .text = "push rbp" },
	{ .addr = 0x11a7, .count = 80, .func = "loops", .func_off = 0x27, .file = "a.c",
	  .line = 27, .text = "add rcx, 1" },
	{ .addr = 0x11c7, .count = 20, .func = NULL, .file = NULL, .text = NULL },
};

static struct listing_src srcs[] = { { "a.c", 27, 80 } };

static struct listing_proc procs[] = { { 42, "prog\"1", 100 } };

/* The listing document written with @o, in a malloc'd string; NULL on error. */
static char *listing_doc(const struct listing *ls, const struct output_opts *o)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int err;

	if (!f)
		return NULL;
	err = output_listing_json.write_listing(f, ls, o);
	fclose(f);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_listing(void)
{
	struct listing_range lr[] = {
		{ .arg = "prog:loops", .kind = "symbol in a binary", .binary = "/bin/prog",
		  .symbol = "loops", .start = 0x1180, .end = 0x11d2, .samples = 100,
		  .rows = rows, .nr_rows = 3, .srcs = srcs, .nr_srcs = 1, .procs = procs,
		  .nr_procs = 1, .nr_insts = 2 },
		{ .arg = "libnope.so:f", .kind = "symbol in a binary", .binary = "libnope.so",
		  .unmapped = true, .no_source = "the binary has no DWARF" },
	};
	struct listing ls = { .ranges = lr, .nr = 2, .duration = 1.5 };
	struct output_opts o = { .sort = SORT_ADDRESS, .disasm = true, .source = true };
	char *out, *a, *b;
	FILE *f;

	ls.stats[STAT_SEEN] = 400;
	ls.stats[STAT_IDLE] = 150;
	ls.stats[STAT_FILTERED] = 50;
	ls.stats[STAT_KEPT] = 100;
	ls.stats[STAT_OUT_OF_RANGE] = 100;
	ls.stats[STAT_DROP_COUNTS_FULL] = 3;
	out = listing_doc(&ls, &o);
	/* range 2's no_source is null: no rows, as the text says nothing */
	CHECK_STR(out,
		  "{\n"
		  "  \"version\": 1,\n"
		  "  \"duration_s\": 1.500,\n"
		  "  \"samples\": {\n"
		  "    \"seen\": 400,\n"
		  "    \"idle\": 150,\n"
		  "    \"filtered\": 50,\n"
		  "    \"targets\": 200,\n"
		  "    \"in_ranges\": 100,\n"
		  "    \"outside\": 100,\n"
		  "    \"lost\": {\n"
		  "      \"counts_full\": 3\n"
		  "    }\n"
		  "  },\n"
		  "  \"ranges\": [\n"
		  "    {\n"
		  "      \"arg\": \"prog:loops\",\n"
		  "      \"kind\": \"symbol in a binary\",\n"
		  "      \"binary\": \"/bin/prog\",\n"
		  "      \"other_binary\": null,\n"
		  "      \"symbol\": \"loops\",\n"
		  "      \"impl\": null,\n"
		  "      \"start\": \"0x1180\",\n"
		  "      \"end\": \"0x11d2\",\n"
		  "      \"bytes\": 82,\n"
		  "      \"unmapped\": false,\n"
		  "      \"samples\": 100,\n"
		  "      \"percent_of_targets\": 50.00,\n"
		  "      \"counted_in\": 2,\n"
		  "      \"processes\": [\n"
		  "        {\"pid\": 42, \"comm\": \"prog\\\"1\", \"samples\": 100}\n"
		  "      ],\n"
		  "      \"no_code\": null,\n"
		  "      \"no_source\": null,\n"
		  "      \"instructions\": [\n"
		  "        {\"address\": \"0x1180\", \"function\": \"loops\", \"offset\": 0, "
		  "\"samples\": 0, \"percent\": 0.00, \"file\": \"a.c\", \"line\": 26, "
		  "\"disasm\": \"push rbp\"},\n"
		  "        {\"address\": \"0x11a7\", \"function\": \"loops\", \"offset\": 39, "
		  "\"samples\": 80, \"percent\": 80.00, \"file\": \"a.c\", \"line\": 27, "
		  "\"disasm\": \"add rcx, 1\"},\n"
		  "        {\"address\": \"0x11c7\", \"function\": null, \"offset\": null, "
		  "\"samples\": 20, \"percent\": 20.00, \"file\": null, \"line\": null, "
		  "\"disasm\": null}\n"
		  "      ],\n"
		  "      \"source_lines\": [\n"
		  "        {\"file\": \"a.c\", \"line\": 27, \"samples\": 80, \"percent\": 80.00}\n"
		  "      ]\n"
		  "    },\n"
		  "    {\n"
		  "      \"arg\": \"libnope.so:f\",\n"
		  "      \"kind\": \"symbol in a binary\",\n"
		  "      \"binary\": \"libnope.so\",\n"
		  "      \"other_binary\": null,\n"
		  "      \"symbol\": null,\n"
		  "      \"impl\": null,\n"
		  "      \"start\": null,\n"
		  "      \"end\": null,\n"
		  "      \"bytes\": null,\n"
		  "      \"unmapped\": true,\n"
		  "      \"samples\": 0,\n"
		  "      \"percent_of_targets\": 0.00,\n"
		  "      \"counted_in\": 0,\n"
		  "      \"processes\": [],\n"
		  "      \"no_code\": null,\n"
		  "      \"no_source\": null,\n"
		  "      \"instructions\": [],\n"
		  "      \"source_lines\": []\n"
		  "    }\n"
		  "  ]\n"
		  "}\n",
		  "listing: the whole document");
	free(out);

	o = (struct output_opts){ .sort = SORT_SAMPLES, .disasm = false, .source = false };
	out = listing_doc(&ls, &o);
	a = out ? strstr(out, "\"0x1180\", \"function\"") : NULL;
	b = out ? strstr(out, "\"0x11a7\", \"function\"") : NULL;
	CHECK(a && b && b < a, "listing by samples: the hot instruction first");
	a = out ? strstr(out, "\"0x11c7\", \"function\"") : NULL;
	CHECK(a && b && b < a, "listing by samples: 80 before 20");
	CHECK(out && !strstr(out, "\"disasm\""), "--no-disasm: no disasm field");
	CHECK(out && !strstr(out, "\"file\"") && !strstr(out, "\"line\"") &&
		      !strstr(out, "\"source_lines\""),
	      "--no-source: no file, line, source_lines");
	free(out);

	f = full_stream();
	if (f) {
		CHECK(output_listing_json.write_listing(f, &ls, &o) == -EIO,
		      "listing: a write error is -EIO");
		fclose(f);
	}
}

int main(void)
{
	test_escaping();
	test_numbers();
	test_nesting();
	test_misuse();
	test_write_error();
	test_listing();
	return check_done();
}
