/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One binary's call frame information (.eh_frame, and .debug_frame from the
 * binary or its debug file) compiled into the unwind table the BPF program
 * searches: struct unwind_row sorted by pc (bpf/bpfprof.h), and a page
 * index over them.
 */
#ifndef BPFPROF_CFITABLE_H
#define BPFPROF_CFITABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfprof.h"
#include "sha256.h"

struct cfi_table {
	uint64_t base; /* ELF vaddr of pc 0: the lowest address CFI covers */
	uint32_t nr_rows; /* >= 1; the last row is UNWIND_CFA_NONE */
	uint32_t nr_pages; /* (rows[nr_rows - 1].pc >> UNWIND_PAGE_SHIFT) + 1 */
	struct unwind_row *rows; /* nr_rows rows, pcs strictly increasing */
	/*
	 * nr_pages + 1 entries: pages[i] is the row in force at pc
	 * i << UNWIND_PAGE_SHIFT, pages[nr_pages] is nr_rows - 1. Stored in the
	 * same allocation as rows, right after them.
	 */
	uint32_t *pages;
	/* statistics */
	uint32_t nr_fdes; /* FDEs used */
	uint32_t nr_fdes_skipped; /* FDEs outside executable segments (discarded code) */
	uint32_t nr_raw_rows; /* rows before identical neighbours were merged */
	uint32_t flags; /* CFI_TABLE_* */
};

#define CFI_TABLE_EH_FRAME 0x1 /* rows from .eh_frame */
#define CFI_TABLE_DEBUG_FRAME 0x2 /* rows from .debug_frame (where .eh_frame has none) */

/*
 * Compile the CFI of the x86-64 ELF file at @fd (not closed, not moved):
 * .eh_frame, and .debug_frame for the code .eh_frame does not cover, from
 * the file itself or from its separate debug file at @debug_fd (-1: none).
 * NULL and errno: ENOEXEC (not an x86-64 ELF file), ENODATA (no CFI),
 * E2BIG (the code covered spans 4 GiB or more), EIO, ENOMEM.
 */
struct cfi_table *cfi_table__build_fd(int fd, int debug_fd);

/*
 * The SHA-256 of what cfi_table__build_fd(@fd, @debug_fd) reads: each
 * file's ELF header, program headers, every section header, and the bytes
 * of .eh_frame, .eh_frame_hdr, .debug_frame (and lld's SHT_X86_64_UNWIND).
 * Two files with equal digests give the same table, whatever build-id they
 * claim. 0 or -errno (-ENOEXEC: @fd is not ELF).
 */
int cfi_table__digest(int fd, int debug_fd, uint8_t out[SHA256_SIZE]);
/*
 * Does the file at @fd have a section a table is built from (.eh_frame,
 * SHT_X86_64_UNWIND, .debug_frame) large enough for one CIE and one FDE?
 * Its section headers only.
 */
bool cfi_table__has_cfi(int fd);
/* The same for an ELF image in memory (the vDSO). */
struct cfi_table *cfi_table__build_mem(const void *image, size_t size);

/*
 * A table made of @nr_rows rows (copied) and the given statistics: the
 * page index is computed. For the cache and for tests. NULL + errno
 * (EINVAL: no rows; ENOMEM).
 */
struct cfi_table *cfi_table__from_rows(uint64_t base, const struct unwind_row *rows,
				       uint32_t nr_rows);

/*
 * Check every invariant the BPF search relies on: rows sorted by strictly
 * increasing pc, known rule types, the last row NONE, nr_pages and every
 * page entry as defined above. 0 or -EBADMSG.
 */
int cfi_table__check(const struct cfi_table *t);

/*
 * The row in force at ELF vaddr @vaddr, found as the BPF program finds it
 * (page entry, then a binary search of rows pages[i] ..= pages[i + 1]), or
 * NULL outside the table.
 */
const struct unwind_row *cfi_table__lookup(const struct cfi_table *t, uint64_t vaddr);

/* Bytes the BPF maps need: the rows and the page index. */
size_t cfi_table__bytes(const struct cfi_table *t);

void cfi_table__free(struct cfi_table *t);

#endif /* BPFPROF_CFITABLE_H */
