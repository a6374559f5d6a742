// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The addresses a process can map: vm.mmap_min_addr to TASK_SIZE_MAX. */
#include <limits.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "number.h"
#include "procfs.h"
#include "uspace.h"

#define USPACE_4LEVEL_BITS 47
#define USPACE_5LEVEL_BITS 56

/*
 * 5-level page tables? A fixed mapping at 2^47 is refused past
 * TASK_SIZE_MAX with 4 levels (-ENOMEM); a kernel older than 4.17 takes
 * MAP_FIXED_NOREPLACE as a hint and maps elsewhere, which says no too.
 */
static bool uspace__five_levels(long page)
{
	void *want = (void *)(1ull << USPACE_4LEVEL_BITS);
	void *got = mmap(want, page, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (got == MAP_FAILED)
		return false;
	munmap(got, page);
	return got == want;
}

struct uspace uspace__bounds(const char *min_addr_path)
{
	long page = sysconf(_SC_PAGESIZE);
	char *text = procfs__read_line(min_addr_path);
	unsigned long long lo;
	int bits;

	if (page <= 0)
		page = 4096;
	/* 0 is a value (every page mappable), not the absence of one */
	if (!text || number__parse_ull(text, 0, ULLONG_MAX, &lo))
		lo = page;
	free(text);
	bits = uspace__five_levels(page) ? USPACE_5LEVEL_BITS : USPACE_4LEVEL_BITS;
	return (struct uspace){ .lo = lo, .hi = (1ull << bits) - page };
}

bool uspace__holds(const struct uspace *us, uint64_t addr, uint64_t len)
{
	return addr >= us->lo && addr < us->hi && len <= us->hi - addr;
}
