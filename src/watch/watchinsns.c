// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The instruction of an access: its function decoded from the start up to the trap ip. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "binsym.h"
#include "disasm.h"
#include "watchinsns.h"

/* The most code decoded to find one instruction: a function this long is not read. */
#define WATCH_INSN_MAX_FUNC (1u << 20)
/* The longest x86 instruction. */
#define WATCH_INSN_MAX 15

struct watch_insns {
	struct binsym_opts bo;
	struct binsym **bs; /* by binary id */
	size_t nr_bs;
	struct disasm *d;
};

struct watch_insns *watch_insns__new(enum demangle_mode demangle,
				     const char *const *debug_roots)
{
	struct watch_insns *wi = calloc(1, sizeof(*wi));

	if (!wi)
		return NULL;
	wi->bo = (struct binsym_opts){ .demangle = demangle, .debug_roots = debug_roots };
	wi->d = disasm__new();
	if (!wi->d) {
		free(wi);
		return NULL;
	}
	return wi;
}

void watch_insns__free(struct watch_insns *wi)
{
	if (!wi)
		return;
	for (size_t i = 0; i < wi->nr_bs; i++)
		binsym__free(wi->bs[i]);
	free(wi->bs);
	disasm__free(wi->d);
	free(wi);
}

/* @b's symbols, read on first need. NULL on ENOMEM. */
static struct binsym *watch_insns__binsym(struct watch_insns *wi, const struct binary *b)
{
	if (b->id >= wi->nr_bs) {
		size_t cap = wi->nr_bs;

		if (array__grow((void **)&wi->bs, &cap, b->id + 1, sizeof(*wi->bs)))
			return NULL;
		memset(wi->bs + wi->nr_bs, 0, (cap - wi->nr_bs) * sizeof(*wi->bs));
		wi->nr_bs = cap;
	}
	if (!wi->bs[b->id])
		wi->bs[b->id] = binsym__new(b, &wi->bo);
	return wi->bs[b->id];
}

/* The instruction ending at @end (@after) or starting at @end, in @len bytes of @code at @start. */
static int watch_insns__decode(struct watch_insns *wi, const uint8_t *code, size_t len,
			       uint64_t start, uint64_t end, bool after, struct watch_insn *out)
{
	uint64_t vaddr = start;
	struct insn insn;

	while (!disasm__next(wi->d, &code, &len, &vaddr, &insn)) {
		if (after ? insn.addr + insn.size < end : insn.addr < end)
			continue;
		if (after ? insn.addr + insn.size != end : insn.addr != end)
			break;
		out->vaddr = insn.addr;
		snprintf(out->text, sizeof(out->text), "%s", insn.text);
		return 0;
	}
	return -ENOENT;
}

int watch_insns__find(struct watch_insns *wi, struct proc_table *pt, pid_t tgid,
		      const char *comm, uint64_t ip, bool after, struct watch_insn *out)
{
	const struct mapping *m = proc_table__find(pt, tgid, comm, ip);
	struct elf_func f;
	struct binsym *bs;
	uint64_t v, off, start, len;
	uint8_t *code;
	ssize_t got;
	int err;

	memset(out, 0, sizeof(*out));
	if (!m || !m->bin || m->bin->fd < 0 || m->bin->vdso)
		return -ENOENT;
	bs = watch_insns__binsym(wi, m->bin);
	if (!bs)
		return -ENOMEM;
	if (!binsym__off_to_vaddr(bs, mapping__file_offset(m, ip), &v))
		return -ENOENT;
	out->func = binsym__func_at(bs, after ? v - 1 : v, &f);
	if (!out->func || (after && v <= f.start))
		return -ENOENT;
	start = after ? f.start : v;
	len = after ? v - f.start : WATCH_INSN_MAX;
	if (len > WATCH_INSN_MAX_FUNC || !binsym__vaddr_to_off(bs, start, &off))
		return -ENOENT;
	code = malloc(len);
	if (!code)
		return -ENOMEM;
	/* an instruction breakpoint near the end of the file reads what there is */
	got = pread(m->bin->fd, code, len, off);
	len = got > 0 ? (uint64_t)got : 0;
	err = len ? watch_insns__decode(wi, code, len, start, v, after, out) : -ENOENT;
	free(code);
	out->bin = m->bin;
	out->func_off = out->vaddr - f.start;
	return err;
}
