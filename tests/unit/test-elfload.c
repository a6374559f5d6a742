/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The segment lookups of src/elf/elfloads.c on made-up segments: by file
 * offset and by address, at the edges of a segment's file bytes, and with
 * lengths and positions that would overflow a careless sum; the reader on
 * program headers out of reach.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "elfloads.h"

static const struct elf_load loads[] = {
	{ .offset = 0x0, .vaddr = 0x400000, .filesz = 0x1000 },
	{ .offset = 0x1000, .vaddr = 0x601000, .filesz = 0x200 },
	{ .offset = 0x2000, .vaddr = UINT64_MAX - 0xff, .filesz = 0x100 },
};

#define NR (sizeof(loads) / sizeof(loads[0]))

static void test_by_offset(void)
{
	CHECK(elf_loads__by_offset(loads, NR, 0, 0) == &loads[0], "offset 0: the first");
	CHECK(elf_loads__by_offset(loads, NR, 0xfff, 1) == &loads[0], "the last byte");
	CHECK(elf_loads__by_offset(loads, NR, 0x1000, 0) == &loads[0],
	      "the end of one, empty: the first that ends there");
	CHECK(elf_loads__by_offset(loads, NR, 0xfff, 2) == NULL, "across two segments: none");
	CHECK(elf_loads__by_offset(loads, NR, 0x1100, 0x100) == &loads[1], "inside the second");
	CHECK(elf_loads__by_offset(loads, NR, 0x1100, 0x101) == NULL, "one byte past its end");
	CHECK(elf_loads__by_offset(loads, NR, 0x1800, 0) == NULL, "between segments: none");
	CHECK(elf_loads__by_offset(loads, NR, 0x1000, UINT64_MAX) == NULL,
	      "a length that wraps: none");
	CHECK(elf_loads__by_offset(loads, 0, 0, 0) == NULL, "no segments: none");
}

static void test_by_vaddr(void)
{
	CHECK(elf_loads__by_vaddr(loads, NR, 0x400000, 0x1000) == &loads[0], "the whole first");
	CHECK(elf_loads__by_vaddr(loads, NR, 0x3fffff, 1) == NULL, "just below: none");
	CHECK(elf_loads__by_vaddr(loads, NR, 0x601100, 0x100) == &loads[1], "the end of the second");
	CHECK(elf_loads__by_vaddr(loads, NR, 0x601100, 0x101) == NULL, "past it: none");
	CHECK(elf_loads__by_vaddr(loads, NR, UINT64_MAX - 0xff, 0x100) == &loads[2],
	      "at the top of the address space");
	CHECK(elf_loads__by_vaddr(loads, NR, UINT64_MAX, 1) == &loads[2], "its last byte");
	CHECK(elf_loads__by_vaddr(loads, NR, UINT64_MAX, 2) == NULL,
	      "past the top of the address space: none");
	CHECK(elf_loads__by_vaddr(loads, NR, 0x1000, 0) == NULL,
	      "a file offset is no address: none");
}

/*
 * Program headers said to start past 2^63 (found by fuzz-elfload): pread
 * refused the negative offset with EINVAL, which elf_loads__read passed on
 * although it promises ENOEXEC, EIO or ENOMEM. They are not in the file: EIO.
 */
static void test_headers_out_of_reach(void)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_DYN,
		.e_phoff = 0xb5b5b5b500000040ull,
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 9,
	};
	int fd = memfd_create("test-elfload", MFD_CLOEXEC);
	struct elf_load *v = NULL;
	size_t n = 1;
	int err;

	CHECK(fd >= 0 && write(fd, &eh, sizeof(eh)) == sizeof(eh), "an ELF header in a memfd");
	err = elf_loads__read(fd, 0, &v, &n);
	CHECK(err == -EIO && !v && !n,
	      "program headers past 2^63: -EIO, nothing read (got %d)", err);
	free(v);
	/* at the very end of the offsets the headers would wrap around */
	eh.e_phoff = UINT64_MAX - 8;
	CHECK(pwrite(fd, &eh, sizeof(eh), 0) == sizeof(eh), "rewritten");
	err = elf_loads__read(fd, 0, &v, &n);
	CHECK(err == -EIO && !v && !n,
	      "program headers that wrap around 2^64: -EIO (got %d)", err);
	free(v);
	if (fd >= 0)
		close(fd);
}

/* lld's layout (libchain15-lld.so): text shares its first file page with rodata */
static void test_code(void)
{
	static const struct elf_load lld[] = {
		{ .offset = 0x0, .vaddr = 0x0, .filesz = 0x744, .flags = PF_R },
		{ .offset = 0x750, .vaddr = 0x1750, .filesz = 0x470, .flags = PF_R | PF_X },
		{ .offset = 0xbc0, .vaddr = 0x2bc0, .filesz = 0x1b0, .flags = PF_R | PF_W },
	};

	CHECK(elf_loads__code(lld, 3, 0x0, 0x1000) == &lld[1],
	      "a mapping from file page 0: the text segment, not the rodata that starts there");
	CHECK(elf_loads__code(lld, 3, 0x1000, 0x1000) == NULL,
	      "a mapping past every segment's bytes: none");
	CHECK(elf_loads__code(loads, NR, 0x1100, 0x1000) == &loads[1],
	      "no executable segment: the one holding the offset");
	CHECK(elf_loads__code(lld, 3, UINT64_MAX - 10, 100) == NULL,
	      "a range that would wrap around: none");
}

int main(void)
{
	test_code();
	test_by_offset();
	test_by_vaddr();
	test_headers_out_of_reach();
	return check_done();
}
