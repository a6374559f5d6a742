// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PT_LOAD segments read by pread from the program headers alone
 * (elf_loads__read: the unwinder's mapping of every binary, kcore), and the
 * segment lookups by file offset and by address.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfloads.h"
#include "fuzzinput.h"

static void check_lookups(const struct elf_load *v, size_t n, uint64_t at)
{
	const struct elf_load *l;

	l = elf_loads__by_offset(v, n, at, 1);
	assert(!l || (at >= l->offset && at - l->offset < l->filesz));
	l = elf_loads__by_vaddr(v, n, at, 16);
	assert(!l || (at >= l->vaddr && at - l->vaddr + 16 <= l->filesz));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_input__memfd(data, size);
	struct elf_load *v;
	uint64_t at;
	size_t n, i;
	int err;

	if (fd < 0)
		return 0;
	err = elf_loads__read(fd, 0, &v, &n);
	assert(!err || err == -ENOEXEC || err == -EIO || err == -ENOMEM);
	if (!err) {
		for (i = 0; i < n; i++) {
			check_lookups(v, n, v[i].offset);
			check_lookups(v, n, v[i].vaddr);
		}
		for (i = 0; i + sizeof(at) <= size && i < 128; i += sizeof(at)) {
			memcpy(&at, data + i, sizeof(at));
			check_lookups(v, n, at);
		}
		free(v);
	} else {
		assert(!v && !n);
	}
	close(fd);
	return 0;
}
