// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CFI -> unwind table. The FDEs listed (cfifdes.c) are walked in address
 * order, each row by row with dwarf_cfi_addrframe from its start, a row's
 * end being the next one's start; a row's rules are classified into the
 * few shapes the BPF program follows (bpfprof.h).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cfifdes.h"
#include "cfitable.h"
#include "elfopen.h"
#include "elfscn.h"

/* x86-64 DWARF register numbers */
#define DWREG_RBP 6
#define DWREG_RSP 7
#define DWREG_RIP 16 /* the return address column */
#define DWREG_AUX_MAX 15 /* the most UNWIND_AUX holds */

struct cfi_builder {
	struct cfi_fdes fdes;
	struct unwind_row *rows;
	size_t nr_rows, cap_rows;
	uint64_t base;
	uint32_t nr_raw, nr_used;
};

/* ---- rows ------------------------------------------------------------ */

static bool op__breg(const Dwarf_Op *op, unsigned int *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	if (op->atom == DW_OP_bregx) {
		*reg = op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

static bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static bool fits_s16(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

/*
 * The PLT's CFA: rsp + N + ((rip & 15) >= T ? 8 : 0), as
 * DW_OP_breg7 N; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_litT;
 * DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus.
 */
static bool cfa__plt(const Dwarf_Op *ops, size_t nops, int64_t *n, unsigned int *t)
{
	static const uint8_t shape[] = { DW_OP_breg7, DW_OP_breg16, DW_OP_lit15,
					 DW_OP_and,   DW_OP_lit0,   DW_OP_ge,
					 DW_OP_lit3,  DW_OP_shl,    DW_OP_plus };

	if (nops != sizeof(shape))
		return false;
	for (size_t i = 0; i < nops; i++) {
		if (i == 4 ? ops[i].atom < DW_OP_lit0 || ops[i].atom > DW_OP_lit31 :
			     ops[i].atom != shape[i])
			return false;
	}
	if (ops[1].number != 0)
		return false;
	*n = (int64_t)ops[0].number;
	*t = ops[4].atom - DW_OP_lit0;
	return true;
}

static int row__cfa(struct unwind_row *r, const Dwarf_Op *ops, size_t nops)
{
	unsigned int reg, t;
	int64_t off;

	if (nops == 1 && op__breg(&ops[0], &reg, &off) && fits_s32(off)) {
		if (reg == DWREG_RSP)
			r->cfa_type = UNWIND_CFA(UNWIND_CFA_RSP, 0);
		else if (reg == DWREG_RBP)
			r->cfa_type = UNWIND_CFA(UNWIND_CFA_RBP, 0);
		else if (reg <= DWREG_AUX_MAX)
			r->cfa_type = UNWIND_CFA(UNWIND_CFA_REG, reg);
		else
			return -ENOTSUP;
		r->cfa_off = off;
		return 0;
	}
	if (cfa__plt(ops, nops, &off, &t) && t <= DWREG_AUX_MAX && fits_s32(off)) {
		r->cfa_type = UNWIND_CFA(UNWIND_CFA_PLT, t);
		r->cfa_off = off;
		return 0;
	}
	if (nops == 2 && op__breg(&ops[0], &reg, &off) && ops[1].atom == DW_OP_deref &&
	    reg <= DWREG_AUX_MAX && fits_s32(off)) {
		r->cfa_type = UNWIND_CFA(UNWIND_CFA_DEREF, reg);
		r->cfa_off = off;
		return 0;
	}
	return -ENOTSUP;
}

/*
 * Where the caller's rbp is. libdw gives a register's rule as a location
 * expression: none = same value, empty = undefined, {call_frame_cfa,
 * plus_uconst n} = saved at CFA + n; a DW_CFA_expression comes as
 * call_frame_cfa (pushed, as the rule says) then the expression.
 */
static void row__rbp(struct unwind_row *r, Dwarf_Frame *fr)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	unsigned int reg;
	int64_t off = 0;

	r->rbp_type = UNWIND_RBP_UNDEF;
	if (dwarf_frame_register(fr, DWREG_RBP, mem, &ops, &nops))
		return;
	if (!ops) {
		r->rbp_type = UNWIND_RBP_SAME;
		return;
	}
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa || nops > 2)
		return;
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst)
		off = (int64_t)ops[1].number;
	else if (nops == 2 && op__breg(&ops[1], &reg, &off) && reg == DWREG_RBP) {
		if (fits_s16(off)) {
			r->rbp_type = UNWIND_RBP_REG;
			r->rbp_off = off;
		}
		return;
	} else if (nops == 2) {
		return;
	}
	if (fits_s16(off)) {
		r->rbp_type = UNWIND_RBP_CFA;
		r->rbp_off = off;
	}
}

