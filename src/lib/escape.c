// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Escaping of names from outside: control bytes and invalid UTF-8 as \xHH. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "number.h"
#include "utf8.h"

/*
 * How many bytes at @s (@n left) go out as they are (*@esc false), or as
 * the escape written to @out (*@esc true): "\\" or one "\xHH" per byte.
 */
static size_t escape__next(const unsigned char *s, size_t n, char out[16], bool *esc)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp = 0;
	size_t len = utf8__valid_len(s, n, &cp);
	char *o = out;

	*esc = !len || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == '\\';
	if (!len)
		len = 1; /* not UTF-8: this byte alone */
	if (!*esc)
		return len;
	if (cp == '\\' && len == 1) {
		strcpy(out, "\\\\");
		return len;
	}
	for (size_t i = 0; i < len; i++) {
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[s[i] >> 4];
		*o++ = hex[s[i] & 15];
	}
	*o = '\0';
	return len;
}

bool escape__needed(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		char out[16];
		bool esc;

		i += escape__next((const unsigned char *)s + i, n - i, out, &esc);
		if (esc)
			return true;
	}
	return false;
}

int escape__write(FILE *f, const char *s, size_t n)
{
	size_t run = 0;

	for (size_t i = 0; i < n;) {
		char out[16];
		bool esc;
		size_t len = escape__next((const unsigned char *)s + i, n - i, out, &esc);

		if (esc) {
			fwrite(s + run, 1, i - run, f);
			fputs(out, f);
			run = i + len;
		}
		i += len;
	}
	fwrite(s + run, 1, n - run, f);
	return ferror(f) ? -EIO : 0;
}

size_t escape__str(char *buf, size_t size, const char *s)
{
	size_t n = strlen(s), at = 0, put = 0; /* the whole length; what is in @buf */

	for (size_t i = 0; i < n;) {
		char out[16];
		bool esc;
		size_t len = escape__next((const unsigned char *)s + i, n - i, out, &esc);
		size_t plen = esc ? strlen(out) : len;

		if (put == at && put + plen < size) { /* nothing cut yet, and this fits */
			memcpy(buf + put, esc ? out : s + i, plen);
			put += plen;
		}
		at += plen;
		i += len;
	}
	if (size)
		buf[put] = '\0';
	return at;
}

char *escape__dup(const char *s)
{
	size_t len = escape__str(NULL, 0, s);
	char *d = malloc(len + 1);

	if (d)
		escape__str(d, len + 1, s);
	return d;
}

size_t escape__undo(char *out, const char *s, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		int hi, lo;

		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\') {
			out[len++] = '\\';
			i++;
		} else if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' &&
			   (hi = number__hex_digit(s[i + 2])) >= 0 && (lo = number__hex_digit(s[i + 3])) >= 0 &&
			   (hi | lo)) {
			out[len++] = (char)(hi << 4 | lo);
			i += 3;
		} else {
			out[len++] = s[i];
		}
	}
	out[len] = '\0';
	return len;
}

/* escape__stream's writes: each line escaped onto the stream, its newline kept */
static ssize_t escape__stream_write(void *cookie, const char *buf, size_t size)
{
	FILE *to = cookie;
	const char *nl;

	for (size_t at = 0; at < size; at = nl ? (size_t)(nl - buf) + 1 : size) {
		nl = memchr(buf + at, '\n', size - at);
		if (escape__write(to, buf + at, (nl ? (size_t)(nl - buf) : size) - at))
			return -1;
		if (nl && fputc('\n', to) == EOF)
			return -1;
	}
	return (ssize_t)size;
}

FILE *escape__stream(FILE *to)
{
	FILE *f = fopencookie(to, "w", (cookie_io_functions_t){ .write = escape__stream_write });

	/* line-buffered: a line reaches the escaping whole, UTF-8 uncut */
	if (f && setvbuf(f, NULL, _IOLBF, 1 << 16)) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}
