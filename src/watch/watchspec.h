/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch` arguments, parsed purely syntactically: no symbol is
 * resolved and no file is read.
 *
 * LOCATION:
 *   SYMBOL                 a symbol of the target's executable
 *   BINARY:SYMBOL          a symbol of a library (or executable) the target maps
 *   0xADDRESS              an address of the one target process
 *   kernel:SYMBOL          kernel data (system-wide, -a)
 * each followed by an optional +OFFSET (decimal or 0x hex), then an
 * optional :LEN (1, 2, 4 or 8 bytes), then an optional *COUNT (COUNT
 * consecutive elements of LEN bytes, each a location: watchset.h). The
 * separator of BINARY:SYMBOL is the first ':' that is not part
 * of a "::" (C++ names keep theirs). A symbol must not start with a digit.
 *
 * --access: w, r, rw or x. --if: terms joined by "&&", each
 *   OPERAND[&MASK] OP CONSTANT
 * OPERAND: value, tid, pid, ip (rip), sp (rsp), rax, rbx, rcx, rdx, rsi, rdi,
 * rbp, r8 ... r15; OP: == != < <= > >=; CONSTANT and MASK decimal or 0x
 * hex; a constant written with a sign (-1, +5) makes the comparison
 * signed (value sign-extended from its length), else it is unsigned.
 */
#ifndef BPFPROF_WATCHSPEC_H
#define BPFPROF_WATCHSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfprof.h"

enum watch_kind {
	WATCH_EXE_SYM,    /* SYMBOL: symbol */
	WATCH_BIN_SYM,    /* BINARY:SYMBOL: binary, symbol */
	WATCH_ABS_ADDR,   /* 0xADDRESS: addr */
	WATCH_KERNEL_SYM, /* kernel:SYMBOL: symbol */
};

enum watch_access {
	WATCH_ACCESS_W,
	WATCH_ACCESS_R,
	WATCH_ACCESS_RW,
	WATCH_ACCESS_X,
};

struct watchspec {
	enum watch_kind kind;
	char *binary;    /* WATCH_BIN_SYM: malloc'd; else NULL */
	char *symbol;    /* WATCH_*_SYM: malloc'd; else NULL */
	uint64_t addr;   /* WATCH_ABS_ADDR */
	uint64_t offset; /* +OFFSET; 0 when not given */
	unsigned int len; /* :LEN; 0 when not given (the symbol's size) */
	unsigned long long count; /* *COUNT; 1 when not given */
};

/*
 * Parse LOCATION @arg into @out. 0, -EINVAL (*@why, if not NULL, points at
 * a static reason, for "invalid location 'ARG': WHY") or -ENOMEM (*@why
 * NULL). On error @out is untouched.
 */
int watchspec__parse(const char *arg, struct watchspec *out, const char **why);
/* Free the strings of @w and clear it; NULL and a cleared spec are harmless. */
void watchspec__free(struct watchspec *w);

/* --access=w|r|rw|x. 0 or -EINVAL. */
int watchspec__parse_access(const char *arg, enum watch_access *out);
/* "w", "r", "rw", "x". */
const char *watch_spec__access_name(enum watch_access a);

/*
 * --if EXPR into @terms (room for WATCH_MAX_TERMS), *@nr of them. 0, or
 * -EINVAL with @why (@len bytes) naming the term and what was expected.
 */
int watchspec__parse_if(const char *expr, struct watch_term *terms, unsigned int *nr,
			char *why, size_t len);

#endif /* BPFPROF_WATCHSPEC_H */
