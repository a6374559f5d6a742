/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The vDSO: every process maps the same image, so bpfprof reads its own. */
#ifndef BPFPROF_VDSO_H
#define BPFPROF_VDSO_H

#include <stddef.h>

/* This process's vDSO ELF image and its size (to the end of its section headers), or NULL. */
const void *vdso__image(size_t *size);

#endif /* BPFPROF_VDSO_H */
