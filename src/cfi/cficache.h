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

#include "buildid.h"
#include "cfitable.h"

/*
 * The file: this header, then the table's rows and its page index exactly
 * as they are in memory (cfitable.h), body_size bytes. Public for the
 * tests and the fuzzer, which forge files as a hostile writer of the
 * directory could: the checksum finds damage, not forgery (anyone can
 * compute it); what the loader accepts passes cfi_table__check.
 */
#define CFICACHE_MAGIC "bpfpcfi\n"
#define CFICACHE_VERSION 2

struct cficache_header {
	char magic[8]; /* CFICACHE_MAGIC */
	uint32_t version; /* CFICACHE_VERSION: any change of the format bumps it */
	uint32_t header_size; /* sizeof(struct cficache_header) */
	uint32_t row_size; /* sizeof(struct unwind_row) */
	uint32_t page_shift; /* UNWIND_PAGE_SHIFT */
	uint32_t build_id_len;
	uint8_t build_id[BUILD_ID_MAX];
	uint64_t base;
	uint32_t nr_rows, nr_pages;
	uint32_t nr_fdes, nr_fdes_skipped, nr_raw_rows, flags;
	uint64_t body_size; /* rows + pages: the rest of the file */
	uint64_t checksum; /* cficache__checksum of the body */
	/*
	 * cfi_table__digest of the files the table was built from: a build-id
	 * is a claim a file makes, so another file claiming it (a forged copy
	 * mapped by another user) cannot have its table taken for this one's.
	 */
	uint8_t source[SHA256_SIZE];
};

_Static_assert(sizeof(struct cficache_header) == 128, "no padding in the file header");

/* The header's checksum of a body of @size bytes (a multiple of 4): a 64-bit hash. */
uint64_t cficache__checksum(const void *body, size_t size);

/*
 * The default directory: $XDG_CACHE_HOME/bpfprof/unwind, else
 * $HOME/.cache/bpfprof/unwind (malloc'd). NULL + errno (ENOENT: neither
 * variable is set to an absolute path; ENOMEM).
 */
char *cficache__default_dir(void);

/*
 * The size of the cache file for build-id @id (@len bytes), no debug file
 * (a table likely read, not built), or -1 when there is none. A stat, no
 * check: cficache__load checks.
 */
int64_t cficache__size(const char *dir, const uint8_t *id, size_t len);

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
