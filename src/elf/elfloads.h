/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The PT_LOAD segments of a 64-bit ELF file, read with pread from its
 * program headers alone: no ELF library, no section headers, no mapping of
 * the file (so /proc/kcore, whose size is the address space, works too).
 */
#ifndef BPFPROF_ELFLOADS_H
#define BPFPROF_ELFLOADS_H

#include <stddef.h>
#include <stdint.h>

struct elf_load {
	uint64_t offset, vaddr, filesz;
	uint32_t flags; /* PF_X, PF_W, PF_R */
};

/*
 * The PT_LOAD segments of the ELF file at @fd, in file order, into *@out
 * (malloc'd, *@n of them); @type the e_type wanted (ET_CORE...), 0 for any.
 * 0 or -errno: ENOEXEC (not a 64-bit ELF file of that type), EIO (short
 * read), ENOMEM.
 */
int elf_loads__read(int fd, unsigned int type, struct elf_load **out, size_t *n);

/*
 * The segment an executable mapping of [@off, @off + @len) of the file
 * maps the code of: the executable segment whose file bytes the range
 * overlaps, else the one that holds @off (NULL: none). A mapping starts at
 * a page: lld places the text segment in the file page where the read-only
 * one before it ends (offset 0x750, address 0x1750), so the mapping's
 * first byte belongs to that other segment, 0x1000 apart in address.
 */
const struct elf_load *elf_loads__code(const struct elf_load *l, size_t n, uint64_t off,
				       uint64_t len);

/* The segment whose file bytes hold [@off, @off + @len), or NULL. */
const struct elf_load *elf_loads__by_offset(const struct elf_load *l, size_t n, uint64_t off,
					    uint64_t len);
/* The segment whose file-backed addresses hold [@vaddr, @vaddr + @len), or NULL. */
const struct elf_load *elf_loads__by_vaddr(const struct elf_load *l, size_t n, uint64_t vaddr,
					   uint64_t len);

/* Read exactly @len bytes at @off: 0, -errno, or -EIO for a short read. */
int elf_loads__pread(int fd, void *buf, size_t len, uint64_t off);

#endif /* BPFPROF_ELFLOADS_H */
