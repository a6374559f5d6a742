/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The FDEs of a binary's CFI with the code each one describes: libdw walks
 * an FDE's rows (dwarf_cfi_addrframe) but has no call that lists FDEs with
 * their addresses, so their pointer encodings are decoded here.
 * It lives here, below unwind/ (whose cfitable.c compiles the rows), so
 * that fdefuncs.c can name code without a symbol after its FDE's start.
 */
#ifndef BPFPROF_CFIFDES_H
#define BPFPROF_CFIFDES_H

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

struct cfi_fde {
	uint64_t start, end; /* ELF virtual addresses [start, end), never empty */
	Dwarf_CFI *cfi; /* the libdw handle that walks it */
};

struct cfi_fdes {
	struct cfi_fde *v; /* sorted by start */
	size_t nr, cap;
	size_t nr_eh; /* how many came from .eh_frame */
	uint32_t nr_skipped; /* FDEs outside executable segments (discarded code): left out */
};

/*
 * List in @l (zeroed) the FDEs of @elf's .eh_frame, walked with @eh, then
 * those of @dbg's .debug_frame (@dbg is @elf or its separate debug file),
 * walked with @df, cut to the code .eh_frame does not cover: .eh_frame is
 * what the program itself unwinds with. FDEs outside @elf's executable
 * PT_LOADs are only counted. A NULL handle lists nothing for its section;
 * a malformed entry ends its section's list. 0 or -ENOMEM.
 */
int cfi_fdes__list(struct cfi_fdes *l, Elf *elf, Dwarf_CFI *eh, Elf *dbg, Dwarf_CFI *df);
/* Free what @l holds. */
void cfi_fdes__release(struct cfi_fdes *l);

#endif /* BPFPROF_CFIFDES_H */
