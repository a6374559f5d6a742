/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Address -> frames. Each binary is loaded once (binsym.c), the first time
 * one of its addresses is asked for, however many processes map it; each
 * unique (binary, offset), JIT and kernel address is resolved once.
 * libelf and libdw stay behind elfsymtab.c and srcinfo.c.
 */
#ifndef BPFPROF_SYMBOLIZER_H
#define BPFPROF_SYMBOLIZER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "binsym.h"
#include "demangle.h"
#include "proc.h"

struct symbolizer;

/* The symbol options of the command line. */
struct symbol_opts {
	enum demangle_mode demangle; /* how user-space C++ and Rust names are shown */
	bool inlines;                /* inline chains from DWARF */
	bool lines;                  /* source lines from DWARF */
	/* debug file and vmlinux roots: --debug-dir ones, then /usr/lib/debug,
	   NULL-terminated; NULL: /usr/lib/debug */
	const char **debug_dirs;
	size_t nr_debug_dirs;        /* --debug-dir ones */
};

/* @kallsyms: a kallsyms file, or NULL for no kernel symbols. */
struct symbolizer *symbolizer__new(struct proc_table *pt, const struct symbol_opts *o,
				   const char *kallsyms);
void symbolizer__free(struct symbolizer *s);

/*
 * The frames of a user address of @tgid (whose sample had @comm),
 * outermost first: the function, then the calls inlined into it
 * (FRAME_INLINE). @ret: the address is a return address, so the call
 * before it is looked up. Code outside any file is looked up in the
 * process's JIT map (/tmp/perf-PID.map; FRAME_JIT). Names without a symbol
 * are "[binary+0xOFFSET]", "[anon+0xADDR]" (no file) or "[unmapped+0xADDR]"
 * (no known mapping). NULL only on ENOMEM. Lives as long as @s.
 */
const struct symloc *symbolizer__user(struct symbolizer *s, pid_t tgid, const char *comm,
				      uint64_t addr, bool ret);
/*
 * A kernel frame: "func", "func [module]" or "[kernel+0xADDR]". When lines
 * or inlines are wanted and the running kernel's vmlinux with DWARF is
 * found (kvmlinux.c, under the debug roots too), a vmlinux function gets
 * its file and line, and with inlines the calls inlined at the address
 * after it, FRAME_KERNEL as well.
 */
const struct symloc *symbolizer__kernel(struct symbolizer *s, uint64_t addr, bool ret);
/*
 * Read what @tgid's JIT map gained since the last call, while the process
 * runs (the map may be gone by the end: a container's /tmp).
 */
void symbolizer__refresh_jit(struct symbolizer *s, pid_t tgid);
/*
 * Binaries whose debug file candidate or MiniDebugInfo was refused (not a
 * regular file, a decompression bomb); *@first: the first, "PATH: why".
 */
size_t symbolizer__files_refused(const struct symbolizer *s, const char **first);
/* JIT maps refused (not owned by the process's user or root); *@pid: the first. */
size_t symbolizer__perfmaps_refused(const struct symbolizer *s, pid_t *pid);
/* kallsyms could not be read or its addresses are hidden (kptr_restrict). */
bool symbolizer__kernel_hidden(const struct symbolizer *s);

#endif /* BPFPROF_SYMBOLIZER_H */
