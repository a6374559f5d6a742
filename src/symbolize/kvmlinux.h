/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel source lines: the running kernel's vmlinux with DWARF, found where
 * distributions and kernel builds leave it (as perf and elfutils look) and
 * accepted only when its build-id is the running kernel's, and the KASLR
 * offset between kernel text addresses and the vmlinux's ELF addresses.
 * The DWARF itself is srcinfo.c's.
 */
#ifndef BPFPROF_KVMLINUX_H
#define BPFPROF_KVMLINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ksyms.h"
#include "srcinfo.h"

struct kvmlinux;

/*
 * The build-id of the running kernel from its notes file @notes
 * (/sys/kernel/notes: raw ELF notes) into @id. Returns its length or
 * -errno (-ENOENT: no GNU build-id note).
 */
int kvmlinux__kernel_build_id(const char *notes, uint8_t *id, size_t size);

/*
 * Open the vmlinux of kernel @release whose build-id is @id (@len bytes)
 * and that has DWARF, trying in turn, under each debug root of @roots
 * (NULL-terminated; NULL: /usr/lib/debug): ROOT/.build-id/xx/rest.debug,
 * ROOT/boot/vmlinux-RELEASE, ROOT/lib/modules/RELEASE/vmlinux; then
 * /lib/modules/RELEASE/build/vmlinux and /boot/vmlinux-RELEASE.
 * Returns an fd or -ENOENT. With @len 0 (the kernel's build-id unknown)
 * no file is accepted: a vmlinux of another build gives wrong lines.
 */
int kvmlinux__find(const char *const *roots, const char *release, const uint8_t *id,
		   size_t len);

/*
 * The value of the symbol @name (any type, defined) in the symbol table of
 * the ELF file at @fd. 0, -ENOENT (no such symbol), -ENOEXEC (not ELF).
 */
int kvmlinux__symbol(int fd, const char *name, uint64_t *value);

/*
 * The vmlinux at @fd, taken over (closed by kvmlinux__free, or at once on
 * failure), whose code runs @offset above its ELF addresses (KASLR):
 * running address = ELF address + @offset, modulo 2^64. No build-id is
 * checked here: a caller that opens a file of its choosing vouches for it.
 * NULL and errno: ENOENT (no DWARF), ENOMEM.
 */
struct kvmlinux *kvmlinux__new(int fd, uint64_t offset);

/*
 * The running kernel's vmlinux: kvmlinux__find with uname's release and
 * the build-id from /sys/kernel/notes, the offset from the address @ks
 * gives _stext (else _text) and that symbol's value in the file. NULL and
 * errno: ENOENT (none found, or the kernel's build-id or the anchor symbol
 * cannot be read), ENOMEM.
 */
struct kvmlinux *kvmlinux__open(const struct ksyms *ks, const char *const *roots);
void kvmlinux__free(struct kvmlinux *k);

/*
 * The frames at running kernel address @kaddr into @out, as
 * srcinfo__lookup gives them: innermost first, with @inlines each inlined
 * call then the function; without, one frame (unnamed) at the line
 * table's line at @kaddr (with @lines: else no file or line).
 * 0, -ENOENT (no compile unit there), -ENOMEM. Strings live as long as @k.
 */
int kvmlinux__lookup(struct kvmlinux *k, uint64_t kaddr, bool inlines, bool lines,
		     struct src_frames *out);

#endif /* BPFPROF_KVMLINUX_H */
