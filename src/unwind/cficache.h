/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unwind tables (cfitable.h) cached on disk, one file per binary named by
 * its GNU build-id: DIR/<hex build-id>.unwind (.debug.unwind when a debug
 * file contributed .debug_frame). A file is written whole or not at all
 * (outfile.h), and checked completely when read: one that is truncated,
 * corrupt, of another format version, or built from other bytes than the
 * file at hand (the SHA-256 of its CFI, cfi_table__digest: a build-id is
 * only a claim) is ignored (and rebuilt by cficache__get), never trusted.
 */
#ifndef BPFPROF_CFICACHE_H
#define BPFPROF_CFICACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfitable.h"

/*
 * The default directory: $XDG_CACHE_HOME/bpfprof/unwind, else
 * $HOME/.cache/bpfprof/unwind (malloc'd). NULL + errno (ENOENT: neither
 * variable is set to an absolute path; ENOMEM).
 */
char *cficache__default_dir(void);

/*
 * The cached table of the binary with build-id @id (@len bytes), built
 * with a debug file (@debug) or not, from files whose cfi_table__digest is
 * @source. NULL + errno: ENOENT (not cached), EBADMSG (a file that fails a
 * check, or was built from other files under the same build-id: to be
 * rebuilt), EIO, ENOMEM.
 */
struct cfi_table *cficache__load(const char *dir, const uint8_t *id, size_t len,
				 bool debug, const uint8_t *source);

/*
 * Write @t as the table of build-id @id built from files whose
 * cfi_table__digest is @source, creating @dir (and its missing parents,
 * mode 0700) when needed. 0 or -errno.
 */
int cficache__store(const char *dir, const uint8_t *id, size_t len, bool debug,
		    const uint8_t *source, const struct cfi_table *t);

/*
 * The table of the ELF file at @fd (debug file at @debug_fd, -1: none):
 * from @dir when cached there, else built (cfi_table__build_fd) and stored.
 * @dir NULL, or a file without a build-id: built, no cache. A failure to
 * store is not an error; *@cached (if not NULL) tells where the table came
 * from. NULL + errno as cfi_table__build_fd.
 */
struct cfi_table *cficache__get(const char *dir, int fd, int debug_fd, bool *cached);

#endif /* BPFPROF_CFICACHE_H */
