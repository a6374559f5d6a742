// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libelf handles: elf_version() once, from whichever thread asks first. */
#include <pthread.h>

#include "elfopen.h"

static pthread_once_t elf_open__once = PTHREAD_ONCE_INIT;

static void elf_open__init(void)
{
	elf_version(EV_CURRENT);
}

Elf *elf_open__fd(int fd)
{
	pthread_once(&elf_open__once, elf_open__init);
	return fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
}

Elf *elf_open__mem(const void *image, size_t size)
{
	pthread_once(&elf_open__once, elf_open__init);
	/* libelf only reads the image (ELF_C_READ semantics): the cast writes nothing */
	return size ? elf_memory((char *)image, size) : NULL;
}
