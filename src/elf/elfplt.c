// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PLT stubs named after the GOT slot they jump through. Each stub's own
 * `jmp *disp32(%rip)` is decoded to find its slot, and the slot's address
 * matched against the r_offset of the dynamic relocations: the same for
 * .plt, .plt.sec and .plt.got, whatever order the linker wrote the
 * relocations in (no index arithmetic). perf's names: ".plt" for the
 * header, "NAME@plt" for a stub (the caller appends "@plt").
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "elfplt.h"
#include "elfscn.h"

/* A GOT slot and what a relocation puts in it. */
struct got_slot {
	uint64_t addr; /* r_offset */
	const char *name; /* the symbol's name, or NULL */
	uint64_t ifunc; /* R_X86_64_IRELATIVE: the resolver (r_addend); else 0 */
};

struct got_slots {
	struct got_slot *v;
	size_t nr;
	size_t cap;
};

/* A stub section's header and contents. */
struct plt_sec {
	GElf_Shdr sh;
	Elf_Data *data;
};

/* The .plt, .plt.sec and .plt.got sections (data NULL: none). */
struct plt_secs {
	struct plt_sec plt;
	struct plt_sec sec;
	struct plt_sec got;
};

/* A relocation section's symbol table and its strings. */
struct sym_names {
	Elf_Data *syms;
	Elf_Data *strs;
};

static void sym_names__init(struct sym_names *sn, Elf *elf, size_t link)
{
	Elf_Scn *scn = link ? elf_getscn(elf, link) : NULL;
	Elf_Scn *str;
	GElf_Shdr sh;

	memset(sn, 0, sizeof(*sn));
	if (!scn || !gelf_getshdr(scn, &sh) ||
	    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
		return;
	str = elf_getscn(elf, sh.sh_link);
	sn->syms = elf_getdata(scn, NULL);
	sn->strs = str ? elf_getdata(str, NULL) : NULL;
	if (sn->strs && (!sn->strs->d_buf || !sn->strs->d_size))
		sn->strs = NULL;
}

/* Symbol @idx's name, NULL when it has none (or the table is unreadable). */
static const char *sym_names__get(const struct sym_names *sn, size_t idx)
{
	const char *s;
	GElf_Sym sym;

	if (!idx || !sn->syms || !sn->strs || !gelf_getsym(sn->syms, idx, &sym) ||
	    sym.st_name >= sn->strs->d_size)
		return NULL;
	s = (const char *)sn->strs->d_buf + sym.st_name;
	if (!*s || !memchr(s, '\0', sn->strs->d_size - sym.st_name))
		return NULL;
	return s;
}

/* The slots filled by the JUMP_SLOT, GLOB_DAT and IRELATIVE entries of one SHT_RELA section. */
static int got_slots__read(struct got_slots *slots, Elf *elf, Elf_Scn *scn,
			   const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n, entsize = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	struct sym_names sn;

	if (!data || !data->d_buf || !entsize)
		return 0;
	sym_names__init(&sn, elf, sh->sh_link);
	n = data->d_size / entsize;
	for (i = 0; i < n; i++) {
		unsigned int type;
		GElf_Rela r;

		if (!gelf_getrela(data, i, &r))
			break;
		type = GELF_R_TYPE(r.r_info);
		if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT &&
		    type != R_X86_64_IRELATIVE)
			continue;
		if (array__grow((void **)&slots->v, &slots->cap, slots->nr + 1,
				sizeof(*slots->v)))
			return -ENOMEM;
		slots->v[slots->nr++] = (struct got_slot){
			.addr = r.r_offset,
			.name = sym_names__get(&sn, GELF_R_SYM(r.r_info)),
			.ifunc = type == R_X86_64_IRELATIVE ? (uint64_t)r.r_addend : 0,
		};
	}
	return 0;
}

