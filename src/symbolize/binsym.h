/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One binary's symbolization: function names from its sorted symbol
 * arrays (its own, and its debug file's or MiniDebugInfo's), and, when
 * asked for, inline chains and source lines from DWARF, opened only then.
 * Each unique address is resolved once and the result kept.
 */
#ifndef BPFPROF_BINSYM_H
#define BPFPROF_BINSYM_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "demangler.h"
#include "elfsymtab.h"
#include "proc.h"
#include "profile.h"

/* The frames at one address, outermost (the function) first. */
struct symloc {
	const struct binary *bin; /* the binary of the code; NULL: kernel, JIT, none */
	uint32_t nr;
	struct frame f[];
};

struct u64map;
/* Free a u64map whose values are malloc'd struct symlocs, and the map. */
void binsym__free_symlocs(struct u64map *m);

struct src_frames;
/*
 * A location with one frame per entry of @sf (srcinfo's frames, innermost
 * first; one frame when it is empty), outermost first, with their files
 * and lines; the first of kind @outer, the others @inner. Names are left
 * NULL for the caller. NULL on ENOMEM.
 */
struct symloc *binsym__symloc_from_src(const struct src_frames *sf, enum frame_kind outer,
				       enum frame_kind inner);

struct srccache;
struct binsym_opts {
	/* each binary demangles its own names, once each: its demangled
	   names live as long as its symbol tables, no longer */
	enum demangle_mode demangle;
	/* shared: each DWARF file indexed once per run, whichever binaries
	   use it (srccache.h); NULL: each binsym indexes its own */
	struct srccache *dwarf;
	bool inlines;         /* inline chains (DWARF) */
	bool lines;           /* source lines (DWARF) */
	const char *const *debug_roots; /* build-id/debuglink roots, NULL-terminated */
	/* set (by a signal handler) once the user wants the profile now: no
	   file is read any more, frames stay "[NAME+0xOFF]"; NULL: never */
	const volatile sig_atomic_t *stop;
};

struct binsym;

/*
 * Symbolization of @b (whose fd, path and build-id stay valid for the life
 * of the result). Reads its symbol tables now, its DWARF on first need.
 * NULL and errno only on ENOMEM; a binary that cannot be read, or any
 * binary once @o->stop is set, gives a binsym that names nothing.
 */
struct binsym *binsym__new(const struct binary *b, const struct binsym_opts *o);
void binsym__free(struct binsym *bs);
/*
 * Its debuginfod query was given up for a stop signal that was pending,
 * not for @o->stop: read again, later, it may name what this one cannot.
 */
bool binsym__interrupted(const struct binsym *bs);
/* The binary @bs names. */
const struct binary *binsym__binary(const struct binsym *bs);
/*
 * The first file refused while looking for @bs's names ("PATH: why": a
 * debug file that is not a regular file, a MiniDebugInfo bomb), or NULL.
 */
const char *binsym__refused(const struct binsym *bs);

/*
 * The frames at file offset @off (@ret: a return address; the call before
 * it is looked up). A frame without a symbol is named "[NAME+0xOFF]", OFF
 * the file offset of the start of the .eh_frame FDE (the function) holding
 * it, else (no FDE there, or with lines: each instruction its own frame)
 * @off itself.
 * NULL only on ENOMEM. Lives as long as @bs.
 */
const struct symloc *binsym__at_offset(struct binsym *bs, uint64_t off, bool ret);
/*
 * The same at ELF virtual address @vaddr; a function without a symbol has
 * a NULL name. NULL only on ENOMEM.
 */
const struct symloc *binsym__at_vaddr(struct binsym *bs, uint64_t vaddr, bool ret);
/*
 * The function named @name (exactly, aliases included): in the binary's own
 * symbol tables, else, when it is stripped, in its debug file's or its
 * MiniDebugInfo. 0, -ENOENT, or another -errno (see elf_symtab__find_fd).
 */
int binsym__find(struct binsym *bs, const char *name, struct elf_func *out);
/*
 * Call @fn with the raw name of every function of its own symbol table
 * and its debug file's (one name per address; "did you mean" lists).
 */
void binsym__each_name(const struct binsym *bs, void (*fn)(const char *name, void *ctx),
		       void *ctx);
/*
 * The function holding ELF virtual address @vaddr, demangled, its bounds
 * in *@out; NULL when no symbol covers it (or on ENOMEM). Lives as long as @bs.
 */
const char *binsym__func_at(struct binsym *bs, uint64_t vaddr, struct elf_func *out);
/* ELF virtual address -> file offset (through the binary's PT_LOADs). */
bool binsym__vaddr_to_off(const struct binsym *bs, uint64_t vaddr, uint64_t *off);
/* File offset -> ELF virtual address. */
bool binsym__off_to_vaddr(const struct binsym *bs, uint64_t off, uint64_t *vaddr);

/* The binary has DWARF (its own or its debug file's); opens it if needed. */
bool binsym__has_dwarf(struct binsym *bs);

#endif /* BPFPROF_BINSYM_H */
