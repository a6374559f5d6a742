// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JIT maps (/tmp/perf-PID.map): perfmap__parse on the bytes as a file, then
 * lookups at addresses taken from the input. Only the public calls: the
 * parser's insides may change under it.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "fuzzinput.h"
#include "perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fuzz_input__file(data, size);
	struct perfmap *pm;
	const char *name;
	uint64_t addr;
	size_t i;

	if (!f)
		return 0;
	/* a cap below most inputs' size too: the capped path is fuzzed as well */
	pm = perfmap__parse(f, size > 64 ? size / 2 : size);
	fclose(f);
	if (!pm)
		return 0;
	(void)perfmap__count(pm);
	for (i = 0; i + sizeof(addr) <= size && i < 64; i++) {
		memcpy(&addr, data + i, sizeof(addr));
		name = perfmap__lookup(pm, addr);
		assert(!name || *name);
	}
	for (addr = 0; addr < 0x10000; addr += 0x100) {
		name = perfmap__lookup(pm, addr);
		assert(!name || *name);
	}
	(void)perfmap__oversized(pm);
	perfmap__free(pm);
	return 0;
}
