// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The section walk the libelf readers share: each section's header and name. */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* The unpacked size a compressed section claims (0: not compressed). */
static uint64_t elf_scn__claimed(Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
	GElf_Chdr ch;
	Elf_Data *d;
	uint64_t be;

	if (sh->sh_type == SHT_NOBITS)
		return 0;
	if (sh->sh_flags & SHF_COMPRESSED)
		return gelf_getchdr(scn, &ch) ? ch.ch_size : UINT64_MAX;
	if (strncmp(name, ".zdebug", 7))
		return 0;
	/* "ZLIB", then the size, big-endian */
	d = elf_rawdata(scn, NULL);
	if (!d || d->d_size < 12 || memcmp(d->d_buf, "ZLIB", 4))
		return 0;
	memcpy(&be, (const char *)d->d_buf + 4, sizeof(be));
	return be64toh(be);
}

int elf_scn__unpack_bounded(Elf *elf)
{
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;
	uint64_t claim;

	while ((scn = elf_scn__next(elf, scn, &sh, &name))) {
		claim = elf_scn__claimed(scn, &sh, name);
		if (claim > ELF_SCN_UNPACK_MAX ||
		    (claim && claim / ELF_SCN_UNPACK_RATIO > sh.sh_size))
			return -EFBIG;
	}
	return 0;
}
