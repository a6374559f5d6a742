/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Finding a binary's separate debug file, as gdb and elfutils do:
 * ROOT/.build-id/xx/rest.debug (checked against the build-id), then the
 * .gnu_debuglink name (checked against its CRC-32) in the binary's
 * directory, its .debug/ subdirectory and ROOT/<directory>.
 */
#ifndef BPFPROF_DEBUGFILE_H
#define BPFPROF_DEBUGFILE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Open the debug file of the binary open at @fd (mapped from @path, used
 * for the debuglink search; may be NULL) with build-id @id (@len 0: none),
 * under the debug roots @roots (NULL-terminated, e.g. "/usr/lib/debug").
 * Returns an fd, or -ENOENT when there is none.
 */
int debugfile__open(int fd, const char *path, const uint8_t *id, size_t len,
		    const char *const *roots);

/*
 * MiniDebugInfo: the xz-compressed ELF in the .gnu_debugdata section of the
 * ELF at @fd (a symbol table that stripped distribution binaries carry),
 * decompressed into a malloc'd *@image of *@size bytes.
 * 0, -ENOENT (no such section), -EINVAL (not valid xz), -ENOMEM.
 */
int debugfile__minidebuginfo(int fd, void **image, size_t *size);

/*
 * Fetch the debug file of build-id @id (@len bytes) from the debuginfod
 * servers in $DEBUGINFOD_URLS (libdebuginfod, its cache and timeouts).
 * Returns an fd, or -ENOENT when DEBUGINFOD_URLS is unset or empty, or no
 * server has it, or another -errno. A download is given up, -EINTR, within
 * about a second of *@stop being set (by a signal handler; @stop may be NULL).
 */
int debugfile__debuginfod(const uint8_t *id, size_t len, const volatile sig_atomic_t *stop);

/* The .gnu_debuglink of the ELF at @fd: its name into @name, and its CRC. 0 or -ENOENT. */
int debugfile__link(int fd, char *name, size_t size, uint32_t *crc);
/* CRC-32 (the debuglink's: IEEE 802.3, as zlib's crc32) of the file at @fd. */
int debugfile__crc(int fd, uint32_t *crc);

#endif /* BPFPROF_DEBUGFILE_H */
