/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* An ELF file's sections, walked with their headers and names (libelf). */
#ifndef BPFPROF_ELFSCN_H
#define BPFPROF_ELFSCN_H

#include <gelf.h>

/*
 * The section after @scn (NULL: the first) whose header reads: the header
 * into @sh, its name into *@name ("" when the name does not read, as in a
 * file whose header names no section name table). NULL after the last, and at
 * once when the section name table's index does not read (not ELF).
 *
 *	while ((scn = elf_scn__next(elf, scn, &sh, &name)))
 */
Elf_Scn *elf_scn__next(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, const char **name);

/*
 * The same walk without names, for the readers that go by section type: it
 * needs no section name table, so a file without one (stripped of it, or
 * hostile) still shows every section whose header reads.
 *
 *	while ((scn = elf_scn__next_header(elf, scn, &sh)))
 */
Elf_Scn *elf_scn__next_header(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh);

/*
 * Compressed sections (SHF_COMPRESSED, or GNU .zdebug_*) are unpacked by
 * libelf for libdw into a buffer of the size their header claims, refused
 * only beyond 1032 times their size (zlib's highest ratio). We take a
 * file's DWARF only when each claims at most ELF_SCN_UNPACK_RATIO times its
 * size and ELF_SCN_UNPACK_MAX bytes (DWARF compresses 3 to 10 times).
 */
#define ELF_SCN_UNPACK_RATIO 64
#define ELF_SCN_UNPACK_MAX (1ull << 30)
/* 0, or -EFBIG when a compressed section of @elf claims more than the bounds above. */
int elf_scn__unpack_bounded(Elf *elf);

#endif /* BPFPROF_ELFSCN_H */
