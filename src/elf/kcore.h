/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel memory through /proc/kcore (an ELF core file whose PT_LOAD
 * segments are the kernel's address space), for the disassembly of kernel
 * ranges. Read with pread on the program headers: the file's size is the
 * whole address space, so no ELF library maps or reads it whole.
 */
#ifndef BPFPROF_KCORE_H
#define BPFPROF_KCORE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read @len bytes of kernel memory at @addr from the kcore-format file
 * @path into @buf. 0, or -errno: ENOENT (no such file: CONFIG_PROC_KCORE
 * is off), EACCES, ENOEXEC (not a 64-bit ELF core), ERANGE (no segment
 * holds the whole of [addr, addr + len)), EIO (a short read).
 */
int kcore__read(const char *path, uint64_t addr, void *buf, size_t len);

#endif /* BPFPROF_KCORE_H */
