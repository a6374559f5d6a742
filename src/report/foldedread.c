// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Folded stacks read back: "FRAME;FRAME;... COUNT" lines, each checked. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "escape.h"
#include "foldedread.h"
#include "number.h"
#include "pprof-proto.h"

struct foldedread {
	struct profile *p;
	struct frame *frames;
	size_t cap_frames;
	char *names; /* the line's names, unescaped, NUL after each */
	size_t cap_names;
	size_t lineno;
	uint32_t kernel_bin, anon_bin; /* the pseudo-binaries of kernel and JIT frames */
	char *why;
	size_t size;
};

/* "line N: " + @fmt into the error buffer; -EINVAL. */
static int __attribute__((format(printf, 2, 3)))
foldedread__bad(struct foldedread *r, const char *fmt, ...)
{
	int n = snprintf(r->why, r->size, "line %zu: ", r->lineno);
	va_list ap;

	if (n >= 0 && (size_t)n < r->size) {
		va_start(ap, fmt);
		vsnprintf(r->why + n, r->size - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The kind a frame's suffix gives, and its name's length without it. */
static enum frame_kind foldedread__kind(const char *s, size_t *n)
{
	static const struct {
		const char *suffix;
		enum frame_kind kind;
	} kinds[] = {
		{ "_[k]", FRAME_KERNEL },
		{ "_[i]", FRAME_INLINE },
		{ "_[j]", FRAME_JIT },
	};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (*n > 4 && !memcmp(s + *n - 4, kinds[i].suffix, 4)) {
			*n -= 4;
			return kinds[i].kind;
		}
	return FRAME_USER;
}

/* Is the end of [s, s + n) " DIGITS": a second count (a diff's "stack base new")? */
static bool foldedread__ends_in_count(const char *s, size_t n)
{
	size_t d = 0;

	while (d < n && s[n - 1 - d] >= '0' && s[n - 1 - d] <= '9')
		d++;
	return d && d < n && s[n - 1 - d] == ' ';
}

/* The @n bytes of a line at @s (no newline). */
static int foldedread__line(struct foldedread *r, const char *s, size_t n)
{
	struct profile_sample ps = { 0 };
	const char *sp, *at, *end;
	char digits[24];
	unsigned long long count;
	size_t nr = 0, used = 0;

	if (n && s[n - 1] == '\r')
		n--;
	if (!n)
		return 0;
	if (memchr(s, '\0', n))
		return foldedread__bad(r, "a NUL byte: expected text, 'FRAME;FRAME;... COUNT'");
	sp = memrchr(s, ' ', n);
	if (!sp)
		return foldedread__bad(r, "no count: expected 'FRAME;FRAME;... COUNT'");
	if ((size_t)(s + n - (sp + 1)) >= sizeof(digits)) {
		memcpy(digits, sp + 1, 20);
		digits[20] = '\0';
		return foldedread__bad(r, "count '%s...' is too long: expected an integer "
				       "from 0 to 2^63 - 1", digits);
	}
	memcpy(digits, sp + 1, s + n - (sp + 1));
	digits[s + n - (sp + 1)] = '\0';
	if (number__parse_ull(digits, 0, ~0ull >> 1, &count))
		return foldedread__bad(r, "count '%s' is not an integer from 0 to 2^63 - 1: "
				       "expected 'FRAME;FRAME;... COUNT'", digits);
	if (sp == s)
		return foldedread__bad(r, "no frames before the count: expected "
				       "'FRAME;FRAME;... COUNT'");
	if (foldedread__ends_in_count(s, sp - s))
		return foldedread__bad(r, "two counts: a differential file (bpfprof diff's "
				       "'STACK BASE NEW') is not a profile; expected "
				       "'FRAME;FRAME;... COUNT'");
	if (!count)
		return 0;
	if (array__grow((void **)&r->names, &r->cap_names, sp - s + 1, 1))
		return -ENOMEM;
	for (at = s; at <= sp; at = end + 1) {
		size_t len;
		enum frame_kind kind;

		end = memchr(at, ';', sp - at);
		end = end ? end : sp;
		len = end - at;
		if (!len)
			return foldedread__bad(r, "frame %zu is empty: expected a name between "
					       "';'", nr + 1);
		kind = foldedread__kind(at, &len);
		if (array__grow((void **)&r->frames, &r->cap_frames, nr + 1, sizeof(*r->frames)))
			return -ENOMEM;
		r->frames[nr] = (struct frame){ .name = r->names + used, .kind = kind };
		used += escape__undo(r->names + used, at, len) + 1;
		if (kind == FRAME_USER && pprof_proto__mark(r->frames[nr].name))
			r->frames[nr].kind = FRAME_MARK;
		/* as record's: so a pprof written from it reads back the same kinds */
		if (kind == FRAME_KERNEL || kind == FRAME_JIT) {
			bool k = kind == FRAME_KERNEL;
			uint32_t *bin = k ? &r->kernel_bin : &r->anon_bin;
			int err = *bin ? 0 : profile__bin(r->p, k ? "[kernel.kallsyms]" : "[anon]",
							  NULL, bin);

			if (err)
				return err;
			r->frames[nr].bin = *bin;
		}
		nr++;
	}
	if (nr > UINT32_MAX)
		return -E2BIG;
	ps.comm = "";
	ps.frames = r->frames;
	ps.nr = (uint32_t)nr;
	ps.count = count;
	return profile__add(r->p, &ps);
}

int foldedread__parse(struct profile *p, const char *buf, size_t len, char *why, size_t size)
{
	struct foldedread r = { .p = p, .why = why, .size = size };
	int err = 0;

	p->no_procs = true;
	p->keep_bins = true;
	for (size_t at = 0; at < len && !err;) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;

		r.lineno++;
		if (n > FOLDEDREAD_MAX_LINE)
			err = foldedread__bad(&r, "%zu bytes long: expected at most %u a line",
					      n, FOLDEDREAD_MAX_LINE);
		else
			err = foldedread__line(&r, buf + at, n);
		at += n + 1;
	}
	free(r.frames);
	free(r.names);
	return err;
}
