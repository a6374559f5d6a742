// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The section walk the libelf readers share: each section's header and name. */
#include <stddef.h>

#include "elfscn.h"

Elf_Scn *elf_scn__next_header(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh)
{
	while ((scn = elf_nextscn(elf, scn))) {
		if (gelf_getshdr(scn, sh))
			return scn;
	}
	return NULL;
}

Elf_Scn *elf_scn__next(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, const char **name)
{
	size_t shstrndx;

	/* a field of the ELF header: cheap enough to read again at each step */
	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	scn = elf_scn__next_header(elf, scn, sh);
	if (!scn)
		return NULL;
	*name = elf_strptr(elf, shstrndx, sh->sh_name);
	if (!*name)
		*name = "";
	return scn;
}
