/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One binary's function symbols: .symtab and .dynsym merged into one array
 * sorted by address, one entry per address, the names copied into one arena,
 * so that nothing refers to the ELF file once loaded. The PLT stubs, which
 * no symbol covers, are added as NAME@plt (elfplt.c).
 */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "elfopen.h"
#include "elfplt.h"
#include "elfscn.h"
#include "elfsymtab.h"
#include "search.h"

struct elf_sym {
	uint64_t addr;
	uint64_t end; /* exclusive */
	const char *name; /* in tab->names */
};

struct elf_seg {
	uint64_t off;
	uint64_t filesz;
	uint64_t vaddr;
};

struct elf_symtab {
	struct elf_sym *syms;
	size_t nr_syms;
	struct elf_seg *segs;
	size_t nr_segs;
	char *names;
	bool has_symtab; /* a .symtab section: not stripped */
	bool has_dwarf;  /* a .debug_info section with contents */
};

#define PLT_SUFFIX "@plt"
#define PLT_SUFFIX_LEN (sizeof(PLT_SUFFIX) - 1)

/* Where a candidate comes from: an ELF symbol, or made up for the PLT. */
enum sym_origin {
	SYM_ELF,
	SYM_PLT_STUB, /* written NAME@plt */
	SYM_PLT_HEADER, /* written as its name, ".plt" */
};

/* A symbol read from the file, before sorting and deduplication. */
struct sym_cand {
	uint64_t addr;
	uint64_t size;
	uint64_t sec_end; /* end of its section; UINT64_MAX when unknown */
	const char *name; /* in the ELF image: valid until elf_end() */
	size_t len; /* of the name as written ("@plt" included) */
	int rank; /* 0 global, 1 weak, 2 local */
	bool ifunc; /* STT_GNU_IFUNC: the address is the resolver's */
	enum sym_origin origin;
};

struct sym_vec {
	struct sym_cand *v;
	size_t nr;
	size_t cap;
};

static int sym__rank(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
	case STB_GNU_UNIQUE:
		return 0;
	case STB_WEAK:
		return 1;
	default:
		return 2;
	}
}

static bool sym__wanted(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type != STT_FUNC && type != STT_GNU_IFUNC)
		return false;
	if (!sym->st_value || sym->st_shndx == SHN_UNDEF)
		return false;
	return sym->st_shndx < SHN_LORESERVE || sym->st_shndx == SHN_XINDEX;
}

/* The NUL-terminated string at @off of string table @str, or NULL. */
static const char *strtab__get(const Elf_Data *str, size_t off)
{
	const char *s = str->d_buf;

	if (off >= str->d_size)
		return NULL;
	if (s[str->d_size - 1] != '\0' && !memchr(s + off, '\0', str->d_size - off))
		return NULL;
	return s + off;
}

/*
 * End address of every SHF_ALLOC section by index, so that a symbol without
 * a size does not run past its section. UINT64_MAX where unknown.
 */
static uint64_t *sections__ends(Elf *elf, size_t *nr)
{
	Elf_Scn *scn = NULL;
	uint64_t *ends;
	size_t i, shnum;
	GElf_Shdr sh;

	if (elf_getshdrnum(elf, &shnum))
		shnum = 0;
	ends = malloc((shnum ? shnum : 1) * sizeof(*ends));
	if (!ends)
		return NULL;
	for (i = 0; i < shnum; i++)
		ends[i] = UINT64_MAX;
	while ((scn = elf_scn__next_header(elf, scn, &sh))) {
		i = elf_ndxscn(scn);
		if (i < shnum && (sh.sh_flags & SHF_ALLOC) &&
		    sh.sh_addr + sh.sh_size > sh.sh_addr)
			ends[i] = sh.sh_addr + sh.sh_size;
	}
	*nr = shnum;
	return ends;
}

static int sym_vec__reserve(struct sym_vec *vec, size_t more)
{
	return array__grow((void **)&vec->v, &vec->cap, vec->nr + more, sizeof(*vec->v));
}

struct scan_ctx {
	const uint64_t *sec_ends;
	size_t nr_sec;
	struct sym_vec *out;
};

