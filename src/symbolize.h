/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Address -> function name. Each binary's symbol table is read once, the
 * first time one of its addresses is asked for, however many processes map
 * it; each unique (binary, offset) and kernel address is resolved once.
 * libelf stays behind elfsyms.c; this file sees only names and offsets.
 */
#ifndef BPFPROF_SYMBOLIZE_H
#define BPFPROF_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "demangle.h"
#include "proc.h"

struct symbolizer;

/*
 * @kallsyms: path of a kallsyms file, or NULL for no kernel symbols.
 * @demangle: how user-space C++ and Rust names are shown.
 */
struct symbolizer *symbolizer__new(struct proc_table *pt, const char *kallsyms,
				   enum demangle_mode demangle);
void symbolizer__free(struct symbolizer *s);

/*
 * The name of a user frame of @tgid (whose sample had @comm). @ret: the
 * address is a return address, so the call before it is looked up. Code
 * outside any file is looked up in the process's JIT map
 * (/tmp/perf-PID.map; *@jit set when it names it). Names without a symbol are "[binary+0xOFFSET]", "[anon+0xADDR]" (no file) or
 * "[unmapped+0xADDR]" (no known mapping). NULL only on ENOMEM. The string
 * lives as long as @s.
 */
const char *symbolizer__user(struct symbolizer *s, pid_t tgid, const char *comm,
			     uint64_t addr, bool ret, bool *jit);
/* A kernel frame: "func", "func [module]" or "[kernel+0xADDR]". */
const char *symbolizer__kernel(struct symbolizer *s, uint64_t addr, bool ret);
/* JIT maps refused (not owned by the process's user or root); *@pid: the first. */
size_t symbolizer__perfmaps_refused(const struct symbolizer *s, pid_t *pid);
/* kallsyms could not be read or its addresses are hidden (kptr_restrict). */
bool symbolizer__kernel_hidden(const struct symbolizer *s);

#endif /* BPFPROF_SYMBOLIZE_H */
