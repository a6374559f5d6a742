/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Kernel text symbols from /proc/kallsyms, sorted once. */
#ifndef BPFPROF_KSYMS_H
#define BPFPROF_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;
	const char *module; /* NULL for vmlinux, else "ext4" from "[ext4]" */
};

struct ksyms;

/*
 * Parse a kallsyms-format file ("ffffffff81000000 T _stext", optional
 * "\t[module]"); keeps text symbols (t, T, w, W). NULL + errno on failure.
 */
struct ksyms *ksyms__load(const char *path);
/* The same from @len bytes of that text at @text (copied). */
struct ksyms *ksyms__load_mem(const char *text, size_t len);
void ksyms__free(struct ksyms *ks);

/*
 * The symbol with the greatest address <= @addr, provided @addr is below
 * the next symbol's address (and, for the last vmlinux symbol, below
 * _etext when known). NULL when none.
 */
const struct ksym *ksyms__lookup(const struct ksyms *ks, uint64_t addr);

/*
 * The vmlinux (not module) text symbol named @name, the lowest if several;
 * NULL when none or when the addresses are hidden. A linear scan: for the
 * few names looked up once (_stext).
 */
const struct ksym *ksyms__find(const struct ksyms *ks, const char *name);

/*
 * The text symbol named @name, of vmlinux or a module (the name without
 * "[module]"), the lowest if several; *@nr gets how many have that name at
 * distinct addresses, *@end where the lowest ends (as for ksyms__lookup:
 * the next symbol's address, or _etext). NULL + ENOENT when none or when
 * the addresses are hidden.
 */
const struct ksym *ksyms__find_func(const struct ksyms *ks, const char *name, uint64_t *end,
				    size_t *nr);

/* Every address read was 0: kptr_restrict hides them. */
bool ksyms__hidden(const struct ksyms *ks);
size_t ksyms__count(const struct ksyms *ks);

#endif /* BPFPROF_KSYMS_H */
