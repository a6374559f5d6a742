/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fuzzer's bytes in the shape a parser takes them: a C string, a file
 * descriptor, a FILE. The targets call the parsers' real entry points.
 */
#ifndef BPFPROF_FUZZINPUT_H
#define BPFPROF_FUZZINPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A malloc'd copy of @size bytes at @data and a NUL (an inner NUL ends it early). NULL: ENOMEM. */
char *fuzz_input__string(const uint8_t *data, size_t size);

/* A memfd holding the @size bytes at @data, at offset 0; -errno on failure. */
int fuzz_input__memfd(const uint8_t *data, size_t size);

/* The same bytes as a FILE open for reading (its memfd closes with it); NULL + errno. */
FILE *fuzz_input__file(const uint8_t *data, size_t size);

#endif /* BPFPROF_FUZZINPUT_H */
