/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Source lines and inline chains of one binary, from its DWARF (libdw).
 * Only this file and its callers (binsym.c, symbolizer.c, kvmlinux.c) know
 * that DWARF exists.
 *
 * libdw finds an address's compile unit only through .debug_aranges, which
 * clang and rustc do not emit; so the compile units are indexed here by
 * their own address ranges. A unit's functions and inlined calls are
 * indexed the first time one of its addresses is asked for: one walk of its
 * DIE tree into a sorted array of disjoint address segments, each naming
 * the innermost function or inlined call there (dwarf_getscopes would walk
 * the unit from its root on every lookup).
 */
#ifndef BPFPROF_SRCINFO_H
#define BPFPROF_SRCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct srcinfo;

struct src_frame {
	const char *name; /* raw (maybe mangled) DWARF name; NULL: none found */
	const char *file; /* source path as DWARF records it; NULL: unknown */
	uint32_t line;    /* 0: unknown */
	uint32_t start_line; /* the function's declaration line (DW_AT_decl_line); 0: unknown */
	bool inlined;     /* inlined into the next frame of the chain */
};

/* A growing array of frames the caller owns and reuses. */
struct src_frames {
	struct src_frame *v;
	size_t nr, cap;
};

/*
 * The DWARF of the ELF file open at @fd (kept open by the caller for the
 * life of the result; not moved). NULL and errno: ENOENT (no DWARF), ENOMEM.
 */
struct srcinfo *srcinfo__open(int fd);
void srcinfo__free(struct srcinfo *si);

/*
 * The frames at ELF virtual address @vaddr into @out (replacing what it
 * held), innermost first: with @inlines, each inlined call (inlined = true)
 * then the function they are inlined into; without, just the function.
 * With @lines, the innermost frame's line is the line table's at @vaddr
 * and each outer frame's line is the call site of the frame inside it;
 * without, no frame has a file or line, and the compile unit's line table
 * is not read (libdw keeps each one it decodes until the file is closed:
 * 35 MiB after 8 minutes of a system-wide run).
 * 0; -ENOENT when no compile unit covers @vaddr; -ENOMEM.
 * Strings live as long as @si.
 */
int srcinfo__lookup(struct srcinfo *si, uint64_t vaddr, bool inlines, bool lines,
		    struct src_frames *out);
void srcinfo__free_frames(struct src_frames *f);

#endif /* BPFPROF_SRCINFO_H */
