// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpfprof range, once sampling has stopped: the per-address counts of every
 * range -> an annotated listing. Each range's code is decoded from its first
 * byte (from the binary's file, or /proc/kcore for the kernel); decoding
 * restarts at any sampled address and any function start that falls inside
 * an instruction, so every sample has a row even in a range that does not
 * start on an instruction, and a byte that starts no instruction puts no
 * row after the next known start out of step.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "disasm.h"
#include "drain-range.h"
#include "kcore.h"
#include "loader-range.h"

#define KCORE_PATH "/proc/kcore"

/* One sampled address of a range. */
struct addr_count {
	uint64_t addr;
	uint64_t count;
};

struct range_drain {
	struct range_set *rs;
	struct addr_count **counts; /* per range */
	size_t *nr, *cap;
	struct disasm *dis;
	bool code;
};

static int range_drain__one(const void *key, __u64 count, void *ctx)
{
	const struct range_addr_key *k = key;
	struct range_drain *d = ctx;
	size_t id = k->id;

	if (id >= d->rs->nr)
		return 0;
	if (array__grow((void **)&d->counts[id], &d->cap[id], d->nr[id] + 1,
			sizeof(**d->counts)))
		return -ENOMEM;
	d->counts[id][d->nr[id]++] = (struct addr_count){ .addr = k->addr, .count = count };
	return 0;
}

static int addr_count__cmp(const void *a, const void *b)
{
	const struct addr_count *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The range's code, malloc'd; NULL with *@why set when there is none. */
static uint8_t *drain_range__code(const struct range *r, const char **why)
{
	size_t len = r->end - r->start;
	uint8_t *buf = malloc(len ? len : 1);
	uint64_t off;
	int err;

	if (!buf) {
		*why = "out of memory";
		return NULL;
	}
	if (r->kernel) {
		err = kcore__read(KCORE_PATH, r->start, buf, len);
		if (!err)
			return buf;
		*why = err == -ENOENT ?
			       KCORE_PATH " does not exist (CONFIG_PROC_KCORE is off)" :
			       "cannot read the code from " KCORE_PATH;
	} else if (!r->bs || r->bin->fd < 0 || r->bin->vdso) {
		*why = r->bin ? "the binary's code cannot be read" :
				"the code is in no known file";
	} else if (!binsym__vaddr_to_off(r->bs, r->start - r->delta, &off) ||
		   pread(r->bin->fd, buf, len, off) != (ssize_t)len) {
		*why = "the code is not in the binary's file";
	} else {
		return buf;
	}
	free(buf);
	return NULL;
}

static int rows__push(struct listing_range *lr, size_t *cap, uint64_t addr, uint64_t count,
		      const char *text)
{
	struct listing_row *row;

	if (array__grow((void **)&lr->rows, cap, lr->nr_rows + 1, sizeof(*lr->rows)))
		return -ENOMEM;
	row = &lr->rows[lr->nr_rows];
	*row = (struct listing_row){ .addr = addr, .count = count };
	if (text && !(row->text = strdup(text)))
		return -ENOMEM;
	lr->nr_rows++;
	return 0;
}

/*
 * The start of a function in (@pos, @next), listing addresses, from the
 * binary's symbols or kallsyms; @next when none. The function holding the
 * byte before @next is the only one that can start there.
 */
static uint64_t drain_range__func_start(struct range_set *rs, const struct range *r, uint64_t pos,
					uint64_t next)
{
	const struct ksyms *ks = r->kernel ? range_set__ksyms(rs) : NULL;
	const struct ksym *ksym = ks ? ksyms__lookup(ks, next - 1) : NULL;
	uint64_t start = next;
	struct elf_func f;

	if (ksym)
		start = ksym->addr;
	else if (!r->kernel && r->bs && binsym__func_at(r->bs, next - 1 - r->delta, &f))
		start = f.start + r->delta;
	return start > pos && start < next ? start : next;
}

/*
 * Every instruction of the range, decoded from known instruction starts:
 * the range's first byte, every sampled address and every function start.
 * Bytes before a known start that decode into no instruction ending at or
 * before it are ".byte" rows, so the decoder never runs across one.
 */
static int rows__decode(struct listing_range *lr, struct range_set *rs, const struct range *r,
			struct disasm *dis, const uint8_t *code, const struct addr_count *c,
			size_t nc)
{
	uint64_t pos = lr->start, limit, next;
	size_t cap = 0, j = 0;
	struct insn insn;
	int err = 0;

	while (pos < lr->end && !err) {
		const uint8_t *p = code + (pos - lr->start);
		uint64_t at = pos, count = 0;
		size_t left;

		if (j < nc && c[j].addr == pos)
			count = c[j++].count;
		limit = j < nc && c[j].addr < lr->end ? c[j].addr : lr->end;
		left = limit - pos;
		disasm__next(dis, &p, &left, &at, &insn);
		next = drain_range__func_start(rs, r, pos, pos + insn.size);
		if (next != pos + insn.size) {
			p = code + (pos - lr->start);
			left = next - pos;
			at = pos;
			disasm__next(dis, &p, &left, &at, &insn);
		}
		err = rows__push(lr, &cap, pos, count, insn.text);
		pos += insn.size;
	}
	return err;
}

/* Without the code: one row per sampled address. */
static int rows__sampled(struct listing_range *lr, const struct addr_count *c, size_t nc)
{
	size_t cap = 0;
	int err = 0;

	for (size_t j = 0; j < nc && !err; j++)
		err = rows__push(lr, &cap, c[j].addr, c[j].count, NULL);
	return err;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* A kernel row: its function from kallsyms, its line from the vmlinux's DWARF. */
static int row__name_kernel(struct listing_row *row, const struct ksyms *ks,
			    struct kvmlinux *kv, struct src_frames *sf)
{
	const struct ksym *s = ks ? ksyms__lookup(ks, row->addr) : NULL;
	int err;

	if (s) {
		row->func = s->name;
		row->func_off = row->addr - s->addr;
	}
	err = kv ? kvmlinux__lookup(kv, row->addr, false, true, sf) : -ENOENT;
	if (err == -ENOMEM)
		return err;
	if (!err && sf->nr) {
		row->file = base_name(sf->v[0].file);
		row->line = sf->v[0].line;
	}
	return 0;
}

/* Function, offset and source line of each row. */
static int rows__name(struct listing_range *lr, struct range_set *rs, const struct range *r)
{
	const struct ksyms *ks = r->kernel ? range_set__ksyms(rs) : NULL;
	struct kvmlinux *kv = r->kernel && rs->o.lines ? range_set__kvmlinux(rs) : NULL;
	struct src_frames sf = { 0 };
	int err = 0;

	for (size_t i = 0; i < lr->nr_rows && !err; i++) {
		struct listing_row *row = &lr->rows[i];
		uint64_t vaddr = row->addr - r->delta;
		const struct symloc *loc;
		struct elf_func f;

		if (r->kernel) {
			err = row__name_kernel(row, ks, kv, &sf);
			continue;
		}
		if (!r->bs)
			continue;
		row->func = binsym__func_at(r->bs, vaddr, &f);
		row->func_off = row->func ? vaddr - f.start : 0;
		loc = binsym__at_vaddr(r->bs, vaddr, false);
		if (!loc) {
			err = -ENOMEM;
			break;
		}
		row->file = base_name(loc->f[loc->nr - 1].file);
		row->line = loc->f[loc->nr - 1].line;
	}
	srcinfo__free_frames(&sf);
	return err;
}

static bool rows__have_source(const struct listing_range *lr)
{
	for (size_t i = 0; i < lr->nr_rows; i++)
		if (lr->rows[i].file)
			return true;
	return false;
}

static int src__cmp(const void *a, const void *b)
{
	const struct listing_src *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Samples per source line, hottest first. */
static int srcs__collect(struct listing_range *lr)
{
	lr->srcs = calloc(lr->nr_rows ? lr->nr_rows : 1, sizeof(*lr->srcs));
	if (!lr->srcs)
		return -ENOMEM;
	for (size_t i = 0; i < lr->nr_rows; i++) {
		const struct listing_row *row = &lr->rows[i];
		size_t j;

		if (!row->count || !row->file || !row->line)
			continue;
		for (j = 0; j < lr->nr_srcs; j++)
			if (lr->srcs[j].line == row->line &&
			    !strcmp(lr->srcs[j].file, row->file))
				break;
		if (j == lr->nr_srcs)
			lr->srcs[lr->nr_srcs++] =
				(struct listing_src){ row->file, row->line, 0 };
		lr->srcs[j].count += row->count;
	}
	if (lr->nr_srcs)
		qsort(lr->srcs, lr->nr_srcs, sizeof(*lr->srcs), src__cmp);
	return 0;
}

static int proc__cmp(const void *a, const void *b)
{
	const struct listing_proc *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

struct procs_ctx {
	struct listing_range *lr;
	struct proc_table *pt;
	unsigned int id;
	size_t cap;
};

static int procs__hit(const void *key, __u64 count, void *ctx)
{
	const struct range_hit_key *k = key;
	struct procs_ctx *c = ctx;
	struct listing_range *lr = c->lr;

	if (k->id != c->id || !count)
		return 0;
	if (array__grow((void **)&lr->procs, &c->cap, lr->nr_procs + 1, sizeof(*lr->procs)))
		return -ENOMEM;
	lr->procs[lr->nr_procs++] = (struct listing_proc){
		.tgid = k->tgid,
		.comm = k->tgid ? proc_table__comm_of(c->pt, k->tgid) : NULL,
		.count = count,
	};
	return 0;
}

/* Distinct processes (or the kernel) the range was placed in. */
static size_t drain_range__nr_places(const struct range *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_insts; i++) {
		size_t j = 0;

		while (j < i && r->insts[j].tgid != r->insts[i].tgid)
			j++;
		n += j == i;
	}
	return n;
}

/* Samples per process (or the kernel), those with any, most first. */
static int procs__collect(struct listing_range *lr, struct loader *l, struct proc_table *pt,
			  const struct range *r)
{
	struct procs_ctx c = { .lr = lr, .pt = pt, .id = r->id };
	int err;

	lr->nr_insts = drain_range__nr_places(r);
	err = loader_range__for_each_hit(l, procs__hit, &c);
	if (err)
		return err;
	if (lr->nr_procs)
		qsort(lr->procs, lr->nr_procs, sizeof(*lr->procs), proc__cmp);
	return 0;
}

static void drain_range__header(struct listing_range *lr, const struct range *r)
{
	*lr = (struct listing_range){
		.arg = r->arg,
		.kind = range_spec__kind_name(r->spec.kind),
		.binary = r->bin ? r->bin->path : r->spec.binary,
		.other = r->other ? r->other->path : NULL,
		.symbol = r->symbol,
		.impl = r->impl,
		.start = r->start,
		.end = r->end,
		.unmapped = r->unmapped,
		.not_counted = r->late,
	};
}

static int range_drain__range(struct range_drain *d, struct listing_range *lr, size_t id,
			      struct loader *l, struct proc_table *pt)
{
	const struct range *r = &d->rs->r[id];
	struct addr_count *c = d->counts[id];
	size_t nc = d->nr[id];
	uint8_t *code = NULL;
	int err;

	drain_range__header(lr, r);
	if (nc)
		qsort(c, nc, sizeof(*c), addr_count__cmp);
	for (size_t j = 0; j < nc; j++)
		lr->samples += c[j].count;
	if (d->code && r->end > r->start)
		code = drain_range__code(r, &lr->no_code);
	err = code ? rows__decode(lr, d->rs, r, d->dis, code, c, nc) :
		     rows__sampled(lr, c, nc);
	free(code);
	err = err ?: rows__name(lr, d->rs, r);
	err = err ?: srcs__collect(lr);
	if (!err && d->rs->o.lines && !rows__have_source(lr))
		lr->no_source = r->kernel ? "no vmlinux with DWARF matches the running kernel" :
			      r->bs ? "the binary has no DWARF (install its debug file)" :
				      "the code is in no known file";
	return err ?: procs__collect(lr, l, pt, r);
}

int drain_range__listing(struct loader *l, struct range_set *rs, struct proc_table *pt,
			 bool code, struct listing *ls)
{
	struct range_drain d = { .rs = rs, .code = code };
	int err = -ENOMEM;

	ls->ranges = calloc(rs->nr ? rs->nr : 1, sizeof(*ls->ranges));
	d.counts = calloc(rs->nr ? rs->nr : 1, sizeof(*d.counts));
	d.nr = calloc(rs->nr ? rs->nr : 1, sizeof(*d.nr));
	d.cap = calloc(rs->nr ? rs->nr : 1, sizeof(*d.cap));
	d.dis = code ? disasm__new() : NULL;
	if (!ls->ranges || !d.counts || !d.nr || !d.cap || (code && !d.dis))
		goto out;
	err = range_set__bind(rs, pt);
	err = err ?: loader_range__for_each_count(l, range_drain__one, &d);
	for (size_t i = 0; i < rs->nr && !err; i++)
		err = range_drain__range(&d, &ls->ranges[ls->nr++], i, l, pt);
out:
	for (size_t i = 0; d.counts && i < rs->nr; i++)
		free(d.counts[i]);
	free(d.counts);
	free(d.nr);
	free(d.cap);
	disasm__free(d.dis);
	return err;
}
