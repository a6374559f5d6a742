/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Numbers as given on the command line and in /proc: pure parsing. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

#define SECONDS_MAX (365.0 * 24 * 60 * 60)

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int number__digits(const char *s, const char **end, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *p = s;

	*end = s;
	if (!is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		unsigned int d = *p - '0';

		if (v > (ULLONG_MAX - d) / 10) {
			while (is_digit(*p))
				p++;
			*end = p;
			return -ERANGE;
		}
		v = v * 10 + d;
	}
	*end = p;
	*out = v;
	return 0;
}

int number__parse_ull(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *out)
{
	unsigned long long v = 0;
	const char *end;
	int err;

	if (!s)
		return -EINVAL;
	err = number__digits(s, &end, &v);
	if (*end)
		return -EINVAL;
	if (err)
		return err;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int number__parse_u64(const char *s, unsigned long long *out)
{
	unsigned long long v = 0;
	const char *end;
	int d, err;

	if (!s)
		return -EINVAL;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
		err = number__digits(s, &end, &v);
		if (*end)
			return -EINVAL;
		if (!err)
			*out = v;
		return err;
	}
	s += 2;
	if (number__hex_digit(*s) < 0)
		return -EINVAL;
	for (; (d = number__hex_digit(*s)) >= 0; s++) {
		if (v > ULLONG_MAX >> 4)
			return -ERANGE;
		v = v << 4 | (unsigned long long)d;
	}
	if (*s)
		return -EINVAL;
	*out = v;
	return 0;
}

int number__parse_size(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out)
{
	static const char units[] = "KMG";
	unsigned long long v = 0;
	const char *end, *u;
	int err, shift = 0;

	if (!s)
		return -EINVAL;
	err = number__digits(s, &end, &v);
	if (*end) {
		u = strchr(units, *end);
		if (!u || !*u || end[1])
			return -EINVAL;
		shift = 10 * (int)(u - units + 1);
	}
	if (err)
		return err;
	if (v > (~0ull >> shift))
		return -ERANGE;
	v <<= shift;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* "[-]digits[.digits]" or "[-].digits": plain decimal, no exponent, hex, inf. */
static int is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '-')
		s++;
	for (; is_digit(*s); s++)
		digits++;
	if (*s == '.')
		for (s++; is_digit(*s); s++)
			digits++;
	return digits > 0 && *s == '\0';
}

int number__parse_seconds(const char *s, double *out)
{
	double v;

	if (!s || !is_decimal(s))
		return -EINVAL;
	v = strtod(s, NULL);
	if (!(v > 0) || v > SECONDS_MAX)
		return -ERANGE;
	*out = v;
	return 0;
}

int number__parse_decimal(const char *s, double min, double max, double *out)
{
	double v;

	if (!s || !is_decimal(s))
		return -EINVAL;
	v = strtod(s, NULL);
	if (!(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

int number__hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