/* The rules of the row @fr (pc not set). */
static void row__classify(struct unwind_row *r, Dwarf_Frame *fr)
{
	Dwarf_Op mem[3], *ops;
	Dwarf_Addr start, end;
	bool signal;
	size_t nops;
	int ra = dwarf_frame_info(fr, &start, &end, &signal);

	r->cfa_off = 0;
	r->rbp_off = 0;
	r->rbp_type = UNWIND_RBP_SAME;
	if (signal) {
		r->cfa_type = UNWIND_CFA(UNWIND_CFA_SIGNAL, 0);
		return;
	}
	r->cfa_type = UNWIND_CFA(UNWIND_CFA_INVALID, 0);
	if (ra != DWREG_RIP || dwarf_frame_register(fr, ra, mem, &ops, &nops))
		return;
	if (ops && !nops) {
		r->cfa_type = UNWIND_CFA(UNWIND_CFA_END, 0);
		return;
	}
	/* the return address saved at CFA - 8, as a call leaves it */
	if (!ops || nops != 2 || ops[0].atom != DW_OP_call_frame_cfa ||
	    ops[1].atom != DW_OP_plus_uconst || (int64_t)ops[1].number != -8)
		return;
	if (dwarf_frame_cfa(fr, &ops, &nops) || row__cfa(r, ops, nops)) {
		r->cfa_type = UNWIND_CFA(UNWIND_CFA_INVALID, 0);
		r->cfa_off = 0;
		return;
	}
	row__rbp(r, fr);
}

static bool row__same_rules(const struct unwind_row *a, const struct unwind_row *b)
{
	return a->cfa_type == b->cfa_type && a->cfa_off == b->cfa_off &&
	       a->rbp_type == b->rbp_type && a->rbp_off == b->rbp_off;
}

static int builder__emit(struct cfi_builder *b, uint64_t vaddr, struct unwind_row r)
{
	b->nr_raw++;
	r.pc = vaddr - b->base;
	while (b->nr_rows && b->rows[b->nr_rows - 1].pc >= r.pc)
		b->nr_rows--; /* cannot happen: pcs only grow; the later row wins */
	if (b->nr_rows && row__same_rules(&b->rows[b->nr_rows - 1], &r))
		return 0;
	if (array__grow((void **)&b->rows, &b->cap_rows, b->nr_rows + 1,
			sizeof(*b->rows)))
		return -ENOMEM;
	b->rows[b->nr_rows++] = r;
	return 0;
}

static int builder__emit_type(struct cfi_builder *b, uint64_t vaddr,
			      enum unwind_cfa_type t)
{
	return builder__emit(b, vaddr,
			     (struct unwind_row){ .cfa_type = UNWIND_CFA(t, 0) });
}

/* Rows of [start, end) of one FDE: one per libdw row, each from its start. */
static int builder__walk_fde(struct cfi_builder *b, const struct cfi_fde *f,
			     uint64_t start)
{
	uint64_t addr = start;

	while (addr < f->end) {
		struct unwind_row r;
		Dwarf_Addr rs, re;
		Dwarf_Frame *fr;
		bool signal;
		int err;

		if (dwarf_cfi_addrframe(f->cfi, addr, &fr))
			return builder__emit_type(b, addr, UNWIND_CFA_INVALID);
		row__classify(&r, fr);
		dwarf_frame_info(fr, &rs, &re, &signal);
		free(fr);
		err = builder__emit(b, addr, r);
		if (err)
			return err;
		addr = re > addr && re < f->end ? re : f->end;
	}
	return 0;
}

/* Rows for the sorted FDEs, NONE where no FDE continues at the end of one. */
static int builder__walk(struct cfi_builder *b)
{
	uint64_t covered = b->base;
	int err;

	for (size_t i = 0; i < b->fdes.nr; i++) {
		const struct cfi_fde *f = &b->fdes.v[i];
		uint64_t start = f->start > covered ? f->start : covered;

		if (start >= f->end)
			continue;
		if (start > covered && b->nr_rows) {
			err = builder__emit_type(b, covered, UNWIND_CFA_NONE);
			if (err)
				return err;
		}
		err = builder__walk_fde(b, f, start);
		if (err)
			return err;
		b->nr_used++;
		covered = f->end;
	}
	return builder__emit_type(b, covered, UNWIND_CFA_NONE);
}

/* ---- the ELF file ------------------------------------------------------ */

static bool elf__is_x86_64(Elf *elf)
{
	GElf_Ehdr eh;

	return elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	       eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_ident[EI_DATA] == ELFDATA2LSB &&
	       eh.e_machine == EM_X86_64;
}

