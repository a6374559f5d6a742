/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* libelf handles for the readers, libelf initialised once for all of them. */
#ifndef BPFPROF_ELFOPEN_H
#define BPFPROF_ELFOPEN_H

#include <stddef.h>

#include <libelf.h>

/* A read-only handle on the file at @fd (NULL when @fd < 0, or libelf says no). */
Elf *elf_open__fd(int fd);

/* A read-only handle on the image of @size bytes at @image (NULL when @size is 0). */
Elf *elf_open__mem(const void *image, size_t size);

#endif /* BPFPROF_ELFOPEN_H */
