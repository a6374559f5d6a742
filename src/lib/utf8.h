/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates, nothing
 * above U+10FFFF. The one validator the JSON writer and the escaping of
 * names from outside (escape.c) share.
 */
#ifndef BPFPROF_UTF8_H
#define BPFPROF_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The length (1 to 4) of the valid UTF-8 sequence at @s, @n bytes left
 * (@n >= 1), and its code point in *@cp; 0 when the byte at @s starts no
 * valid sequence.
 */
size_t utf8__valid_len(const unsigned char *s, size_t n, uint32_t *cp);

#endif /* BPFPROF_UTF8_H */
