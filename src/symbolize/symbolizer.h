/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Address -> frames. Each binary is loaded once (binsym.c), the first time
 * one of its addresses is asked for, however many processes map it; each
 * unique (binary, offset), JIT and kernel address is resolved once; each
 * DWARF file is indexed once for all the binaries using it (srccache.c).
 * libelf and libdw stay behind elfsymtab.c and srcinfo.c.
 */
#ifndef BPFPROF_SYMBOLIZER_H
#define BPFPROF_SYMBOLIZER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "binsym.h"
#include "demangler.h"
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
	uint64_t jit_map_max;        /* bytes read of a JIT map at most (--jit-map-max) */
};

/* The JIT map bounds (--jit-map-max): the default, and the range taken. */
#define JIT_MAP_MAX_DEFAULT (UINT64_C(64) << 20)
#define JIT_MAP_MAX_MIN (UINT64_C(4) << 10)
#define JIT_MAP_MAX_MAX (UINT64_C(4) << 30)

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
/*
 * Binaries of the frames symbolized so far that our user may not read
 * (binary.denied: they name nothing); *@first: the first one's path.
 */
size_t symbolizer__binaries_denied(const struct symbolizer *s, const char **first);
/* JIT maps refused (not owned by the process's user or root); *@pid: the first. */
size_t symbolizer__perfmaps_refused(const struct symbolizer *s, pid_t *pid);
/*
 * Once *@stop is set (by a signal handler: the user wants the profile now),
 * no file is read any more: binaries not yet read, their DWARF, debug
 * files, debuginfod downloads (given up within a second), vmlinux and JIT
 * maps are left out, and their frames stay "[binary+0xOFFSET]" or
 * "[anon+0xADDR]". What was read already still names frames.
 */
void symbolizer__set_stop(struct symbolizer *s, const volatile sig_atomic_t *stop);
/*
 * A debuginfod query was given up since the last call because a blocked
 * stop signal became pending (the caller samples and must read it): the
 * frames named since may lack names the binary will have when asked again,
 * as it will be, from scratch.
 */
bool symbolizer__take_interrupted(struct symbolizer *s);
/* Process @tgid is forgotten (its samples are symbolized): free its JIT map, if read. */
bool symbolizer__forget_process(struct symbolizer *s, pid_t tgid);
/*
 * Binary @b is about to be freed (mapped by no process any more): free
 * what was read of it. The names given out before stay valid only where
 * they were copied (the profile copies them).
 */
void symbolizer__forget_binary(struct symbolizer *s, const struct binary *b);
/* Binaries left unread, or read in part, because the stop came first. */
size_t symbolizer__skipped(const struct symbolizer *s);
/*
 * DWARF files indexed, and the times a binary got one indexed already (the
 * same file: another mount namespace's binary of it, or a binary read
 * anew) instead of indexing it again (srccache.h).
 */
void symbolizer__dwarf_stats(const struct symbolizer *s, size_t *indexed, size_t *reused);
/*
 * JIT maps read only in part, at a cap (jit_map_max); *@pid: the first,
 * *@ignored: the bytes of them not read.
 */
size_t symbolizer__perfmaps_capped(const struct symbolizer *s, pid_t *pid, uint64_t *ignored);
/*
 * JIT map entries whose size wrapped or was implausible (clipped to the
 * next entry); *@pid: the process of the first map with any.
 */
size_t symbolizer__perfmap_oversized(const struct symbolizer *s, pid_t *pid);
/* kallsyms could not be read or its addresses are hidden (kptr_restrict). */
bool symbolizer__kernel_hidden(const struct symbolizer *s);

#endif /* BPFPROF_SYMBOLIZER_H */
