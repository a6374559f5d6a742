/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The functions of a binary as its .eh_frame sees them: one FDE per
 * function (and one per part a compiler split off, foo.cold), listed by
 * cfifdes.c. A stripped binary keeps its .eh_frame (the program unwinds with
 * it), so an address no symbol covers can still be named after the start
 * of the function that holds it.
 */
#ifndef BPFPROF_FDEFUNCS_H
#define BPFPROF_FDEFUNCS_H

#include <stdint.h>

struct fdefuncs;

/*
 * The FDEs of the .eh_frame of the ELF file at @fd, in *@out. 0, -ENOENT
 * (not an ELF file, or no FDE in it), or -ENOMEM.
 */
int fdefuncs__load_fd(int fd, struct fdefuncs **out);
void fdefuncs__free(struct fdefuncs *f);
/*
 * The start (ELF virtual address) of the FDE holding @vaddr, in *@start:
 * 0, or -ENOENT when no FDE holds it.
 */
int fdefuncs__start(const struct fdefuncs *f, uint64_t vaddr, uint64_t *start);

#endif /* BPFPROF_FDEFUNCS_H */
