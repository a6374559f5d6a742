/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Folded stacks read back into a profile (bpfprof report, diff): one
 * "FRAME;FRAME;... COUNT" line per stack, root first, as bpfprof record,
 * flamegraph.pl's stackcollapse scripts and inferno write them. The input
 * is from outside: every line is checked, none is longer than
 * FOLDEDREAD_MAX_LINE bytes, and a bad one is refused with its number.
 */
#ifndef BPFPROF_FOLDEDREAD_H
#define BPFPROF_FOLDEDREAD_H

#include <stddef.h>

#include "profile.h"

/* The longest line read: a stack of a million bytes of names. */
#define FOLDEDREAD_MAX_LINE (1u << 20)

/*
 * Add the stacks of the @len bytes at @buf to @p. A file names no process
 * the way a pprof's labels do, so the first frame is a frame like the
 * others and @p gets no_procs (written back, the line reads the same).
 * Frames ending in "_[k]", "_[i]" and "_[j]" are kernel, inlined and JIT
 * frames (the suffix is the kind, not the name), one in brackets without
 * "+0x" ("[truncated]") a mark; names are unescaped (escape__undo). Kernel
 * and JIT frames get record's pseudo-binaries "[kernel.kallsyms]" and
 * "[anon]" (a pprof written from them keeps their kinds). Blank
 * lines and counts of 0 add nothing. 0, or -EINVAL with the line's number,
 * what was wrong and what was expected in @why; -ENOMEM, -E2BIG.
 */
int foldedread__parse(struct profile *p, const char *buf, size_t len, char *why, size_t size);

#endif /* BPFPROF_FOLDEDREAD_H */
