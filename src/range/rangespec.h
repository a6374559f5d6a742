/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One RANGE argument of `bpfprof range`, parsed purely syntactically: no
 * symbol is resolved and no file is read.
 *
 *   SYMBOL, kernel:SYMBOL           a kernel function
 *   kernel:0xSTART-0xEND            kernel addresses (also kernel:0xSTART+LEN)
 *   BINARY:SYMBOL                   a function in an executable or library
 *   BINARY:0xSTART-0xEND            ELF virtual addresses in that binary
 *   BINARY:0xSTART+LEN
 *   0xSTART-0xEND, 0xSTART+LEN      absolute addresses
 *
 * The separator is the first ':' that starts a run of an odd number of
 * colons; a run of an even number is part of a name. So C++ and Rust names
 * keep their "::" ("libfoo.so:ns::f" is binary "libfoo.so", symbol
 * "ns::f"; "libfoo.so:::f" is symbol "::f"), and so do Go names with a
 * single ':' after the separator ("prog:type:.eq.T"). A binary path that
 * itself holds a lone ':' cannot be written: name it through a symlink.
 * "kernel" before the separator always means the kernel; a file called
 * "kernel" is "./kernel".
 *
 * BINARY is a path when it holds a '/', else a file name matched against
 * the mapped files' names ("libc.so.6"). Addresses are hexadecimal with
 * "0x"; LEN is decimal or "0x" hexadecimal. END is exclusive and must be
 * above START; START + LEN must not pass 2^64 - 1. A kernel symbol is made
 * of letters, digits, '_', '.' and '$' (what kallsyms holds); a symbol in a
 * binary may hold anything ("ns::Foo<int>::bar(double) const") but must not
 * start with a digit or a space, nor end with a space.
 */
#ifndef BPFPROF_RANGESPEC_H
#define BPFPROF_RANGESPEC_H

#include <stdbool.h>
#include <stdint.h>

enum range_kind {
	RANGE_KERNEL_SYM, /* SYMBOL, kernel:SYMBOL: symbol */
	RANGE_KERNEL_ADDR, /* kernel:0xSTART-0xEND: start, end */
	RANGE_BIN_SYM, /* BINARY:SYMBOL: binary, symbol */
	RANGE_BIN_ADDR, /* BINARY:0xSTART-0xEND: binary, start, end (ELF vaddrs) */
	RANGE_ABS_ADDR, /* 0xSTART-0xEND: start, end */
};

struct rangespec {
	enum range_kind kind;
	char *binary; /* RANGE_BIN_*: malloc'd; else NULL */
	bool binary_is_path; /* binary holds a '/' (else a file name) */
	char *symbol; /* RANGE_*_SYM: malloc'd; else NULL */
	uint64_t start, end; /* RANGE_*_ADDR: [start, end), end > start; else 0 */
};

/*
 * Parse @arg into @out. Returns 0, -EINVAL when @arg is not a valid range
 * (*@why, if @why is not NULL, then points at a static reason such as "the
 * end address is not above the start", for "invalid range 'ARG': WHY"), or
 * -ENOMEM (*@why is NULL). On error @out is untouched.
 */
int rangespec__parse(const char *arg, struct rangespec *out, const char **why);

/* Free the strings of @r and clear it; NULL and a cleared spec are harmless. */
void rangespec__free(struct rangespec *r);

/* "kernel symbol", "kernel addresses", ...: for messages. */
const char *range_spec__kind_name(enum range_kind kind);

#endif /* BPFPROF_RANGESPEC_H */
