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

/* The system's debug root, on our side and inside a container's root. */
#define DEBUGFILE_ROOT "/usr/lib/debug"

/* Where a binary's debug file is looked for. */
struct debugfile_where {
	const char *path;         /* the binary's path, for the debuglink search; may be NULL */
	int root_fd;              /* the root @path is in when that is a container's (its own
				     DEBUGFILE_ROOT is searched first, inside it); -1: ours */
	const char *const *roots; /* our debug roots, NULL-terminated (e.g. DEBUGFILE_ROOT) */
	char *refused;            /* when not NULL and empty: the first candidate refused
				     (not a regular file), "PATH: why" */
	size_t refused_size;
};

/*
 * Open the debug file of the binary open at @fd with build-id @id (@len 0:
 * none), where @w says. Every candidate is a regular file (infile), and
 * every path of a container's is resolved inside its root. Returns an fd,
 * or -ENOENT when there is none.
 */
int debugfile__open(int fd, const uint8_t *id, size_t len, struct debugfile_where *w);

/*
 * MiniDebugInfo is decompressed to at most DEBUGFILE_UNXZ_RATIO times its
 * compressed size and DEBUGFILE_UNXZ_MAX bytes, with at most
 * DEBUGFILE_UNXZ_MEMLIMIT of decoder memory (a symbol table compresses 3
 * to 6 times; 2 GiB of zeros fit in 322 KB).
 */
#define DEBUGFILE_UNXZ_RATIO 64
#define DEBUGFILE_UNXZ_MAX (256u << 20)
#define DEBUGFILE_UNXZ_MEMLIMIT (128u << 20)
/* The most @in_size compressed bytes may decompress to. */
size_t debugfile__unxz_bound(size_t in_size);

/*
 * MiniDebugInfo: the xz-compressed ELF in the .gnu_debugdata section of the
 * ELF at @fd (a symbol table that stripped distribution binaries carry),
 * decompressed into a malloc'd *@image of *@size bytes.
 * 0, -ENOENT (no such section), -EINVAL (not valid xz), -EFBIG (it would
 * decompress past its bound: refused), -ENOMEM.
 */
int debugfile__minidebuginfo(int fd, void **image, size_t *size);

/*
 * Fetch the debug file of build-id @id (@len bytes) from the debuginfod
 * servers in $DEBUGINFOD_URLS (libdebuginfod, its cache and timeouts).
 * Returns an fd, or -ENOENT when DEBUGINFOD_URLS is unset or empty, or no
 * server has it, or another -errno. A download is given up, -EINTR, within
 * about a second of *@stop being set (by a signal handler; @stop may be
 * NULL) or of a blocked SIGINT, SIGTERM or SIGHUP becoming pending (the
 * caller reads its signals from a signalfd and must get back to it).
 */
int debugfile__debuginfod(const uint8_t *id, size_t len, const volatile sig_atomic_t *stop);

/* The .gnu_debuglink of the ELF at @fd: its name into @name, and its CRC. 0 or -ENOENT. */
int debugfile__link(int fd, char *name, size_t size, uint32_t *crc);
/*
 * CRC-32 (the debuglink's: IEEE 802.3, as zlib's crc32) of the regular file
 * at @fd, up to the size it has now. -INFILE_ENOTREG for anything else.
 */
int debugfile__crc(int fd, uint32_t *crc);

#endif /* BPFPROF_DEBUGFILE_H */
