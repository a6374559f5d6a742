// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcore.h"

static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* The file offset of [addr, addr + len) through the PT_LOAD holding all of it. */
static int kcore__offset(int fd, uint64_t addr, size_t len, off_t *off)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int err;

	err = pread_all(fd, &eh, sizeof(eh), 0);
	if (err)
		return err == -EIO ? -ENOEXEC : err;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_type != ET_CORE || eh.e_phentsize != sizeof(ph))
		return -ENOEXEC;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		err = pread_all(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * sizeof(ph));
		if (err)
			return err;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr - ph.p_vaddr > ph.p_filesz || len > ph.p_filesz - (addr - ph.p_vaddr))
			continue;
		*off = ph.p_offset + (addr - ph.p_vaddr);
		return 0;
	}
	return -ERANGE;
}

int kcore__read(const char *path, uint64_t addr, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	off_t off;

	if (fd < 0)
		return -errno;
	err = kcore__offset(fd, addr, len, &off);
	err = err ?: pread_all(fd, buf, len, off);
	close(fd);
	return err;
}
