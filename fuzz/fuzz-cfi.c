// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CFI compiler: an ELF image's .eh_frame (and .debug_frame) through
 * cfifdes.c and cfitable.c into an unwind table (cfi_table__build_mem, as
 * for the vDSO), which must keep every invariant the BPF search relies on.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "cfitable.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfi_table *t = cfi_table__build_mem(data, size);
	uint64_t addr;
	size_t i;

	if (!t)
		return 0;
	assert(cfi_table__check(t) == 0);
	assert(cfi_table__bytes(t) > 0);
	for (i = 0; i + 1 < t->nr_rows; i++) /* the last row only ends the table */
		assert(cfi_table__lookup(t, t->base + t->rows[i].pc) == &t->rows[i]);
	for (i = 0; i + sizeof(addr) <= size && i < 64; i += sizeof(addr)) {
		memcpy(&addr, data + i, sizeof(addr));
		(void)cfi_table__lookup(t, addr);
	}
	cfi_table__free(t);
	return 0;
}