static void scan__push(struct scan_ctx *ctx, const GElf_Sym *sym, const char *name)
{
	struct sym_cand *c = &ctx->out->v[ctx->out->nr++];

	c->addr = sym->st_value;
	c->size = sym->st_size;
	c->sec_end = sym->st_shndx < ctx->nr_sec ? ctx->sec_ends[sym->st_shndx] :
						   UINT64_MAX;
	c->name = name;
	c->len = strlen(name);
	c->rank = sym__rank(GELF_ST_BIND(sym->st_info));
	c->ifunc = GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC;
	c->origin = SYM_ELF;
}

/* Append the wanted symbols of one SHT_SYMTAB or SHT_DYNSYM section. */
static int scan__table(struct scan_ctx *ctx, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *str_scn = elf_getscn(elf, sh->sh_link);
	Elf_Data *str = str_scn ? elf_getdata(str_scn, NULL) : NULL;
	size_t i, n, entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	int err;

	if (!data || !str || !str->d_buf || !str->d_size || !entsize)
		return 0;
	n = data->d_size / entsize;
	err = sym_vec__reserve(ctx->out, n);
	if (err)
		return err;
	for (i = 1; i < n; i++) {
		const char *name;
		GElf_Sym sym;

		if (!gelf_getsym(data, i, &sym) || !sym__wanted(&sym))
			continue;
		name = strtab__get(str, sym.st_name);
		if (name && *name)
			scan__push(ctx, &sym, name);
	}
	return 0;
}

static int elf__scan_symbols(Elf *elf, struct sym_vec *out)
{
	struct scan_ctx ctx = { .out = out };
	uint64_t *ends;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err = 0;

	ends = sections__ends(elf, &ctx.nr_sec);
	if (!ends)
		return -ENOMEM;
	ctx.sec_ends = ends;
	while (!err && (scn = elf_scn__next_header(elf, scn, &sh))) {
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			err = scan__table(&ctx, elf, scn, &sh);
	}
	free(ends);
	return err;
}

/* A candidate's place in the sort. */
struct sym_key {
	uint64_t addr;
	size_t idx;
};

/* One stable counting pass on byte @shift / 8 of the address, @src to @dst. */
static void sym_keys__radix_pass(const struct sym_key *src, struct sym_key *dst, size_t n,
				 unsigned int shift)
{
	size_t i, sum = 0, count[256] = { 0 };

	for (i = 0; i < n; i++)
		count[(src[i].addr >> shift) & 0xff]++;
	for (i = 0; i < 256; i++) {
		size_t c = count[i];

		count[i] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		dst[count[(src[i].addr >> shift) & 0xff]++] = src[i];
}

/*
 * Stable LSD radix sort by address: one linear pass for each address byte
 * that differs between keys, no comparisons.
 */
static int sym_keys__sort_addr(struct sym_key *keys, size_t n)
{
	struct sym_key *tmp, *src = keys, *dst;
	uint64_t differ = 0;
	unsigned int shift;
	size_t i;

	for (i = 1; i < n; i++)
		differ |= keys[i].addr ^ keys[0].addr;
	if (!differ)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (shift = 0; shift < 64; shift += 8) {
		struct sym_key *t = src;

		if (!((differ >> shift) & 0xff))
			continue;
		sym_keys__radix_pass(src, dst, n, shift);
		src = dst;
		dst = t;
	}
	if (src != keys)
		memcpy(keys, src, n * sizeof(*keys));
	free(tmp);
	return 0;
}

/*
 * Among aliases: an ELF symbol rather than a PLT name, then a name without
 * a symbol version ("__libc_start_main_impl" rather than
 * "__libc_start_main@@GLIBC_2.34"), then global before weak before local,
 * then shorter, then by name.
 */
static int sym_cand__cmp_alias(const struct sym_cand *a, const struct sym_cand *b)
{
	bool av = strchr(a->name, '@'), bv = strchr(b->name, '@');

	/* a real symbol over a made-up one */
	if ((a->origin == SYM_ELF) != (b->origin == SYM_ELF))
		return a->origin == SYM_ELF ? -1 : 1;
	if (av != bv)
		return av ? 1 : -1;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return strcmp(a->name, b->name);
}

/*
 * Keep one candidate per address: the preferred alias, given the largest
 * size any alias has. @keys are sorted by address. Returns the number kept,
 * compacted in place.
 */
static size_t sym_keys__dedup(struct sym_key *keys, size_t n, struct sym_cand *cands)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		struct sym_cand *best, *c = &cands[keys[i].idx];

		if (!kept || keys[kept - 1].addr != keys[i].addr) {
			keys[kept++] = keys[i];
			continue;
		}
		best = &cands[keys[kept - 1].idx];
		if (c->size < best->size)
			c->size = best->size;
		else
			best->size = c->size;
		if (sym_cand__cmp_alias(c, best) < 0)
			keys[kept - 1] = keys[i];
	}
	return kept;
}

