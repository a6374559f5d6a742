/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* GNU build-id of an ELF file: the identity binaries are cached by. */
#ifndef BPFPROF_BUILDID_H
#define BPFPROF_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_MAX 20

/*
 * Read the NT_GNU_BUILD_ID note of the ELF file at @fd (PT_NOTE segments,
 * else SHT_NOTE sections) into @id. Returns its length (1..@size) or
 * -ENOENT (no note), -ENOEXEC (not ELF), -EIO.
 */
int buildid__read_fd(int fd, uint8_t *id, size_t size);

/*
 * The NT_GNU_BUILD_ID note owned by "GNU" in @len bytes of raw ELF notes
 * at @notes, in this machine's byte order with 4-byte alignment (what the
 * kernel shows in /sys/kernel/notes, which is no ELF file), into @id.
 * Returns its length (1..@size, a longer id truncated) or -ENOENT (no
 * such note), -EINVAL (a note runs past the end before it is found).
 */
int buildid__from_notes(const void *notes, size_t len, uint8_t *id, size_t size);

/* Lower-case hex of @id into @buf (2 * len + 1 bytes). */
void buildid__hex(const uint8_t *id, size_t len, char *buf);

#endif /* BPFPROF_BUILDID_H */
