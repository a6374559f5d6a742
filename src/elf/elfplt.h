/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The PLT stubs of an x86-64 ELF file (.plt, .plt.sec, .plt.got), each with
 * the function it jumps to: synthetic symbols for elfsymtab, named NAME@plt
 * as perf names them.
 */
#ifndef BPFPROF_ELFPLT_H
#define BPFPROF_ELFPLT_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

/* One stub, [addr, addr + size) in ELF virtual addresses. */
struct elf_plt_stub {
	uint64_t addr;
	uint64_t size;
	/*
	 * The function it jumps to, from its GOT slot's relocation: its name
	 * in the ELF image (valid until elf_end()), else NULL and, for an
	 * R_X86_64_IRELATIVE slot, @ifunc is the IFUNC resolver's address
	 * (the caller names it from its own symbols).
	 */
	const char *name;
	uint64_t ifunc;
	/* The PLT header (PLT0), or all of .plt beside a .plt.sec: ".plt" */
	bool header;
};

typedef int (*elf_plt_fn)(void *ctx, const struct elf_plt_stub *stub);

/*
 * Call @fn for each stub of @elf whose indirect jmp (ff 25 disp32, after an
 * endbr64 and a bnd prefix if any) goes through a GOT slot that a
 * JUMP_SLOT, GLOB_DAT or IRELATIVE relocation fills, and for the header.
 * A stub that decodes to no such slot is left out (unnamed). Entry size:
 * the section's sh_entsize when 8 or 16, else its alignment's (8 or 16).
 * Sections without contents (a debug file's NOBITS) have none. Not x86-64:
 * none. Stops at @fn's first nonzero return and returns it; else 0, or
 * -ENOMEM.
 */
int elf_plt__scan(Elf *elf, elf_plt_fn fn, void *ctx);

#endif /* BPFPROF_ELFPLT_H */
