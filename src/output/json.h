/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A streaming JSON (RFC 8259) writer to a FILE *. The writer places the
 * commas, colons and white space; the caller says what comes next. Strings
 * are escaped: '"', '\\' and every control character (C0, DEL, C1); bytes that are not
 * valid UTF-8 become U+FFFD, so any C string gives a valid document.
 *
 * Errors are sticky: the first misuse (a key outside an object, a value
 * where a key is due, an end that does not match its begin, a second
 * top-level value, nesting deeper than JSON_MAX_DEPTH) makes that call and
 * every later one return -EINVAL and write nothing more. Write errors of the
 * stream are read once, by json__finish (ferror).
 *
 *	struct json_writer w;
 *
 *	json__init(&w, f, 2, 0);
 *	json__begin_object(&w);
 *	json__field_u64(&w, "version", 1);
 *	json__end_object(&w);
 *	err = json__finish(&w);
 */
#ifndef BPFPROF_JSON_H
#define BPFPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64 /* objects and arrays nested in each other */

struct json_writer {
	FILE *f;
	unsigned indent; /* spaces per level; 0: the whole document on one line */
	unsigned levels; /* containers deeper than this are written on one line */
	unsigned depth;  /* containers open */
	uint64_t objects; /* bit d: the container at depth d + 1 is an object */
	bool empty;       /* the innermost container has nothing yet */
	bool keyed;       /* a key was written: its value is next */
	bool done;        /* the top-level value is complete */
	int err;          /* the first error, sticky */
};

/*
 * Start a document on @f. @indent spaces per level (0: one line, no spaces
 * at all); with @indent, the members of containers deeper than @levels
 * share their container's line ("{"a": 1, "b": 2}"); @levels 0: none do.
 */
void json__init(struct json_writer *w, FILE *f, unsigned indent, unsigned levels);

/* Each returns 0 or -EINVAL (misuse, now or before). */
int json__begin_object(struct json_writer *w);
int json__end_object(struct json_writer *w);
int json__begin_array(struct json_writer *w);
int json__end_array(struct json_writer *w);
/* The name of the next member of the innermost object. */
int json__key(struct json_writer *w, const char *key);

/* A string; NULL writes null. */
int json__string(struct json_writer *w, const char *s);
/* @len bytes of @s, NUL bytes included (written as \u0000). */
int json__string_len(struct json_writer *w, const char *s, size_t len);
int json__u64(struct json_writer *w, uint64_t v);
int json__i64(struct json_writer *w, int64_t v);
/* @v with @decimals digits after the point; NaN and infinities write null. */
int json__double(struct json_writer *w, double v, int decimals);
int json__bool(struct json_writer *w, bool v);
int json__null(struct json_writer *w);
/*
 * @v as a string of hexadecimal digits after "0x" ("0x401136"): JSON
 * numbers are doubles to most readers, exact only up to 2^53.
 */
int json__hex(struct json_writer *w, uint64_t v);

/*
 * End the document: the top-level value must be complete. Writes a final
 * newline. 0, the first error, or -EIO when the stream had a write error.
 */
int json__finish(struct json_writer *w);

/* A member of an object: its key, then its value. */
static inline int json__field_string(struct json_writer *w, const char *key, const char *s)
{
	return json__key(w, key) ?: json__string(w, s);
}

static inline int json__field_u64(struct json_writer *w, const char *key, uint64_t v)
{
	return json__key(w, key) ?: json__u64(w, v);
}

static inline int json__field_i64(struct json_writer *w, const char *key, int64_t v)
{
	return json__key(w, key) ?: json__i64(w, v);
}

static inline int json__field_double(struct json_writer *w, const char *key, double v,
				     int decimals)
{
	return json__key(w, key) ?: json__double(w, v, decimals);
}

static inline int json__field_bool(struct json_writer *w, const char *key, bool v)
{
	return json__key(w, key) ?: json__bool(w, v);
}

static inline int json__field_null(struct json_writer *w, const char *key)
{
	return json__key(w, key) ?: json__null(w);
}

static inline int json__field_hex(struct json_writer *w, const char *key, uint64_t v)
{
	return json__key(w, key) ?: json__hex(w, v);
}

/* @v where it is @known, else null. */
static inline int json__field_u64_if(struct json_writer *w, const char *key, bool known,
				     uint64_t v)
{
	return json__key(w, key) ?: known ? json__u64(w, v) : json__null(w);
}

#endif /* BPFPROF_JSON_H */
