// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * FDE listing: every entry of a CFI section is read once with
 * dwarf_next_cfi, the CIEs' augmentations say how their FDEs encode
 * initial_location and address_range (DW_EH_PE_*), and each FDE becomes
 * the code range it describes.
 */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cfifdes.h"
#include "elfscn.h"
#include "search.h"

/* What a CFI section says about a CIE: its FDEs' pointer encoding. */
struct cfi_cie {
	Dwarf_Off off;
	int enc; /* DW_EH_PE_*, -1: an augmentation this file cannot read */
};

struct cfi_range {
	uint64_t start, end;
};

/* The code an FDE may describe: the executable PT_LOADs. */
struct cfi_text {
	struct cfi_range *v;
	size_t nr;
};

struct cfi_section {
	const uint8_t *buf, *end;
	uint64_t addr; /* sh_addr: the vaddr of buf[0] (pc-relative pointers) */
	bool eh; /* .eh_frame (augmented pointers) rather than .debug_frame */
};

static int read_uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return 0;
	}
	return -EBADMSG;
}

static int read_sleb(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	unsigned int shift = 0;
	uint64_t u = 0;
	uint8_t b = 0x80;

	while (*p < end && shift < 64 && (b & 0x80)) {
		b = *(*p)++;
		u |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	}
	if (b & 0x80)
		return -EBADMSG;
	if (shift < 64 && (b & 0x40))
		u |= ~(uint64_t)0 << shift;
	*v = (int64_t)u;
	return 0;
}

/* A little-endian unsigned of @n bytes (x86-64 only). */
static uint64_t read_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * One pointer encoded as @enc (DW_EH_PE_*) at *@p, advanced past it. The
 * value only (no pc-relative adjustment) when @raw, as for an FDE's
 * address range. 0 or -EBADMSG (truncated), -ENOTSUP (an encoding an FDE
 * of a linked x86-64 binary does not use).
 */
static int read_pointer(const struct cfi_section *s, const uint8_t **p, int enc, bool raw,
			uint64_t *v)
{
	const uint8_t *at = *p;
	static const uint8_t sizes[16] = {
		[DW_EH_PE_absptr] = 8, [DW_EH_PE_udata2] = 2, [DW_EH_PE_udata4] = 4,
		[DW_EH_PE_udata8] = 8, [DW_EH_PE_sdata2] = 2, [DW_EH_PE_sdata4] = 4,
		[DW_EH_PE_sdata8] = 8,
	};
	int fmt = enc & 0x0f, n = sizes[fmt];

	if (fmt == DW_EH_PE_uleb128) {
		if (read_uleb(p, s->end, v))
			return -EBADMSG;
	} else if (fmt == DW_EH_PE_sleb128) {
		if (read_sleb(p, s->end, (int64_t *)v))
			return -EBADMSG;
	} else if (n) {
		if (s->end - *p < n)
			return -EBADMSG;
		*v = read_le(*p, n);
		if ((fmt & DW_EH_PE_signed) && n < 8 && (*v >> (8 * n - 1)))
			*v |= ~(uint64_t)0 << (8 * n);
		*p += n;
	} else {
		return -ENOTSUP;
	}
	if (raw)
		return 0;
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		break;
	case DW_EH_PE_pcrel:
		*v += s->addr + (uint64_t)(at - s->buf);
		break;
	default:
		return -ENOTSUP;
	}
	return (enc & DW_EH_PE_indirect) ? -ENOTSUP : 0;
}

/* The FDE pointer encoding a CIE's augmentation announces, or -1. */
static int cie__fde_encoding(const struct cfi_section *s, const Dwarf_CIE *cie)
{
	const char *aug = cie->augmentation;
	const uint8_t *p = cie->augmentation_data, *end = p + cie->augmentation_data_size;
	struct cfi_section data = *s;
	uint64_t skip;

	if (!aug[0])
		return DW_EH_PE_absptr;
	if (aug[0] != 'z' || !p)
		return -1;
	data.end = end; /* a personality pointer is read within the augmentation */
	for (aug++; *aug; aug++) {
		switch (*aug) {
		case 'R':
			return p < end ? *p : -1;
		case 'P':
			if (p >= end)
				return -1;
			p++;
			if (read_pointer(&data, &p, p[-1] & 0x0f, true, &skip))
				return -1;
			break;
		case 'L':
			p++;
			break;
		case 'S':
		case 'B':
			break;
		default:
			return -1;
		}
	}
	return DW_EH_PE_absptr;
}