/* Sized: [addr, addr + size). Unsized: up to the next symbol or section end. */
static uint64_t sym_cand__end(const struct sym_cand *c, const struct sym_cand *next)
{
	uint64_t end;

	if (c->size)
		return c->addr + c->size > c->addr ? c->addr + c->size : UINT64_MAX;
	end = c->sec_end > c->addr ? c->sec_end : UINT64_MAX;
	if (next && next->addr < end)
		end = next->addr;
	return end;
}

/* Copy the kept candidates, in @keys order, into @tab, names into its arena. */
static int symtab__fill(struct elf_symtab *tab, const struct sym_key *keys, size_t n,
			const struct sym_cand *cands)
{
	size_t i, total = 0;
	char *p;

	for (i = 0; i < n; i++)
		total += cands[keys[i].idx].len + 1;
	tab->names = malloc(total ? total : 1);
	tab->syms = malloc((n ? n : 1) * sizeof(*tab->syms));
	if (!tab->names || !tab->syms)
		return -ENOMEM;
	p = tab->names;
	for (i = 0; i < n; i++) {
		const struct sym_cand *c = &cands[keys[i].idx];
		struct elf_sym *s = &tab->syms[i];

		s->addr = c->addr;
		s->end = sym_cand__end(c, i + 1 < n ? &cands[keys[i + 1].idx] : NULL);
		s->name = p;
		if (c->origin == SYM_PLT_STUB) {
			memcpy(p, c->name, c->len - PLT_SUFFIX_LEN);
			memcpy(p + c->len - PLT_SUFFIX_LEN, PLT_SUFFIX,
			       PLT_SUFFIX_LEN + 1);
		} else {
			memcpy(p, c->name, c->len + 1);
		}
		p += c->len + 1;
	}
	tab->nr_syms = n;
	return 0;
}

static int symtab__from_cands(struct elf_symtab *tab, struct sym_vec *vec)
{
	struct sym_key *keys;
	size_t i, n;
	int err;

	keys = malloc((vec->nr ? vec->nr : 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < vec->nr; i++)
		keys[i] = (struct sym_key){ .addr = vec->v[i].addr, .idx = i };
	err = sym_keys__sort_addr(keys, vec->nr);
	if (!err) {
		n = sym_keys__dedup(keys, vec->nr, vec->v);
		err = symtab__fill(tab, keys, n, vec->v);
	}
	free(keys);
	return err;
}

/* The preferred name among the first @nr candidates at @addr, or NULL. */
static const struct sym_cand *sym_vec__best_at(const struct sym_vec *vec, size_t nr,
					       uint64_t addr)
{
	const struct sym_cand *best = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct sym_cand *c = &vec->v[i];

		if (c->addr == addr && (!best || sym_cand__cmp_alias(c, best) < 0))
			best = c;
	}
	return best;
}

struct plt_ctx {
	struct sym_vec *vec;
	size_t nr_elf; /* the ELF symbols, before any stub */
};

