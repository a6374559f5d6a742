// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ELF symbol table reader: elf_symtab__load_mem (.symtab, .dynsym, PLT
 * stubs, PT_LOADs) and the lookups the symbolizer makes, and
 * elf_symtab__find_mem (a function by name, aliases kept).
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "elfsymtab.h"

static void check_lookup(const struct elf_symtab *tab, uint64_t vaddr)
{
	struct elf_func fn;
	const char *name;
	uint64_t off, back;

	name = elf_symtab__lookup(tab, vaddr, &off);
	assert(!name || off <= vaddr);
	name = elf_symtab__lookup_func(tab, vaddr, &fn);
	assert(!name || (fn.start <= vaddr && vaddr < fn.end));
	if (!elf_symtab__vaddr_to_off(tab, vaddr, &off))
		assert(!elf_symtab__off_to_vaddr(tab, off, &back));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_symtab *tab = elf_symtab__load_mem(data, size);
	static const char *const names[] = { "main", "_start", "leaf_a", "memset" };
	struct elf_func fn;
	uint64_t addr;
	size_t i;
	int err;

	if (tab) {
		(void)elf_symtab__count(tab);
		(void)elf_symtab__has_symtab(tab);
		(void)elf_symtab__has_dwarf(tab);
		for (i = 0; i + sizeof(addr) <= size && i < 256; i += sizeof(addr)) {
			memcpy(&addr, data + i, sizeof(addr));
			check_lookup(tab, addr);
		}
		elf_symtab__free(tab);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		err = elf_symtab__find_mem(data, size, names[i], &fn);
		assert(!err || err == -ENOENT || err == -ENOEXEC || err == -EIO ||
		       err == -ENOMEM);
		if (!err)
			assert(fn.nr >= 1 && fn.end > fn.start);
	}
	return 0;
}
