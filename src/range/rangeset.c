// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "infile.h"
#include "kptr.h"
#include "nearest.h"
#include "rangeset.h"

/* Names a "did you mean" lists. */
#define NEAREST_NAMES 5

/* Where the kernel's half of the address space starts (x86-64). */
#define KERNEL_START 0xffff800000000000ull
#define USER_END 0x0000800000000000ull

__attribute__((format(printf, 3, 4)))
static int range_set__fail(struct range_set *rs, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rs->why, sizeof(rs->why), fmt, ap);
	va_end(ap);
	return err;
}

const char *range_set__error(const struct range_set *rs)
{
	return rs->why;
}

int range_set__init(struct range_set *rs, char *const *args, size_t n,
		    const struct range_set_opts *o)
{
	memset(rs, 0, sizeof(*rs));
	rs->o = *o;
	rs->r = calloc(n ? n : 1, sizeof(*rs->r));
	if (!rs->r)
		return -ENOMEM;
	rs->bo = (struct binsym_opts){
		.demangle = o->demangle,
		.lines = o->lines,
		.debug_roots = o->debug_roots,
	};
	for (size_t i = 0; i < n; i++) {
		struct range *r = &rs->r[i];
		int err = rangespec__parse(args[i], &r->spec, NULL);

		if (err)
			return err;
		r->id = i;
		r->arg = args[i];
		rs->nr++;
	}
	return 0;
}

void range_set__free(struct range_set *rs)
{
	for (size_t i = 0; i < rs->nr; i++) {
		rangespec__free(&rs->r[i].spec);
		free(rs->r[i].insts);
		free(rs->r[i].late);
	}
	free(rs->r);
	for (size_t i = 0; i < rs->nr_bins; i++)
		binsym__free(rs->bs[i]);
	free(rs->bs);
	free(rs->bins);
	for (size_t i = 0; i < rs->nr_own; i++) {
		close(rs->own[i]->fd);
		free(rs->own[i]->path);
		free(rs->own[i]);
	}
	free(rs->own);
	kvmlinux__free(rs->kv);
	ksyms__free(rs->ks);
	memset(rs, 0, sizeof(*rs));
}

const struct ksyms *range_set__ksyms(struct range_set *rs)
{
	if (!rs->ks && !rs->ks_err) {
		rs->ks = ksyms__load(rs->o.kallsyms);
		rs->ks_err = rs->ks ? 0 : -errno;
	}
	return rs->ks && !ksyms__hidden(rs->ks) ? rs->ks : NULL;
}

struct kvmlinux *range_set__kvmlinux(struct range_set *rs)
{
	const struct ksyms *ks;

	if (!rs->kv_tried && (ks = range_set__ksyms(rs))) {
		rs->kv_tried = true;
		rs->kv = kvmlinux__open(ks, rs->o.debug_roots);
	}
	return rs->kv;
}

/* The symbols of @b, loaded once per binary. NULL on ENOMEM. */
static struct binsym *range_set__binsym(struct range_set *rs, const struct binary *b)
{
	struct binsym **bs;
	const struct binary **bins;

	for (size_t i = 0; i < rs->nr_bins; i++)
		if (rs->bins[i] == b)
			return rs->bs[i];
	bs = realloc(rs->bs, (rs->nr_bins + 1) * sizeof(*bs));
	if (bs)
		rs->bs = bs;
	bins = realloc(rs->bins, (rs->nr_bins + 1) * sizeof(*bins));
	if (bins)
		rs->bins = bins;
	if (!bs || !bins)
		return NULL;
	rs->bs[rs->nr_bins] = binsym__new(b, &rs->bo);
	if (!rs->bs[rs->nr_bins])
		return NULL;
	rs->bins[rs->nr_bins] = b;
	return rs->bs[rs->nr_bins++];
}