/* One PLT stub as a candidate; an IFUNC's stub named after the IFUNC. */
static int plt__push(void *arg, const struct elf_plt_stub *stub)
{
	struct plt_ctx *ctx = arg;
	const char *name = stub->header ? ".plt" : stub->name;
	enum sym_origin origin = stub->header ? SYM_PLT_HEADER : SYM_PLT_STUB;

	if (!name) {
		const struct sym_cand *f;

		f = sym_vec__best_at(ctx->vec, ctx->nr_elf, stub->ifunc);
		if (!f)
			return 0; /* an IFUNC this file does not name */
		name = f->name;
	}
	if (sym_vec__reserve(ctx->vec, 1))
		return -ENOMEM;
	ctx->vec->v[ctx->vec->nr++] = (struct sym_cand){
		.addr = stub->addr,
		.size = stub->size,
		.sec_end = UINT64_MAX,
		.name = name,
		.len = strlen(name) + (origin == SYM_PLT_STUB ? PLT_SUFFIX_LEN : 0),
		.origin = origin,
	};
	return 0;
}

/* @name is a stub's: NAME@plt. */
static bool plt__named(const char *name)
{
	size_t len = strlen(name);

	return len > PLT_SUFFIX_LEN && !strcmp(name + len - PLT_SUFFIX_LEN, PLT_SUFFIX);
}

static int symtab__read_symbols(struct elf_symtab *tab, Elf *elf)
{
	struct sym_vec vec = { 0 };
	struct plt_ctx plt = { .vec = &vec };
	int err;

	err = elf__scan_symbols(elf, &vec);
	plt.nr_elf = vec.nr;
	if (!err)
		err = elf_plt__scan(elf, plt__push, &plt);
	if (!err)
		err = symtab__from_cands(tab, &vec);
	free(vec.v);
	return err;
}

static int symtab__read_segments(struct elf_symtab *tab, Elf *elf)
{
	size_t i, phnum;

	if (elf_getphdrnum(elf, &phnum) || !phnum)
		return 0;
	tab->segs = malloc(phnum * sizeof(*tab->segs));
	if (!tab->segs)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* a range past 2^64 would translate into a wrapped value: malformed */
		if (ph.p_offset + ph.p_filesz < ph.p_offset ||
		    ph.p_vaddr + ph.p_filesz < ph.p_vaddr)
			continue;
		tab->segs[tab->nr_segs++] = (struct elf_seg){
			.off = ph.p_offset,
			.filesz = ph.p_filesz,
			.vaddr = ph.p_vaddr,
		};
	}
	return 0;
}

