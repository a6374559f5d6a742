// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* /proc/kallsyms text: ksyms__load_mem, then lookups by address and by name. */
#include <assert.h>
#include <string.h>

#include "ksyms.h"

/* Look up around each symbol: its address, the byte before, the next ones. */
static void check_lookups(const struct ksyms *ks, uint64_t addr)
{
	const struct ksym *s, *f;
	uint64_t end;
	size_t nr;
	int d;

	for (d = -1; d <= 1; d++) {
		s = ksyms__lookup(ks, addr + d);
		if (!s)
			continue;
		assert(s->addr <= addr + d && s->name);
		f = ksyms__find_func(ks, s->name, &end, &nr);
		assert(f && nr >= 1 && !strcmp(f->name, s->name));
		assert(end > f->addr);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms *ks = ksyms__load_mem((const char *)data, size);
	const struct ksym *s;
	uint64_t addr;
	size_t i;

	if (!ks)
		return 0;
	(void)ksyms__hidden(ks);
	(void)ksyms__count(ks);
	s = ksyms__find(ks, "_stext");
	assert(!s || !s->module);
	/* addresses taken from the input itself, so some hit symbols */
	for (i = 0; i + sizeof(addr) <= size && i < 64; i += sizeof(addr)) {
		memcpy(&addr, data + i, sizeof(addr));
		check_lookups(ks, addr);
	}
	for (addr = 0xffffffff81000000ull; addr < 0xffffffff81000100ull; addr += 0x10)
		check_lookups(ks, addr);
	ksyms__free(ks);
	return 0;
}