static uint64_t cie__off(const void *cie)
{
	return ((const struct cfi_cie *)cie)->off;
}

/* The encoding of the CIE at @off among @cies (by offset, each once), or -1. */
static int cie__find(const struct cfi_cie *cies, size_t nr, Dwarf_Off off)
{
	size_t i = search__last_le(cies, nr, sizeof(*cies), off, cie__off);

	return i < nr && cies[i].off == off ? cies[i].enc : -1;
}

static bool text__holds(const struct cfi_text *text, uint64_t start, uint64_t end)
{
	if (!text->nr)
		return true; /* no program headers (a relocatable object): trust the CFI */
	for (size_t i = 0; i < text->nr; i++)
		if (start >= text->v[i].start && end <= text->v[i].end)
			return true;
	return false;
}

static int fdes__add(struct cfi_fdes *l, uint64_t start, uint64_t end, Dwarf_CFI *cfi)
{
	if (array__grow((void **)&l->v, &l->cap, l->nr + 1, sizeof(*l->v)))
		return -ENOMEM;
	l->v[l->nr++] = (struct cfi_fde){ start, end, cfi };
	return 0;
}

/* An FDE as listed, decoded once every CIE is known. */
struct cfi_raw_fde {
	const uint8_t *loc; /* its initial_location */
	Dwarf_Off cie;
};

static int fdes__decode(struct cfi_fdes *l, const struct cfi_text *text,
			const struct cfi_section *s, const struct cfi_raw_fde *f, int enc,
			Dwarf_CFI *cfi)
{
	const uint8_t *p = f->loc;
	uint64_t start, len;

	if (enc < 0 || read_pointer(s, &p, enc, false, &start) ||
	    read_pointer(s, &p, enc, true, &len) || !len || start + len < start)
		return 0; /* nothing this unwinder can place */
	if (!text__holds(text, start, start + len)) {
		l->nr_skipped++;
		return 0;
	}
	return fdes__add(l, start, start + len, cfi);
}

/*
 * Every FDE of the section @s, added with @cfi (the libdw handle that walks
 * it). CIEs come first in practice but not by rule: all entries are listed
 * once (CIEs in offset order), then the FDEs decoded.
 */
static int fdes__list_section(struct cfi_fdes *l, const struct cfi_text *text,
			      const struct cfi_section *s, Dwarf_CFI *cfi,
			      const unsigned char *ident)
{
	Elf_Data data = { .d_buf = (void *)s->buf, .d_size = s->end - s->buf };
	size_t nr_cies = 0, cap_cies = 0, nr_raw = 0, cap_raw = 0;
	struct cfi_raw_fde *raw = NULL;
	struct cfi_cie *cies = NULL;
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry e;
	int err = 0;

	/* a malformed entry ends the list: what came before it is kept */
	while (!err && dwarf_next_cfi(ident, &data, s->eh, off, &next, &e) == 0) {
		if (dwarf_cfi_cie_p(&e)) {
			err = array__grow((void **)&cies, &cap_cies, nr_cies + 1, sizeof(*cies));
			if (!err)
				cies[nr_cies++] =
					(struct cfi_cie){ off,
							  cie__fde_encoding(s, &e.cie) };
		} else {
			err = array__grow((void **)&raw, &cap_raw, nr_raw + 1, sizeof(*raw));
			if (!err)
				raw[nr_raw++] = (struct cfi_raw_fde){ e.fde.start,
								      e.fde.CIE_pointer };
		}
		off = next;
	}
	for (size_t i = 0; i < nr_raw && !err; i++)
		err = fdes__decode(l, text, s, &raw[i],
				   cie__find(cies, nr_cies, raw[i].cie), cfi);
	free(cies);
	free(raw);
	return err;
}

