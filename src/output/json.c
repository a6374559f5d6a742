// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The JSON writer (json.h): a state of the open containers (depth, which
 * are objects, whether the innermost has a member yet, whether a key waits
 * for its value) decides each comma, colon and line break, and refuses
 * what would not be JSON. Strings are escaped as RFC 8259 requires, and
 * bytes outside valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF; utf8.c) are written as U+FFFD, one per byte. C1
 * controls (U+0080-U+009F), which JSON allows raw, are written as \u0080..
 * \u009f, so a document shown on a terminal cannot drive it.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "json.h"
#include "utf8.h"

void json__init(struct json_writer *w, FILE *f, unsigned indent, unsigned levels)
{
	*w = (struct json_writer){ .f = f, .indent = indent, .levels = levels };
}

static int json__fail(struct json_writer *w)
{
	if (!w->err)
		w->err = -EINVAL;
	return w->err;
}

static bool json__in_object(const struct json_writer *w)
{
	return w->depth && (w->objects >> (w->depth - 1) & 1);
}

/* Are the members of the innermost container on lines of their own? */
static bool json__wrapped(const struct json_writer *w)
{
	return w->indent && (!w->levels || w->depth <= w->levels);
}

static void json__newline(struct json_writer *w, unsigned depth)
{
	putc('\n', w->f);
	for (unsigned i = 0; i < depth * w->indent; i++)
		putc(' ', w->f);
}

/*
 * Before a key (@key) or a value: check that it may come here, and write
 * what separates it from the previous member.
 */
static int json__before(struct json_writer *w, bool key)
{
	if (w->err)
		return w->err;
	if (!w->depth)
		return w->done || key ? json__fail(w) : 0;
	if (json__in_object(w)) {
		if (w->keyed && !key) { /* the value of the key just written */
			w->keyed = false;
			return 0;
		}
		if (w->keyed || !key)
			return json__fail(w);
	} else if (key) {
		return json__fail(w);
	}
	if (!w->empty)
		putc(',', w->f);
	if (json__wrapped(w))
		json__newline(w, w->depth);
	else if (!w->empty && w->indent)
		putc(' ', w->f);
	w->empty = false;
	return 0;
}

/* After a value: a top-level one is the whole document. */
static int json__after(struct json_writer *w)
{
	if (!w->depth)
		w->done = true;
	return 0;
}

static int json__begin(struct json_writer *w, bool object)
{
	int err = json__before(w, false);

	if (err)
		return err;
	if (w->depth == JSON_MAX_DEPTH)
		return json__fail(w);
	if (object)
		w->objects |= UINT64_C(1) << w->depth;
	else
		w->objects &= ~(UINT64_C(1) << w->depth);
	w->depth++;
	w->empty = true;
	putc(object ? '{' : '[', w->f);
	return 0;
}

static int json__end(struct json_writer *w, bool object)
{
	if (w->err)
		return w->err;
	if (!w->depth || json__in_object(w) != object || w->keyed)
		return json__fail(w);
	if (!w->empty && json__wrapped(w))
		json__newline(w, w->depth - 1);
	putc(object ? '}' : ']', w->f);
	w->depth--;
	w->empty = false;
	return json__after(w);
}

int json__begin_object(struct json_writer *w)
{
	return json__begin(w, true);
}

int json__end_object(struct json_writer *w)
{
	return json__end(w, true);
}

int json__begin_array(struct json_writer *w)
{
	return json__begin(w, false);
}

int json__end_array(struct json_writer *w)
{
	return json__end(w, false);
}

/* The escape of byte @c, or NULL when it stands for itself. */
static const char *json__escape(unsigned char c, char *buf, size_t size)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	}
	if (c >= 0x20 && c != 0x7f)
		return NULL;
	snprintf(buf, size, "\\u%04x", c);
	return buf;
}

static void json__write_string(struct json_writer *w, const unsigned char *s, size_t len)
{
	size_t run = 0; /* start of the bytes not yet written, which need no escape */
	size_t i = 0;

	putc('"', w->f);
	while (i < len) {
		uint32_t cp = 0;
		size_t n = utf8__valid_len(s + i, len - i, &cp);
		const char *esc;
		char buf[8];

		if (!n) {
			esc = "\\ufffd"; /* not UTF-8: this byte alone */
		} else if (n == 1) {
			esc = json__escape(s[i], buf, sizeof(buf));
		} else if (cp <= 0x9f) { /* a C1 control */
			snprintf(buf, sizeof(buf), "\\u%04x", (unsigned)cp);
			esc = buf;
		} else {
			esc = NULL;
		}
		if (!esc) {
			i += n;
			continue;
		}
		fwrite(s + run, 1, i - run, w->f);
		fputs(esc, w->f);
		i += n ? n : 1;
		run = i;
	}
	fwrite(s + run, 1, len - run, w->f);
	putc('"', w->f);
}

int json__key(struct json_writer *w, const char *key)
{
	int err = key ? json__before(w, true) : json__fail(w);

	if (err)
		return err;
	json__write_string(w, (const unsigned char *)key, strlen(key));
	putc(':', w->f);
	if (w->indent)
		putc(' ', w->f);
	w->keyed = true;
	return 0;
}

int json__string_len(struct json_writer *w, const char *s, size_t len)
{
	int err = json__before(w, false);

	if (err)
		return err;
	json__write_string(w, (const unsigned char *)s, len);
	return json__after(w);
}

int json__string(struct json_writer *w, const char *s)
{
	return s ? json__string_len(w, s, strlen(s)) : json__null(w);
}

/* A literal or number, written as it is: true, false, null, 42. */
static int json__literal(struct json_writer *w, const char *lit)
{
	int err = json__before(w, false);

	if (err)
		return err;
	fputs(lit, w->f);
	return json__after(w);
}

int json__u64(struct json_writer *w, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json__literal(w, buf);
}

int json__i64(struct json_writer *w, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return json__literal(w, buf);
}

int json__double(struct json_writer *w, double v, int decimals)
{
	char buf[DBL_MAX_10_EXP + 32]; /* sign, every digit of DBL_MAX, point, decimals */

	if (decimals < 0 || decimals > 17)
		return json__fail(w);
	if (!isfinite(v))
		return json__null(w);
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json__literal(w, buf);
}

int json__bool(struct json_writer *w, bool v)
{
	return json__literal(w, v ? "true" : "false");
}

int json__null(struct json_writer *w)
{
	return json__literal(w, "null");
}

int json__hex(struct json_writer *w, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "\"0x%" PRIx64 "\"", v);
	return json__literal(w, buf);
}

int json__finish(struct json_writer *w)
{
	if (w->err)
		return w->err;
	if (!w->done)
		return json__fail(w);
	putc('\n', w->f);
	return ferror(w->f) ? -EIO : 0;
}
