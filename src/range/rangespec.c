/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One RANGE argument of `bpfprof range` -> struct rangespec (pure). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "rangespec.h"

#define KERNEL_PREFIX "kernel"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int has_hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/*
 * "0x" and hex digits at @s into @out; *@end past them. Returns 0 or
 * -EINVAL with *@why set.
 */
static int parse_hex(const char *s, const char **end, uint64_t *out, const char **why)
{
	const char *p = s + 2;
	uint64_t v = 0;
	int d;

	if (!has_hex_prefix(s)) {
		*why = "addresses are hexadecimal and start with 0x";
		return -EINVAL;
	}
	if (number__hex_digit(*p) < 0) {
		*why = "expected hexadecimal digits after 0x";
		return -EINVAL;
	}
	for (; (d = number__hex_digit(*p)) >= 0; p++) {
		if (v > UINT64_MAX >> 4) {
			*why = "a number does not fit in 64 bits";
			return -EINVAL;
		}
		v = v << 4 | (uint64_t)d;
	}
	*end = p;
	*out = v;
	return 0;
}

/* Decimal digits at @s into @out; *@end past them. 0 or -EINVAL, *@why. */
static int parse_dec(const char *s, const char **end, uint64_t *out, const char **why)
{
	const char *p = s;
	uint64_t v = 0;

	if (!is_digit(*p)) {
		*why = "the length is not a number";
		return -EINVAL;
	}
	for (; is_digit(*p); p++) {
		unsigned int d = *p - '0';

		if (v > (UINT64_MAX - d) / 10) {
			*why = "a number does not fit in 64 bits";
			return -EINVAL;
		}
		v = v * 10 + d;
	}
	*end = p;
	*out = v;
	return 0;
}

/* "0xSTART-0xEND" or "0xSTART+LEN", the whole of @s, into [*@start, *@end). */
static int parse_addrs(const char *s, uint64_t *start, uint64_t *end, const char **why)
{
	uint64_t lo, hi, len;
	const char *p;
	int err;

	err = parse_hex(s, &p, &lo, why);
	if (err)
		return err;
	if (*p == '-') {
		p++;
		if (!*p) {
			*why = "the end address is missing";
			return -EINVAL;
		}
		err = parse_hex(p, &p, &hi, why);
	} else if (*p == '+') {
		p++;
		if (!*p) {
			*why = "the length is missing";
			return -EINVAL;
		}
		if (has_hex_prefix(p))
			err = parse_hex(p, &p, &len, why);
		else
			err = parse_dec(p, &p, &len, why);
		if (!err && len > UINT64_MAX - lo) {
			*why = "the range runs past the end of the address space";
			return -EINVAL;
		}
		hi = lo + len;
	} else {
		*why = "expected -0xEND or +LEN after the start address";
		return -EINVAL;
	}
	if (err)
		return err;
	if (*p) {
		*why = "junk after the end of the range";
		return -EINVAL;
	}
	if (hi <= lo) {
		*why = hi == lo ? "the range is empty" :
				  "the end address is not above the start";
		return -EINVAL;
	}
	*start = lo;
	*end = hi;
	return 0;
}

/*
 * The separator between BINARY and the rest: the first ':' that starts a
 * run of an odd number of colons. NULL when there is none.
 */
static const char *find_separator(const char *s)
{
	const char *p = s;
	size_t n;

	while ((p = strchr(p, ':'))) {
		n = strspn(p, ":");
		if (n % 2)
			return p;
		p += n;
	}
	return NULL;
}

/* Checks shared by every name: not empty, no space at either end. */
static int check_name(const char *s, size_t len, const char *empty, const char **why)
{
	if (!len) {
		*why = empty;
		return -EINVAL;
	}
	if (is_space(s[0]) || is_space(s[len - 1])) {
		*why = "a name starts or ends with a space";
		return -EINVAL;
	}
	return 0;
}

static int check_symbol(const char *s, bool kernel, const char **why)
{
	size_t len = strlen(s);
	int err;

	err = check_name(s, len, "the symbol name is empty", why);
	if (err)
		return err;
	if (is_digit(s[0])) {
		*why = "a symbol does not start with a digit (addresses start with 0x)";
		return -EINVAL;
	}
	if (kernel && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789_.$") != len) {
		*why = "not a kernel symbol name (a function in a binary is BINARY:SYMBOL)";
		return -EINVAL;
	}
	return 0;
}

static int check_binary(const char *s, size_t len, const char **why)
{
	int err;

	err = check_name(s, len, "the binary name is empty", why);
	if (err)
		return err;
	if (s[len - 1] == '/') {
		*why = "the binary path ends with '/'";
		return -EINVAL;
	}
	return 0;
}

/* Is the binary part "kernel"? */
static bool is_kernel(const char *s, size_t len)
{
	return len == strlen(KERNEL_PREFIX) && !strncmp(s, KERNEL_PREFIX, len);
}

/* The syntax of @arg into @r, without allocating: names point into @arg. */
static int rangespec__split(const char *arg, struct rangespec *r, const char **bin,
			    size_t *bin_len, const char **sym, const char **why)
{
	const char *sep = find_separator(arg), *rest = arg;
	int err;

	*bin = NULL;
	*sym = NULL;
	if (!*arg) {
		*why = "the range is empty";
		return -EINVAL;
	}
	if (sep) {
		rest = sep + 1;
		if (!is_kernel(arg, sep - arg)) {
			err = check_binary(arg, sep - arg, why);
			if (err)
				return err;
			*bin = arg;
			*bin_len = sep - arg;
		}
	}
	if (has_hex_prefix(rest)) {
		if (*bin)
			r->kind = RANGE_BIN_ADDR;
		else
			r->kind = sep ? RANGE_KERNEL_ADDR : RANGE_ABS_ADDR;
		return parse_addrs(rest, &r->start, &r->end, why);
	}
	r->kind = *bin ? RANGE_BIN_SYM : RANGE_KERNEL_SYM;
	*sym = rest;
	return check_symbol(rest, !*bin, why);
}

int rangespec__parse(const char *arg, struct rangespec *out, const char **why)
{
	struct rangespec r = { 0 };
	const char *bin, *sym, *reason = NULL;
	size_t bin_len = 0;
	int err;

	if (!arg) {
		err = -EINVAL;
		reason = "the range is empty";
		goto out;
	}
	err = rangespec__split(arg, &r, &bin, &bin_len, &sym, &reason);
	if (err)
		goto out;
	err = -ENOMEM;
	if (bin) {
		r.binary = strndup(bin, bin_len);
		if (!r.binary)
			goto out;
		r.binary_is_path = memchr(bin, '/', bin_len) != NULL;
	}
	if (sym) {
		r.symbol = strdup(sym);
		if (!r.symbol)
			goto out;
	}
	*out = r;
	return 0;
out:
	rangespec__free(&r);
	if (why)
		*why = err == -EINVAL ? reason : NULL;
	return err;
}

void rangespec__free(struct rangespec *r)
{
	if (!r)
		return;
	free(r->binary);
	free(r->symbol);
	*r = (struct rangespec){ 0 };
}

const char *range_spec__kind_name(enum range_kind kind)
{
	switch (kind) {
	case RANGE_KERNEL_SYM:
		return "kernel symbol";
	case RANGE_KERNEL_ADDR:
		return "kernel addresses";
	case RANGE_BIN_SYM:
		return "symbol in a binary";
	case RANGE_BIN_ADDR:
		return "addresses in a binary";
	case RANGE_ABS_ADDR:
		return "absolute addresses";
	}
	return "unknown";
}