static int fde__cmp(const void *a, const void *b)
{
	const struct cfi_fde *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->end > y->end) - (x->end < y->end);
}

static uint64_t fde__end(const void *fde)
{
	return ((const struct cfi_fde *)fde)->end;
}

/* Sort [from, nr), dropping empty FDEs (what fdes__subtract_eh emptied). */
static void fdes__sort(struct cfi_fdes *l, size_t from)
{
	size_t n = from;

	for (size_t i = from; i < l->nr; i++)
		if (l->v[i].end > l->v[i].start)
			l->v[n++] = l->v[i];
	l->nr = n;
	if (n - from > 1)
		qsort(l->v + from, n - from, sizeof(*l->v), fde__cmp);
}

/*
 * Keep of the .debug_frame FDEs in [from, nr) only what the .eh_frame FDEs
 * in [0, from) (sorted) leave uncovered.
 */
static int fdes__subtract_eh(struct cfi_fdes *l, size_t from)
{
	size_t nr = l->nr;

	for (size_t i = from; i < nr; i++) {
		struct cfi_fde d = l->v[i];
		size_t lo;

		l->v[i].end = l->v[i].start; /* replaced by its pieces */
		/* the first .eh_frame FDE ending after d.start */
		lo = search__upper_bound(l->v, from, sizeof(*l->v), d.start, fde__end);
		for (; lo < from && l->v[lo].start < d.end && d.start < d.end; lo++) {
			if (l->v[lo].start > d.start &&
			    fdes__add(l, d.start, l->v[lo].start, d.cfi))
				return -ENOMEM;
			if (l->v[lo].end > d.start)
				d.start = l->v[lo].end;
		}
		if (d.start < d.end && fdes__add(l, d.start, d.end, d.cfi))
			return -ENOMEM;
	}
	return 0;
}

static Elf_Scn *elf__section(Elf *elf, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	const char *name;

	/* lld types .eh_frame SHT_X86_64_UNWIND */
	while ((scn = elf_scn__next(elf, scn, sh, &name))) {
		if ((sh->sh_type == SHT_PROGBITS || sh->sh_type == SHT_X86_64_UNWIND) &&
		    !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static int text__read(struct cfi_text *text, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	text->v = calloc(n ? n : 1, sizeof(*text->v));
	if (!text->v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
		    (ph.p_flags & PF_X))
			text->v[text->nr++] =
				(struct cfi_range){ ph.p_vaddr, ph.p_vaddr + ph.p_memsz };
	}
	return 0;
}

/* The FDEs of the section @name of @elf, walked through @cfi. */
static int fdes__section(struct cfi_fdes *l, const struct cfi_text *text, Elf *elf,
			 const char *name, Dwarf_CFI *cfi)
{
	struct cfi_section s = { .eh = !strcmp(name, ".eh_frame") };
	Elf_Data *d;
	Elf_Scn *scn;
	GElf_Shdr sh;

	scn = cfi ? elf__section(elf, name, &sh) : NULL;
	if (!scn)
		return 0;
	/* .debug_frame may be compressed: libdw decompressed it in place already */
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf)
		return 0;
	s.buf = d->d_buf;
	s.end = s.buf + d->d_size;
	s.addr = sh.sh_addr;
	return fdes__list_section(l, text, &s, cfi,
				  (const unsigned char *)elf_getident(elf, NULL));
}

int cfi_fdes__list(struct cfi_fdes *l, Elf *elf, Dwarf_CFI *eh, Elf *dbg, Dwarf_CFI *df)
{
	struct cfi_text text = { 0 };
	int err = text__read(&text, elf);

	if (!err)
		err = fdes__section(l, &text, elf, ".eh_frame", eh);
	if (!err) {
		fdes__sort(l, 0);
		l->nr_eh = l->nr;
		err = fdes__section(l, &text, dbg, ".debug_frame", df);
	}
	if (!err)
		err = fdes__subtract_eh(l, l->nr_eh);
	if (!err)
		fdes__sort(l, 0);
	free(text.v);
	return err;
}

void cfi_fdes__release(struct cfi_fdes *l)
{
	free(l->v);
	*l = (struct cfi_fdes){ 0 };
}