/* Which kinds of symbol and debug information the file carries. */
static void symtab__read_sections(struct elf_symtab *tab, Elf *elf)
{
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;

	while ((scn = elf_scn__next(elf, scn, &sh, &name))) {
		if (sh.sh_type == SHT_SYMTAB)
			tab->has_symtab = true;
		if (sh.sh_type != SHT_NOBITS && sh.sh_size &&
		    (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			tab->has_dwarf = true;
	}
}

/* Read everything from @elf (which the caller ends) into a new table. */
static struct elf_symtab *symtab__from_elf(Elf *elf)
{
	struct elf_symtab *tab;
	int err;

	if (!elf) {
		errno = EIO;
		return NULL;
	}
	if (elf_kind(elf) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	tab = calloc(1, sizeof(*tab));
	if (!tab)
		return NULL;
	err = symtab__read_segments(tab, elf);
	if (!err)
		err = symtab__read_symbols(tab, elf);
	if (!err)
		symtab__read_sections(tab, elf);
	if (err) {
		elf_symtab__free(tab);
		errno = -err;
		return NULL;
	}
	return tab;
}

/* A libelf handle on the image at @image, else on the file at @fd; NULL when neither. */
static Elf *elf__begin(int fd, const void *image, size_t size)
{
	return image ? elf_open__mem(image, size) : elf_open__fd(fd);
}

static struct elf_symtab *elf_symtab__load(int fd, const void *image, size_t size)
{
	struct elf_symtab *tab;
	Elf *elf;
	int err;

	if (fd < 0 && (!image || !size)) {
		errno = image ? ENOEXEC : EBADF;
		return NULL;
	}
	elf = elf__begin(fd, image, size);
	tab = symtab__from_elf(elf);
	err = errno;
	elf_end(elf);
	errno = err;
	return tab;
}

struct elf_symtab *elf_symtab__load_fd(int fd)
{
	return elf_symtab__load(fd, NULL, 0);
}

struct elf_symtab *elf_symtab__load_mem(const void *image, size_t size)
{
	if (!image || !size) {
		errno = ENOEXEC;
		return NULL;
	}
	return elf_symtab__load(-1, image, size);
}

/* The end of the function at @c: its largest size among aliases, else the next symbol. */
static uint64_t sym_vec__end(const struct sym_vec *vec, const struct sym_cand *c)
{
	uint64_t size = 0, next = c->sec_end > c->addr ? c->sec_end : UINT64_MAX;
	size_t i;

	for (i = 0; i < vec->nr; i++) {
		const struct sym_cand *o = &vec->v[i];

		if (o->addr == c->addr && o->size > size)
			size = o->size;
		else if (o->addr > c->addr && o->addr < next)
			next = o->addr;
	}
	if (size)
		return c->addr + size > c->addr ? c->addr + size : UINT64_MAX;
	return next;
}

/* @c is the symbol @name: NAME@plt names a PLT stub, anything else an ELF symbol. */
static bool sym_cand__is(const struct sym_cand *c, const char *name, size_t len)
{
	if (c->origin == SYM_PLT_STUB)
		return c->len == len && plt__named(name) &&
		       !strncmp(c->name, name, len - PLT_SUFFIX_LEN);
	return c->origin == SYM_ELF && !strcmp(c->name, name);
}

/* The function named @name among @vec: the lowest address if several. */
static int sym_vec__find(const struct sym_vec *vec, const char *name, struct elf_func *out)
{
	const struct sym_cand *best = NULL;
	size_t i, len = strlen(name);

	memset(out, 0, sizeof(*out));
	for (i = 0; i < vec->nr; i++) {
		const struct sym_cand *c = &vec->v[i];

		if (!sym_cand__is(c, name, len) || (best && c->addr == best->addr))
			continue;
		if (best)
			out->other = c->addr > best->addr ? c->addr : best->addr;
		if (!best || c->addr < best->addr)
			best = c;
		out->nr++;
	}
	if (!best)
		return -ENOENT;
	out->start = best->addr;
	out->end = sym_vec__end(vec, best);
	out->ifunc = best->ifunc;
	return 0;
}

static int elf_symtab__find(int fd, const void *image, size_t size, const char *name,
			    struct elf_func *out)
{
	struct sym_vec vec = { 0 };
	Elf *elf = elf__begin(fd, image, size);
	int err;

	if (!elf)
		return fd < 0 && !image ? -EBADF : -EIO;
	err = elf_kind(elf) == ELF_K_ELF ? elf__scan_symbols(elf, &vec) : -ENOEXEC;
	if (!err && plt__named(name)) {
		struct plt_ctx plt = { .vec = &vec, .nr_elf = vec.nr };

		err = elf_plt__scan(elf, plt__push, &plt);
	}
	if (!err)
		err = sym_vec__find(&vec, name, out);
	free(vec.v);
	elf_end(elf);
	return err;
}

int elf_symtab__find_fd(int fd, const char *name, struct elf_func *out)
{
	return elf_symtab__find(fd, NULL, 0, name, out);
}

int elf_symtab__find_mem(const void *image, size_t size, const char *name,
			 struct elf_func *out)
{
	return image && size ? elf_symtab__find(-1, image, size, name, out) : -ENOEXEC;
}

/* @name in one symbol table section: 0, or -ENOENT. */
static int elf__find_object_in(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			       struct elf_object *out)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *str_scn = elf_getscn(elf, sh->sh_link);
	Elf_Data *str = str_scn ? elf_getdata(str_scn, NULL) : NULL;
	size_t i, n, entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);

	if (!data || !str || !str->d_buf || !str->d_size || !entsize)
		return -ENOENT;
	n = data->d_size / entsize;
	for (i = 1; i < n; i++) {
		const char *sname;
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		sname = strtab__get(str, sym.st_name);
		if (!sname || strcmp(sname, name))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		out->addr = sym.st_value;
		out->size = sym.st_size;
		out->data = type == STT_OBJECT || type == STT_COMMON;
		out->tls = type == STT_TLS;
		return 0;
	}
	return -ENOENT;
}

int elf_symtab__find_object_fd(int fd, const char *name, struct elf_object *out)
{
	static const unsigned int types[] = { SHT_SYMTAB, SHT_DYNSYM };
	Elf *elf = elf__begin(fd, NULL, 0);
	int err = -ENOENT;

	memset(out, 0, sizeof(*out));
	if (!elf)
		return fd < 0 ? -EBADF : -EIO;
	if (elf_kind(elf) != ELF_K_ELF)
		err = -ENOEXEC;
	for (size_t t = 0; t < ARRAY_SIZE(types) && err == -ENOENT; t++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while (err == -ENOENT && (scn = elf_scn__next_header(elf, scn, &sh)))
			if (sh.sh_type == types[t])
				err = elf__find_object_in(elf, scn, &sh, name, out);
	}
	elf_end(elf);
	return err;
}

void elf_symtab__free(struct elf_symtab *tab)
{
	if (!tab)
		return;
	free(tab->syms);
	free(tab->segs);
	free(tab->names);
	free(tab);
}

/*
 * @x in the PT_LOAD whose [p_offset, + p_filesz) holds it (@from_vaddr:
 * whose [p_vaddr, + p_filesz)), translated to the other side. 0 or -ENOENT.
 */
static int symtab__translate(const struct elf_symtab *tab, uint64_t x, bool from_vaddr,
			     uint64_t *out)
{
	size_t i;

	for (i = 0; tab && i < tab->nr_segs; i++) {
		const struct elf_seg *seg = &tab->segs[i];
		uint64_t from = from_vaddr ? seg->vaddr : seg->off;
		uint64_t to = from_vaddr ? seg->off : seg->vaddr;

		if (x >= from && x - from < seg->filesz) {
			*out = x - from + to;
			return 0;
		}
	}
	return -ENOENT;
}

int elf_symtab__off_to_vaddr(const struct elf_symtab *tab, uint64_t off, uint64_t *vaddr)
{
	return symtab__translate(tab, off, false, vaddr);
}

int elf_symtab__vaddr_to_off(const struct elf_symtab *tab, uint64_t vaddr, uint64_t *off)
{
	return symtab__translate(tab, vaddr, true, off);
}

static uint64_t elf_sym__addr(const void *sym)
{
	return ((const struct elf_sym *)sym)->addr;
}

/* The symbol holding @vaddr, or NULL with errno set. */
static const struct elf_sym *symtab__holding(const struct elf_symtab *tab, uint64_t vaddr)
{
	size_t i;

	if (!tab) {
		errno = EINVAL;
		return NULL;
	}
	/* the last symbol starting at or below @vaddr (one per address) */
	i = search__last_le(tab->syms, tab->nr_syms, sizeof(*tab->syms), vaddr, elf_sym__addr);
	if (i == tab->nr_syms || vaddr >= tab->syms[i].end) {
		errno = ENOENT;
		return NULL;
	}
	return &tab->syms[i];
}

const char *elf_symtab__lookup(const struct elf_symtab *tab, uint64_t vaddr,
			       uint64_t *sym_off)
{
	const struct elf_sym *s = symtab__holding(tab, vaddr);

	if (!s)
		return NULL;
	if (sym_off)
		*sym_off = vaddr - s->addr;
	return s->name;
}

const char *elf_symtab__lookup_func(const struct elf_symtab *tab, uint64_t vaddr,
				    struct elf_func *out)
{
	const struct elf_sym *s = symtab__holding(tab, vaddr);

	if (!s)
		return NULL;
	*out = (struct elf_func){ .start = s->addr, .end = s->end, .nr = 1 };
	return s->name;
}

size_t elf_symtab__count(const struct elf_symtab *tab)
{
	return tab ? tab->nr_syms : 0;
}

const char *elf_symtab__name(const struct elf_symtab *tab, size_t i)
{
	return tab->syms[i].name;
}

bool elf_symtab__has_symtab(const struct elf_symtab *tab)
{
	return tab && tab->has_symtab;
}

bool elf_symtab__has_dwarf(const struct elf_symtab *tab)
{
	return tab && tab->has_dwarf;
}