static int got_slot__cmp(const void *a, const void *b)
{
	const struct got_slot *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct got_slot *got_slots__find(const struct got_slots *slots,
					      uint64_t addr)
{
	struct got_slot key = { .addr = addr };

	if (!slots->nr)
		return NULL;
	return bsearch(&key, slots->v, slots->nr, sizeof(*slots->v), got_slot__cmp);
}

/* Read one stub section's header and contents, if it has any. */
static void plt_sec__read(struct plt_sec *s, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data;

	if (sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
		return;
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf || !data->d_size)
		return;
	s->sh = *sh;
	s->data = data;
}

/* The stub sections with contents. */
static void plt__read_secs(Elf *elf, struct plt_secs *secs)
{
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;

	while ((scn = elf_scn__next(elf, scn, &sh, &name))) {
		if (sh.sh_type != SHT_PROGBITS)
			continue;
		if (!strcmp(name, ".plt"))
			plt_sec__read(&secs->plt, scn, &sh);
		else if (!strcmp(name, ".plt.sec"))
			plt_sec__read(&secs->sec, scn, &sh);
		else if (!strcmp(name, ".plt.got"))
			plt_sec__read(&secs->got, scn, &sh);
	}
}

/* Every relocation that fills a GOT slot, sorted by slot. */
static int plt__read_slots(Elf *elf, struct got_slots *slots)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err = 0;

	while (!err && (scn = elf_scn__next_header(elf, scn, &sh))) {
		if (sh.sh_type == SHT_RELA)
			err = got_slots__read(slots, elf, scn, &sh);
	}
	if (!err && slots->nr)
		qsort(slots->v, slots->nr, sizeof(*slots->v), got_slot__cmp);
	return err;
}

/* sh_entsize when it can hold a jmp, else as the alignment says (perf's rule). */
static uint64_t plt_sec__entsize(const struct plt_sec *s)
{
	if (s->sh.sh_entsize >= 6 && s->sh.sh_entsize <= s->data->d_size)
		return s->sh.sh_entsize;
	return s->sh.sh_addralign == 8 ? 8 : 16;
}

/*
 * The GOT slot of the stub at @p (@len bytes, at @addr): [endbr64] [bnd]
 * jmp *disp32(%rip), the slot at the next instruction + disp32.
 */
static bool stub__slot(const uint8_t *p, size_t len, uint64_t addr, uint64_t *slot)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint32_t disp;
	size_t n = 0;

	if (len >= sizeof(endbr64) && !memcmp(p, endbr64, sizeof(endbr64)))
		n = sizeof(endbr64);
	if (n < len && p[n] == 0xf2)
		n++;
	if (len < n + 6 || p[n] != 0xff || p[n + 1] != 0x25)
		return false;
	memcpy(&disp, p + n + 2, sizeof(disp));
	*slot = addr + n + 6 + (uint64_t)(int64_t)(int32_t)le32toh(disp);
	return true;
}

/*
 * Each stub of @s with a named slot; with @header, an entry at the
 * section's start that is no stub is the header (PLT0).
 */
static int plt_sec__scan(const struct plt_sec *s, bool header,
			 const struct got_slots *slots, elf_plt_fn fn, void *ctx)
{
	uint64_t off, entsize = plt_sec__entsize(s);
	const uint8_t *p = s->data->d_buf;
	size_t size = s->data->d_size;
	int err = 0;

	for (off = 0; !err && off + entsize <= size; off += entsize) {
		struct elf_plt_stub stub = {
			.addr = s->sh.sh_addr + off,
			.size = entsize,
		};
		const struct got_slot *slot = NULL;
		bool jmp;
		uint64_t got;

		jmp = stub__slot(p + off, entsize, stub.addr, &got);
		if (jmp)
			slot = got_slots__find(slots, got);
		if (slot && (slot->name || slot->ifunc)) {
			stub.name = slot->name;
			stub.ifunc = slot->name ? 0 : slot->ifunc;
		} else if (header && !off && !jmp) {
			stub.header = true;
		} else {
			continue;
		}
		err = fn(ctx, &stub);
	}
	return err;
}

int elf_plt__scan(Elf *elf, elf_plt_fn fn, void *ctx)
{
	struct got_slots slots = { 0 };
	struct plt_secs secs = { 0 };
	GElf_Ehdr eh;
	int err;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0;
	plt__read_secs(elf, &secs);
	if (!secs.plt.data && !secs.sec.data && !secs.got.data)
		return 0;
	err = plt__read_slots(elf, &slots);
	if (err)
		goto out;
	if (secs.plt.data && secs.sec.data) {
		/* IBT: the stubs are in .plt.sec; .plt is the header and the
		 * lazy-binding entries, all named ".plt" */
		struct elf_plt_stub all = {
			.addr = secs.plt.sh.sh_addr,
			.size = secs.plt.data->d_size,
			.header = true,
		};

		err = fn(ctx, &all);
	} else if (secs.plt.data) {
		err = plt_sec__scan(&secs.plt, true, &slots, fn, ctx);
	}
	if (!err && secs.sec.data)
		err = plt_sec__scan(&secs.sec, false, &slots, fn, ctx);
	if (!err && secs.got.data)
		err = plt_sec__scan(&secs.got, false, &slots, fn, ctx);
out:
	free(slots.v);
	return err;
}