static int range_set__add_inst(struct range *r, pid_t tgid, uint64_t start, uint64_t end,
			       uint64_t base)
{
	struct range_inst *v = realloc(r->insts, (r->nr_insts + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	r->insts = v;
	r->insts[r->nr_insts++] = (struct range_inst){
		.tgid = tgid, .start = start, .end = end, .base = base,
	};
	return 0;
}

/* ---- kernel and absolute ranges ---- */

static int range_set__kernel_symbol(struct range_set *rs, struct range *r)
{
	const struct ksyms *ks = range_set__ksyms(rs);
	const struct ksym *s;
	char why[160];
	uint64_t end = 0;
	size_t nr = 0;

	if (!ks && rs->ks_err)
		return range_set__fail(rs, rs->ks_err, "range '%s': cannot read %s: %s", r->arg,
				       rs->o.kallsyms, strerror(-rs->ks_err));
	if (!ks) {
		kptr__why_hidden(why, sizeof(why));
		return range_set__fail(rs, -EACCES,
				       "range '%s': kernel symbols are hidden (%s); give "
				       "kernel:0xSTART-0xEND",
				       r->arg, why);
	}
	s = ksyms__find_func(ks, r->spec.symbol, &end, &nr);
	if (!s)
		return range_set__fail(rs, -ENOENT, "unknown kernel symbol '%s'",
				       r->spec.symbol);
	if (nr > 1)
		return range_set__fail(rs, -EINVAL,
				       "kernel symbol '%s' is ambiguous: %zu functions have "
				       "that name; give kernel:0xSTART-0xEND",
				       r->spec.symbol, nr);
	if (end == UINT64_MAX)
		return range_set__fail(rs, -EINVAL, "range '%s': cannot tell where %s ends",
				       r->arg, s->name);
	r->kernel = true;
	r->symbol = s->name;
	r->start = s->addr;
	r->end = end;
	return range_set__add_inst(r, 0, r->start, r->end, 0);
}

static int range_set__absolute(struct range_set *rs, struct range *r)
{
	const struct ksyms *ks;
	const struct ksym *s;

	r->start = r->spec.start;
	r->end = r->spec.end;
	if (r->spec.kind == RANGE_KERNEL_ADDR || r->start >= KERNEL_START) {
		if (r->start < KERNEL_START)
			return range_set__fail(rs, -EINVAL,
					       "range '%s': not a kernel address (expected "
					       "0x%llx or above)",
					       r->arg, KERNEL_START);
		r->kernel = true;
		ks = range_set__ksyms(rs);
		s = ks ? ksyms__lookup(ks, r->start) : NULL;
		r->symbol = s ? s->name : NULL;
		return range_set__add_inst(r, 0, r->start, r->end, 0);
	}
	if (r->end > USER_END)
		return range_set__fail(rs, -EINVAL,
				       "range '%s': runs from user into kernel addresses",
				       r->arg);
	if (!rs->o.one_target)
		return range_set__fail(rs, -EINVAL,
				       "range '%s': absolute user addresses need exactly one "
				       "target process (-p PID, or -- COMMAND)",
				       r->arg);
	r->tgid = rs->o.one_target;
	return range_set__add_inst(r, r->tgid, r->start, r->end, 0);
}

/* ---- ranges in binaries ---- */

/* "libfoo.so" names "libfoo.so" and a versioned "libfoo.so.1.2". */
static bool name__matches(const char *want, const char *name)
{
	size_t len = strlen(want);

	if (!strcmp(want, name))
		return true;
	return strstr(want, ".so") && !strncmp(want, name, len) && name[len] == '.';
}

struct bin_match {
	const struct range *r;
	pid_t not_yet;
	const struct stat *st;    /* the path's file (by path) */
	const char *real;         /* its real path (by path), or NULL */
	const struct binary *bin; /* the first match */
	const struct binary *other;
};

static bool binary__is(const struct binary *b, const struct bin_match *bm)
{
	if (b->vdso)
		return false;
	if (!bm->r->spec.binary_is_path)
		return name__matches(bm->r->spec.binary, b->name);
	if (b->ino && b->ino == bm->st->st_ino && b->dev == bm->st->st_dev)
		return true;
	return bm->real && !strcmp(bm->real, b->path);
}

static int bin_match__mapping(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct bin_match *bm = ctx;

	if (tgid == bm->not_yet || !m->bin || m->bin == bm->bin || m->bin == bm->other ||
	    !binary__is(m->bin, bm))
		return 0;
	if (!bm->bin)
		bm->bin = m->bin;
	else
		bm->other = m->bin;
	return 0;
}

/* A binary no target maps, opened by its path so that its symbols are checked. */
static const struct binary *range_set__open_path(struct range_set *rs, const char *path,
						 const struct stat *st)
{
	struct binary **own = realloc(rs->own, (rs->nr_own + 1) * sizeof(*own));
	struct binary *b = calloc(1, sizeof(*b));
	int len;

	if (own)
		rs->own = own;
	if (!own || !b || !(b->path = strdup(path))) {
		free(b);
		return NULL;
	}
	if (infile__open(path, &b->fd)) {
		free(b->path);
		free(b);
		return NULL;
	}
	b->root_fd = -1;
	b->name = strrchr(b->path, '/') ? strrchr(b->path, '/') + 1 : b->path;
	b->dev = st->st_dev;
	b->ino = st->st_ino;
	b->id = UINT_MAX;
	len = buildid__read_fd(b->fd, b->build_id, sizeof(b->build_id));
	b->build_id_len = len > 0 ? len : 0;
	rs->own[rs->nr_own++] = b;
	return b;
}

/* The binary @r names: mapped by a target, else opened by its path. */
static int range_set__find_binary(struct range_set *rs, struct range *r, struct proc_table *pt)
{
	struct bin_match bm = { .r = r, .not_yet = rs->o.not_yet };
	char *real = NULL;
	struct stat st;
	int err;

	if (r->spec.binary_is_path) {
		if (stat(r->spec.binary, &st))
			return range_set__fail(rs, errno == ENOENT ? -ENOENT : -errno,
					       "no binary '%s': %s", r->spec.binary,
					       strerror(errno));
		if (!S_ISREG(st.st_mode))
			return range_set__fail(rs, -EINVAL, "binary '%s' is not a regular file",
					       r->spec.binary);
		real = realpath(r->spec.binary, NULL);
		bm.st = &st;
		bm.real = real;
	}
	err = proc_table__for_each_mapping(pt, bin_match__mapping, &bm);
	r->bin = bm.bin;
	r->other = bm.other;
	if (!err && !r->bin && r->spec.binary_is_path) {
		r->bin = range_set__open_path(rs, real ? real : r->spec.binary, &st);
		if (!r->bin)
			err = range_set__fail(rs, -errno, "cannot open binary '%s': %s",
					      r->spec.binary, strerror(errno));
	}
	free(real);
	r->unmapped = !bm.bin;
	return err;
}

struct own_object {
	const struct binary *b;
	const char *path; /* the object bpfprof itself loaded from the same file */
	uint64_t bias;
};

static int own_object__match(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct own_object *o = ctx;
	uint8_t id[BUILD_ID_MAX];
	struct stat st;
	bool same;
	int fd, len;

	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	if (o->b->build_id_len) {
		len = -1;
		if (!infile__open(info->dlpi_name, &fd)) {
			len = buildid__read_fd(fd, id, sizeof(id));
			close(fd);
		}
		same = len > 0 && (size_t)len == o->b->build_id_len &&
		       !memcmp(id, o->b->build_id, len);
	} else {
		same = !stat(info->dlpi_name, &st) && st.st_ino == o->b->ino &&
		       st.st_dev == o->b->dev;
	}
	if (!same)
		return 0;
	o->path = info->dlpi_name;
	o->bias = info->dlpi_addr;
	return 1;
}

/*
 * The code @name runs on this machine, as a program linked now gets it: an
 * IFUNC's resolver already ran in bpfprof itself when bpfprof loaded the
 * same file (libc), and dlsym gives the result, of the default version
 * when the name has several. -ENOENT when bpfprof did not load that file.
 */
static int ifunc__selected(const struct binary *b, const char *name, uint64_t *vaddr)
{
	struct own_object o = { .b = b };
	void *h, *addr;

	if (!dl_iterate_phdr(own_object__match, &o))
		return -ENOENT;
	h = dlopen(o.path, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return -ENOENT;
	addr = dlsym(h, name);
	dlclose(h);
	if (!addr)
		return -ENOENT;
	*vaddr = (uintptr_t)addr - o.bias;
	return 0;
}

/* An IFUNC's range is the function it selects, not its resolver. */
static int range_set__ifunc(struct range_set *rs, struct range *r, struct elf_func *f)
{
	const char *bin = r->spec.binary;
	uint64_t vaddr;

	if (ifunc__selected(r->bin, r->spec.symbol, &vaddr))
		return range_set__fail(rs, -EINVAL,
				       "'%s' in %s is an IFUNC whose choice cannot be seen "
				       "here (bpfprof did not load that file); name the "
				       "function it selects (bpfprof record shows it)",
				       r->spec.symbol, bin);
	r->impl = binsym__func_at(r->bs, vaddr, f);
	if (!r->impl)
		return range_set__fail(rs, -EINVAL,
				       "'%s' in %s is an IFUNC; the function it selects (at "
				       "0x%" PRIx64 ") has no symbol (install its debug file)",
				       r->spec.symbol, bin, vaddr);
	return 0;
}

static void range_set__offer_nearest(const char *name, void *ctx)
{
	nearest__offer(ctx, name);
}

/* No function @sym in @bin: say so, with the names nearest to it there. */
static int range_set__unknown_symbol(struct range_set *rs, struct range *r)
{
	const char *bin = r->spec.binary, *sym = r->spec.symbol;
	struct nearest n;
	size_t at;
	int len;

	if (nearest__init(&n, sym, NEAREST_NAMES)) {
		nearest__free(&n);
		return range_set__fail(rs, -ENOMEM, "out of memory");
	}
	binsym__each_name(r->bs, range_set__offer_nearest, &n);
	len = snprintf(rs->why, sizeof(rs->why), "unknown symbol '%s' in %s", sym, bin);
	at = len > 0 && (size_t)len < sizeof(rs->why) ? (size_t)len : 0;
	for (size_t i = 0; at && i < n.nr; i++) {
		len = snprintf(rs->why + at, sizeof(rs->why) - at, "%s%s",
			       i ? ", " : "; nearest names there: ", n.names[i]);
		at = len > 0 && (size_t)len < sizeof(rs->why) - at ? at + len : 0;
	}
	if (at && !n.nr)
		snprintf(rs->why + at, sizeof(rs->why) - at, "; no function there has a name "
			 "near it");
	nearest__free(&n);
	return -ENOENT;
}

/*
 * A name several functions have (libc's memcpy: two symbol versions, the
 * default an IFUNC): the one dlsym gives in bpfprof's own copy of the
 * file, the code a program linked now runs; else an error naming two.
 */
static int range_set__versions(struct range_set *rs, struct range *r, struct elf_func *f)
{
	const char *bin = r->spec.binary, *sym = r->spec.symbol, *name;
	uint64_t vaddr;
	size_t nr = f->nr;

	if (ifunc__selected(r->bin, sym, &vaddr) ||
	    !(name = binsym__func_at(r->bs, vaddr, f)))
		return range_set__fail(rs, -EINVAL,
				       "symbol '%s' is ambiguous in %s: %zu functions have "
				       "that name (at 0x%" PRIx64 " and 0x%" PRIx64
				       "); give %s:0xSTART-0xEND",
				       sym, bin, nr, f->start, f->other, bin);
	r->versions = nr;
	if (strcmp(name, sym))
		r->impl = name;
	return 0;
}

/* BINARY:SYMBOL -> its ELF virtual addresses. */
static int range_set__binary_symbol(struct range_set *rs, struct range *r)
{
	const char *bin = r->spec.binary, *sym = r->spec.symbol;
	struct elf_func f;
	int err = binsym__find(r->bs, sym, &f);

	if (err == -ENOENT)
		return range_set__unknown_symbol(rs, r);
	if (err == -ENOEXEC)
		return range_set__fail(rs, -EINVAL, "binary '%s' is not an ELF file", bin);
	if (err)
		return range_set__fail(rs, err, "cannot read the symbols of %s: %s", bin,
				       strerror(-err));
	r->symbol = sym;
	if (f.nr > 1 && (err = range_set__versions(rs, r, &f)))
		return err;
	if (f.nr == 1 && f.ifunc && (err = range_set__ifunc(rs, r, &f)))
		return err;
	if (f.end == UINT64_MAX || f.end <= f.start)
		return range_set__fail(rs, -EINVAL, "range '%s': cannot tell where %s ends",
				       r->arg, sym);
	r->start = f.start;
	r->end = f.end;
	return 0;
}

/* BINARY:0xA-0xB: inside the file's loaded segments. */
static int range_set__binary_addrs(struct range_set *rs, struct range *r)
{
	struct elf_func f;
	uint64_t off;

	if (!binsym__vaddr_to_off(r->bs, r->spec.start, &off) ||
	    !binsym__vaddr_to_off(r->bs, r->spec.end - 1, &off))
		return range_set__fail(rs, -EINVAL,
				       "range '%s': not inside a loaded segment of %s", r->arg,
				       r->spec.binary);
	r->start = r->spec.start;
	r->end = r->spec.end;
	r->symbol = binsym__func_at(r->bs, r->start, &f);
	return 0;
}

struct placing {
	struct range_set *rs;
	struct range *r;
	const struct binary *bin; /* the file whose mappings get the range */
	uint64_t off;  /* file offset of r->start */
	uint64_t len;
};

/* One instance per mapping of the binary: where its file offset lands. */
static int placing__mapping(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct placing *p = ctx;
	uint64_t start, end;

	if (tgid == p->rs->o.not_yet || m->bin != p->bin || p->off < m->pgoff ||
	    p->off - m->pgoff >= m->end - m->start)
		return 0;
	start = m->start + (p->off - m->pgoff);
	end = m->end - start < p->len ? m->end : start + p->len;
	return range_set__add_inst(p->r, tgid, start, end, start - p->r->start);
}

static int range_set__binary(struct range_set *rs, struct range *r, struct proc_table *pt)
{
	struct placing p = { .rs = rs, .r = r };
	int err;

	err = range_set__find_binary(rs, r, pt);
	p.bin = r->bin;
	if (err || !r->bin)
		return err; /* by name, mapped by no target: a warning later */
	r->bs = range_set__binsym(rs, r->bin);
	if (!r->bs)
		return range_set__fail(rs, -ENOMEM, "out of memory");
	err = r->spec.kind == RANGE_BIN_SYM ? range_set__binary_symbol(rs, r) :
					      range_set__binary_addrs(rs, r);
	if (err || r->unmapped)
		return err;
	binsym__vaddr_to_off(r->bs, r->start, &p.off);
	p.len = r->end - r->start;
	err = proc_table__for_each_mapping(pt, placing__mapping, &p);
	if (!err && !r->nr_insts)
		return range_set__fail(rs, -EINVAL,
				       "range '%s': not in the executable code of %s", r->arg,
				       r->bin->path);
	return err;
}

int range_set__resolve(struct range_set *rs, struct proc_table *pt)
{
	int err = 0;

	for (size_t i = 0; i < rs->nr && !err; i++) {
		struct range *r = &rs->r[i];

		switch (r->spec.kind) {
		case RANGE_KERNEL_SYM:
			err = range_set__kernel_symbol(rs, r);
			break;
		case RANGE_KERNEL_ADDR:
		case RANGE_ABS_ADDR:
			err = range_set__absolute(rs, r);
			break;
		case RANGE_BIN_SYM:
		case RANGE_BIN_ADDR:
			err = range_set__binary(rs, r, pt);
			break;
		}
		if (err == -ENOMEM && !rs->why[0])
			range_set__fail(rs, err, "out of memory");
		rs->nr_insts += r->nr_insts;
	}
	return err;
}

/* ---- mappings that appear while sampling runs ---- */

/*
 * A range named by a binary's file name that no target mapped at the start,
 * now that one maps @b: resolve it there. A failure is kept in r->late
 * (shown in the listing and as a warning) and the range stays unplaced.
 */
static int range_set__resolve_late(struct range_set *rs, struct range *r, const struct binary *b)
{
	int err;

	r->bin = b;
	r->bs = range_set__binsym(rs, b);
	if (!r->bs)
		return -ENOMEM;
	rs->why[0] = 0;
	err = r->spec.kind == RANGE_BIN_SYM ? range_set__binary_symbol(rs, r) :
					      range_set__binary_addrs(rs, r);
	if (err == -ENOMEM)
		return err;
	if (err) {
		r->late = strdup(rs->why[0] ? rs->why : strerror(-err));
		r->start = r->end = 0;
		r->bs = NULL;
		return r->late ? 0 : -ENOMEM;
	}
	return 0;
}

/* Does @r belong in mapping @m (resolving it on the first match by name)? */
static int range_set__wants(struct range_set *rs, struct range *r, const struct binary *b,
			    bool *yes)
{
	int err;

	*yes = false;
	if (r->spec.kind != RANGE_BIN_SYM && r->spec.kind != RANGE_BIN_ADDR)
		return 0;
	if (r->late || b->vdso)
		return 0;
	if (r->bin) {
		if (!proc_table__same_binary(r->bin, b)) {
			/* another file of that name: noted, not counted */
			if (!r->spec.binary_is_path && !r->other &&
			    name__matches(r->spec.binary, b->name))
				r->other = b;
			return 0;
		}
		*yes = r->end > r->start;
		return 0;
	}
	if (r->spec.binary_is_path || !name__matches(r->spec.binary, b->name))
		return 0;
	if (b->fd < 0)
		return 0; /* a file never opened tells nothing of its symbols: the next one */
	err = range_set__resolve_late(rs, r, b);
	*yes = !err && !r->late;
	return err;
}

int range_set__place_mapping(struct range_set *rs, pid_t tgid, const struct mapping *m,
			     struct range_place **out, size_t *n)
{
	struct range_place *v;
	int err = 0;

	*out = NULL;
	*n = 0;
	if (!m->bin || tgid == rs->o.not_yet)
		return 0;
	for (size_t i = 0; i < rs->nr && !err; i++) {
		struct range *r = &rs->r[i];
		struct placing p = { .rs = rs, .r = r, .bin = m->bin };
		size_t before = r->nr_insts;
		bool yes;

		err = range_set__wants(rs, r, m->bin, &yes);
		if (err || !yes)
			continue;
		if (!binsym__vaddr_to_off(r->bs, r->start, &p.off))
			continue;
		p.len = r->end - r->start;
		err = placing__mapping(tgid, m, &p);
		if (err || r->nr_insts == before)
			continue;
		v = realloc(*out, (*n + 1) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			break;
		}
		*out = v;
		v[(*n)++] = (struct range_place){
			.tgid = tgid,
			.slot = {
				.start = r->insts[before].start,
				.end = r->insts[before].end,
				.base = r->insts[before].base,
				.id = r->id,
			},
		};
		r->unmapped = false;
		rs->nr_insts++;
	}
	if (err) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return err;
}

int range_set__places(const struct range_set *rs, struct range_place **out, size_t *n)
{
	struct range_place *p = calloc(rs->nr_insts ? rs->nr_insts : 1, sizeof(*p));
	size_t k = 0;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < rs->nr; i++) {
		const struct range *r = &rs->r[i];

		for (size_t j = 0; j < r->nr_insts; j++, k++)
			p[k] = (struct range_place){
				.tgid = r->insts[j].tgid,
				.slot = {
					.start = r->insts[j].start,
					.end = r->insts[j].end,
					.base = r->insts[j].base,
					.id = r->id,
				},
			};
	}
	*out = p;
	*n = k;
	return 0;
}

uint64_t range_set__span(const struct range_set *rs)
{
	uint64_t span = 0;

	for (size_t i = 0; i < rs->nr; i++)
		span += rs->r[i].end - rs->r[i].start;
	return span;
}

int range_set__bind(struct range_set *rs, struct proc_table *pt)
{
	for (size_t i = 0; i < rs->nr; i++) {
		struct range *r = &rs->r[i];
		const struct mapping *m;
		uint64_t vaddr;

		if (!r->tgid || r->kernel || r->spec.kind != RANGE_ABS_ADDR)
			continue;
		m = proc_table__find(pt, r->tgid, NULL, r->start);
		if (!m || !m->bin)
			continue;
		r->bs = range_set__binsym(rs, m->bin);
		if (!r->bs)
			return -ENOMEM;
		r->bin = m->bin;
		if (!binsym__off_to_vaddr(r->bs, mapping__file_offset(m, r->start), &vaddr)) {
			r->bs = NULL;
			continue;
		}
		r->delta = r->start - vaddr;
		r->symbol = binsym__func_at(r->bs, vaddr, &(struct elf_func){ 0 });
	}
	return 0;
}
