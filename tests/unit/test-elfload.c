/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The segment lookups of src/elf/elfload.c on made-up segments: by file
 * offset and by address, at the edges of a segment's file bytes, and with
 * lengths and positions that would overflow a careless sum.
 */
#include <stdint.h>

#include "check.h"
#include "elfload.h"

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

int main(void)
{
	test_by_offset();
	test_by_vaddr();
	return check_done();
}