static struct cfi_table *builder__table(struct cfi_builder *b)
{
	struct cfi_table *t = cfi_table__from_rows(b->base, b->rows, b->nr_rows);

	if (t) {
		t->nr_fdes = b->nr_used;
		t->nr_fdes_skipped = b->fdes.nr_skipped;
		t->nr_raw_rows = b->nr_raw;
		t->flags = (b->fdes.nr_eh ? CFI_TABLE_EH_FRAME : 0) |
			   (b->fdes.nr > b->fdes.nr_eh ? CFI_TABLE_DEBUG_FRAME : 0);
	}
	return t;
}

static struct cfi_table *cfi_table__build_elf(Elf *elf, Elf *debug)
{
	struct cfi_builder b = { 0 };
	Dwarf_CFI *eh = NULL, *df = NULL;
	struct cfi_table *t = NULL;
	Dwarf *dw = NULL;
	int err = -ENOEXEC;

	if (!elf__is_x86_64(elf) || (debug && elf_kind(debug) != ELF_K_ELF))
		goto out;
	eh = dwarf_getcfi_elf(elf);
	/* .debug_frame: before it is read, libdw decompresses it (if not a bomb) */
	if (!elf_scn__unpack_bounded(debug ? debug : elf))
		dw = dwarf_begin_elf(debug ? debug : elf, DWARF_C_READ, NULL);
	df = dw ? dwarf_getcfi(dw) : NULL;
	err = cfi_fdes__list(&b.fdes, elf, eh, debug ? debug : elf, df);
	if (err)
		goto out;
	err = -ENODATA;
	if (!b.fdes.nr)
		goto out;
	b.base = b.fdes.v[0].start;
	err = -E2BIG;
	for (size_t i = 0; i < b.fdes.nr; i++)
		if (b.fdes.v[i].end - b.base > UINT32_MAX)
			goto out;
	err = builder__walk(&b);
	if (err)
		goto out;
	t = builder__table(&b);
	err = t ? 0 : -errno;
out:
	dwarf_cfi_end(eh); /* df belongs to dw */
	dwarf_end(dw);
	cfi_fdes__release(&b.fdes);
	free(b.rows);
	errno = -err;
	return t;
}

/* Takes both handles; @want_debug: @debug must be there. */
static struct cfi_table *cfi_table__build(Elf *elf, Elf *debug, bool want_debug)
{
	struct cfi_table *t = NULL;
	int err = ENOEXEC;

	if (elf && (debug || !want_debug)) {
		t = cfi_table__build_elf(elf, debug);
		err = errno;
	}
	elf_end(debug);
	elf_end(elf);
	errno = err;
	return t;
}

struct cfi_table *cfi_table__build_fd(int fd, int debug_fd)
{
	return cfi_table__build(elf_open__fd(fd), elf_open__fd(debug_fd), debug_fd >= 0);
}

/* The bytes of a section the table is built from? */
static bool digest__wants(const GElf_Shdr *sh, const char *name)
{
	return sh->sh_type == SHT_X86_64_UNWIND || !strcmp(name, ".eh_frame") ||
	       !strcmp(name, ".eh_frame_hdr") || !strcmp(name, ".debug_frame");
}

static int digest__elf(struct sha256 *c, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	GElf_Shdr sh;
	const char *name;
	Elf_Data *d;
	size_t n;

	if (!elf || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	sha256__update(c, &eh, sizeof(eh));
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(elf, i, &ph))
			sha256__update(c, &ph, sizeof(ph));
	while ((scn = elf_scn__next(elf, scn, &sh, &name))) {
		sha256__update(c, &sh, sizeof(sh));
		sha256__update(c, name, strlen(name) + 1);
		if (!digest__wants(&sh, name) || sh.sh_type == SHT_NOBITS)
			continue;
		d = elf_rawdata(scn, NULL);
		if (d && d->d_buf)
			sha256__update(c, d->d_buf, d->d_size);
	}
	return 0;
}

bool cfi_table__has_cfi(int fd)
{
	Elf *elf = elf_open__fd(fd);
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;
	bool has = false;

	while (elf && !has && (scn = elf_scn__next(elf, scn, &sh, &name)))
		/* libicudata's 4-byte .eh_frame is a terminator alone; a CIE and an FDE take 32 */
		has = digest__wants(&sh, name) && strcmp(name, ".eh_frame_hdr") &&
		      sh.sh_type != SHT_NOBITS && sh.sh_size >= 32;
	elf_end(elf);
	return has;
}

