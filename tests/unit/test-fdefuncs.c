// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fdefuncs: the functions of this very test binary, by its .eh_frame FDEs:
 * an address inside a function is named after the function's start.
 */
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "fdefuncs.h"

volatile int sink;

__attribute__((noinline)) int probe(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
	return sink;
}

/* The load bias of the main program (the first object listed): 0 unless PIE. */
static int first_bias(struct dl_phdr_info *info, size_t size, void *bias)
{
	(void)size;
	*(uintptr_t *)bias = info->dlpi_addr;
	return 1;
}

int main(void)
{
	struct fdefuncs *f = NULL;
	uint64_t vaddr, start = 0;
	uintptr_t bias = 0;
	int fd, err;

	/* probe's ELF address: its run-time address less the load bias */
	dl_iterate_phdr(first_bias, &bias);
	vaddr = (uintptr_t)probe - bias;
	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	err = fdefuncs__load_fd(fd, &f);
	CHECK(!err && f, "this binary's .eh_frame lists its functions");
	CHECK(f && !fdefuncs__start(f, vaddr + 5, &start) && start == vaddr,
	      "an address inside probe() is named after probe's start");
	CHECK(f && !fdefuncs__start(f, vaddr, &start) && start == vaddr,
	      "probe's start is its own start");
	CHECK(f && fdefuncs__start(f, 0, &start) == -ENOENT, "address 0 is in no function");
	fdefuncs__free(f);
	close(fd);

	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	f = (struct fdefuncs *)&fd;
	CHECK(fdefuncs__load_fd(fd, &f) == -ENOENT && !f, "a file that is not ELF has none");
	close(fd);
	CHECK(fdefuncs__load_fd(-1, &f) == -ENOENT && !f, "no file: none");
	return check_done() + probe(0);
}
