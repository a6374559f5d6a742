// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfloads.h"
#include "infile.h"
#include "kcore.h"

/* The file offset of [addr, addr + len) through the PT_LOAD holding all of it. */
static int kcore__offset(int fd, uint64_t addr, size_t len, off_t *off)
{
	const struct elf_load *seg;
	struct elf_load *segs;
	size_t n;
	int err = elf_loads__read(fd, ET_CORE, &segs, &n);

	if (err)
		return err;
	seg = elf_loads__by_vaddr(segs, n, addr, len);
	if (seg)
		*off = seg->offset + (addr - seg->vaddr);
	free(segs);
	return seg ? 0 : -ERANGE;
}

int kcore__read(const char *path, uint64_t addr, void *buf, size_t len)
{
	off_t off;
	int fd, err;

	err = infile__open(path, &fd);
	if (err)
		return err;
	err = kcore__offset(fd, addr, len, &off);
	err = err ?: elf_loads__pread(fd, buf, len, off);
	close(fd);
	return err;
}