int cfi_table__digest(int fd, int debug_fd, uint8_t out[SHA256_SIZE])
{
	Elf *elf = elf_open__fd(fd), *debug = elf_open__fd(debug_fd);
	struct sha256 c;
	int err;

	sha256__init(&c);
	err = digest__elf(&c, elf);
	/* what is hashed says which file it came from */
	sha256__update(&c, debug ? "debug" : "none", debug ? 6 : 5);
	if (!err && debug)
		err = digest__elf(&c, debug);
	sha256__final(&c, out);
	elf_end(debug);
	elf_end(elf);
	return err;
}

struct cfi_table *cfi_table__build_mem(const void *image, size_t size)
{
	return cfi_table__build(elf_open__mem(image, size), NULL, false);
}

/* ---- the table ----------------------------------------------------------- */

static uint32_t table__nr_pages(const struct unwind_row *rows, uint32_t nr_rows)
{
	return (rows[nr_rows - 1].pc >> UNWIND_PAGE_SHIFT) + 1;
}

struct cfi_table *cfi_table__from_rows(uint64_t base, const struct unwind_row *rows,
				       uint32_t nr_rows)
{
	struct cfi_table *t;
	uint32_t nr_pages, r = 0;

	if (!nr_rows) {
		errno = EINVAL;
		return NULL;
	}
	nr_pages = table__nr_pages(rows, nr_rows);
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->rows = malloc((size_t)nr_rows * sizeof(*rows) +
			 ((size_t)nr_pages + 1) * sizeof(uint32_t));
	if (!t->rows) {
		free(t);
		return NULL;
	}
	memcpy(t->rows, rows, (size_t)nr_rows * sizeof(*rows));
	t->pages = (uint32_t *)(t->rows + nr_rows);
	t->base = base;
	t->nr_rows = nr_rows;
	t->nr_pages = nr_pages;
	for (uint32_t i = 0; i < nr_pages; i++) {
		uint64_t pc = (uint64_t)i << UNWIND_PAGE_SHIFT;

		while (r + 1 < nr_rows && rows[r + 1].pc <= pc)
			r++;
		t->pages[i] = r;
	}
	t->pages[nr_pages] = nr_rows - 1;
	return t;
}

static bool row__valid(const struct unwind_row *r)
{
	unsigned int type = UNWIND_TYPE(r->cfa_type), aux = UNWIND_AUX(r->cfa_type);

	if (type > UNWIND_CFA_INVALID || r->rbp_type > UNWIND_RBP_UNDEF)
		return false;
	return aux == 0 || type == UNWIND_CFA_REG || type == UNWIND_CFA_PLT ||
	       type == UNWIND_CFA_DEREF;
}

int cfi_table__check(const struct cfi_table *t)
{
	uint32_t r = 0;

	if (!t->nr_rows || !t->rows || !t->pages ||
	    UNWIND_TYPE(t->rows[t->nr_rows - 1].cfa_type) != UNWIND_CFA_NONE ||
	    t->nr_pages != table__nr_pages(t->rows, t->nr_rows) ||
	    t->pages[t->nr_pages] != t->nr_rows - 1)
		return -EBADMSG;
	for (uint32_t i = 0; i < t->nr_rows; i++)
		if (!row__valid(&t->rows[i]) || (i && t->rows[i].pc <= t->rows[i - 1].pc))
			return -EBADMSG;
	for (uint32_t i = 0; i < t->nr_pages; i++) {
		uint64_t pc = (uint64_t)i << UNWIND_PAGE_SHIFT;

		while (r + 1 < t->nr_rows && t->rows[r + 1].pc <= pc)
			r++;
		if (t->pages[i] != r ||
		    t->pages[i + 1] - t->pages[i] + 1 >= (1u << UNWIND_SEARCH_STEPS))
			return -EBADMSG;
	}
	return 0;
}

const struct unwind_row *cfi_table__lookup(const struct cfi_table *t, uint64_t vaddr)
{
	uint64_t pc = vaddr - t->base;
	uint32_t page, lo, hi;

	if (vaddr < t->base || pc >= t->rows[t->nr_rows - 1].pc)
		return NULL;
	page = pc >> UNWIND_PAGE_SHIFT;
	lo = t->pages[page];
	hi = t->pages[page + 1];
	/* the last row in [lo, hi] with row.pc <= pc; rows[lo].pc <= pc holds */
	for (int step = 0; step < UNWIND_SEARCH_STEPS && lo < hi; step++) {
		uint32_t mid = lo + (hi - lo + 1) / 2;

		if (t->rows[mid].pc <= pc)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &t->rows[lo];
}

size_t cfi_table__bytes(const struct cfi_table *t)
{
	return (size_t)t->nr_rows * sizeof(*t->rows) +
	       ((size_t)t->nr_pages + 1) * sizeof(uint32_t);
}

void cfi_table__free(struct cfi_table *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}
