/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* An ELF file's sections, walked with their headers and names (libelf). */
#ifndef BPFPROF_ELFSCN_H
#define BPFPROF_ELFSCN_H

#include <gelf.h>

/*
 * The section after @scn (NULL: the first) whose header reads: the header
 * into @sh, its name into *@name ("" when the name does not read). NULL after
 * the last, and at once when @elf has no section name table to read from.
 *
 *	while ((scn = elf_scn__next(elf, scn, &sh, &name)))
 */
Elf_Scn *elf_scn__next(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, const char **name);

#endif /* BPFPROF_ELFSCN_H */
