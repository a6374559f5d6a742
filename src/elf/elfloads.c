// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfloads.h"

int elf_loads__pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int elf_loads__read(int fd, unsigned int type, struct elf_load **out, size_t *n)
{
	struct elf_load *v;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t k = 0;
	int err;

	*out = NULL;
	*n = 0;
	err = elf_loads__pread(fd, &eh, sizeof(eh), 0);
	if (err)
		return err == -EIO ? -ENOEXEC : err;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (type && eh.e_type != type) || eh.e_phentsize != sizeof(ph))
		return -ENOEXEC;
	/* headers past the largest file offset are not in the file, as past its end */
	if (eh.e_phoff > INT64_MAX || (uint64_t)eh.e_phnum * sizeof(ph) > INT64_MAX - eh.e_phoff)
		return -EIO;
	v = calloc(eh.e_phnum ? eh.e_phnum : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		err = elf_loads__pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * sizeof(ph));
		if (err) {
			free(v);
			return err;
		}
		if (ph.p_type == PT_LOAD)
			v[k++] = (struct elf_load){ .offset = ph.p_offset, .vaddr = ph.p_vaddr,
						    .filesz = ph.p_filesz, .flags = ph.p_flags };
	}
	*out = v;
	*n = k;
	return 0;
}

/*
 * The segment whose file bytes, counted from its file offset (@vaddr false)
 * or from its address, hold [@at, @at + @len) (no overflow on the way).
 */
static const struct elf_load *elf_loads__holding(const struct elf_load *l, size_t n,
						 bool vaddr, uint64_t at, uint64_t len)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t start = vaddr ? l[i].vaddr : l[i].offset;

		if (at >= start && at - start <= l[i].filesz &&
		    len <= l[i].filesz - (at - start))
			return &l[i];
	}
	return NULL;
}

const struct elf_load *elf_loads__by_offset(const struct elf_load *l, size_t n, uint64_t off,
					    uint64_t len)
{
	return elf_loads__holding(l, n, false, off, len);
}

const struct elf_load *elf_loads__code(const struct elf_load *l, size_t n, uint64_t off,
				       uint64_t len)
{
	uint64_t end = len > UINT64_MAX - off ? UINT64_MAX : off + len;

	for (size_t i = 0; i < n; i++) {
		uint64_t s = l[i].offset;
		uint64_t e = l[i].filesz > UINT64_MAX - s ? UINT64_MAX : s + l[i].filesz;

		if ((l[i].flags & PF_X) && s < e && s < end && off < e)
			return &l[i];
	}
	return elf_loads__by_offset(l, n, off, 0);
}

const struct elf_load *elf_loads__by_vaddr(const struct elf_load *l, size_t n, uint64_t vaddr,
					   uint64_t len)
{
	return elf_loads__holding(l, n, true, vaddr, len);
}
