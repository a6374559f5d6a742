/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Numbers as given on the command line and in /proc: pure parsing. */
#ifndef BPFPROF_NUMBER_H
#define BPFPROF_NUMBER_H

#include <stddef.h>

/*
 * Parse the leading digits of @s into @out. Sets *@end past them.
 * Returns 0, -EINVAL (no digit) or -ERANGE (does not fit).
 */
int number__digits(const char *s, const char **end, unsigned long long *out);

/*
 * Parse a whole decimal unsigned integer in [min, max]: no sign, no
 * trailing garbage, no empty string. Returns 0, -EINVAL (not a number)
 * or -ERANGE (outside [min, max]).
 */
int number__parse_ull(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *out);

/*
 * Parse a duration in seconds: a positive decimal number ("10", "0.5").
 * Returns 0, -EINVAL or -ERANGE (zero, negative, or above a day * 365).
 */
int number__parse_seconds(const char *s, double *out);

/*
 * Parse a plain decimal number ("0.5", "3") in [min, max]. Returns 0,
 * -EINVAL or -ERANGE.
 */
int number__parse_decimal(const char *s, double min, double max, double *out);

/*
 * Parse a size in bytes: decimal digits with an optional binary suffix K,
 * M or G (KiB, MiB, GiB), in [min, max]. Returns 0, -EINVAL or -ERANGE.
 */
int number__parse_size(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out);

/*
 * Parse a whole unsigned 64-bit number: decimal, or hexadecimal after
 * "0x". Returns 0, -EINVAL (not such a number) or -ERANGE (too big).
 */
int number__parse_u64(const char *s, unsigned long long *out);

/* The value of hex digit @c, or -1. */
int number__hex_digit(char c);

#endif /* BPFPROF_NUMBER_H */
