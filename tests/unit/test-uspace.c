// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The addresses a process can map (uspace.c): vm.mmap_min_addr to TASK_SIZE_MAX. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "uspace.h"

static char dir[] = "/tmp/test-uspace-XXXXXX";

/* a file of dir holding @text; its path (static) */
static const char *file_with(const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/min_addr", dir);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uspace us;
	char *top;

	if (!mkdtemp(dir))
		return 1;
	us = uspace__bounds(file_with("65536\n"));
	CHECK(us.lo == 65536, "vm.mmap_min_addr 65536: the lowest (0x%llx)",
	      (unsigned long long)us.lo);
	CHECK(uspace__bounds(file_with("0\n")).lo == 0, "vm.mmap_min_addr 0: page 0 too");
	CHECK(uspace__bounds(file_with("lots\n")).lo == (unsigned long long)page,
	      "unreadable: a page");
	CHECK(uspace__bounds("/nonexistent/mmap_min_addr").lo == (unsigned long long)page,
	      "missing: a page");
	CHECK(us.hi == 0x7ffffffff000 || us.hi == 0xfffffffffff000,
	      "the top: 4-level or 5-level TASK_SIZE_MAX (0x%llx)", (unsigned long long)us.hi);
	/* the kernel agrees: our stack is below the top, the page at it does not map */
	CHECK((unsigned long long)(uintptr_t)&us < us.hi, "our stack is below the top");
	top = mmap((void *)(uintptr_t)us.hi, page, PROT_READ,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK(top == MAP_FAILED, "the page at the top does not map");
	if (top != MAP_FAILED)
		munmap(top, page);

	us = (struct uspace){ .lo = 0x10000, .hi = 0x7ffffffff000 };
	CHECK(uspace__holds(&us, 0x10000, 8), "the lowest address");
	CHECK(!uspace__holds(&us, 0xfff8, 8), "below it");
	CHECK(!uspace__holds(&us, 0xfffc, 8), "across it");
	CHECK(uspace__holds(&us, 0x7fffffffeff8, 8), "the last 8 bytes");
	CHECK(!uspace__holds(&us, 0x7fffffffeffc, 8), "across the top");
	CHECK(!uspace__holds(&us, 0x7ffffffff000, 1), "the top itself");
	CHECK(!uspace__holds(&us, 0xffffffff81000000, 8), "a kernel address");
	CHECK(!uspace__holds(&us, 0xfffffffffffffff8, 16), "no wrap past 2^64");

	remove(file_with(""));
	rmdir(dir);
	return check_done();
}
