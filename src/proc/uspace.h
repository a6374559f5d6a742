/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The addresses a process can map on this machine (x86-64): from
 * vm.mmap_min_addr (below it only with CAP_SYS_RAWIO: the bound for
 * ordinary programs) to the top of user space, the kernel's
 * TASK_SIZE_MAX: 0x7ffffffff000 with 4-level page tables (47 bits),
 * 0xfffffffffff000 with 5-level ones (56 bits, a process mapping there
 * on request). Everything above is the kernel's.
 */
#ifndef BPFPROF_USPACE_H
#define BPFPROF_USPACE_H

#include <stdbool.h>
#include <stdint.h>

struct uspace {
	uint64_t lo; /* the lowest address mmap gives: vm.mmap_min_addr */
	uint64_t hi; /* one past the highest: TASK_SIZE_MAX */
};

/*
 * This machine's bounds: vm.mmap_min_addr read from @min_addr_path
 * (/proc/sys/vm/mmap_min_addr; a page when it cannot be read) and the
 * top of user space probed: 5-level paging when a page above 47 bits
 * maps.
 */
struct uspace uspace__bounds(const char *min_addr_path);

/* Do the @len bytes at @addr (@len >= 1) lie in @us? */
bool uspace__holds(const struct uspace *us, uint64_t addr, uint64_t len);

#endif /* BPFPROF_USPACE_H */
