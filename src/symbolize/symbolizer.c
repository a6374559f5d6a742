// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "binsym.h"
#include "demangler.h"
#include "ksyms.h"
#include "kvmlinux.h"
#include "perfmap.h"
#include "srccache.h"
#include "symbolizer.h"
#include "u64map.h"

struct symbolizer {
	struct proc_table *pt;
	struct binsym_opts bo;
	struct binsym **bins;  /* by binary id, each loaded on first use */
	size_t nr_bins;
	struct ksyms *ks;
	struct kvmlinux *kv;   /* the kernel's DWARF, looked for on the first vmlinux frame */
	bool kv_tried;
	struct src_frames ksf; /* scratch */
	struct srccache *dwarf; /* DWARF files, each indexed once for every binary using it */
	/*
	 * Kernel frames: a function's name alone (a module's, or no vmlinux
	 * DWARF) is the same at every address in it, kept once per function;
	 * per address only where DWARF gives lines and inline calls, or no
	 * symbol covers the address. Either set is bounded by the kernel.
	 */
	struct u64map kfuncs;  /* struct ksym address -> struct symloc */
	struct u64map knames;  /* kernel address << 1 | ret -> struct symloc */
	struct u64map jits;    /* tgid -> struct jitmap, read on first use */
	size_t refused;        /* JIT maps refused by the ownership rule */
	size_t skipped;        /* binaries not read in full: the stop came first */
	struct binsym **retired; /* cut short by a signal (binsym__interrupted) */
	size_t nr_retired, cap_retired;
	bool interrupted;      /* one was, since symbolizer__take_interrupted */
	pid_t first_refused;
	uint64_t jit_map_max;  /* bytes read of a JIT map at most */
	size_t files_refused;  /* binaries with a debug file or MiniDebugInfo refused */
	size_t denied;         /* binaries in frames our user may not read */
	char *first_denied;    /* the first one's path (a copy: binaries are freed) */
	char *first_file_refused; /* its binsym's message (a copy: binsyms are freed) */
};

/*
 * A process's JIT map: read while the process runs (symbolizer__refresh_jit,
 * from the last byte read on) and once more when its first frame is
 * symbolized, so that a map in a container's /tmp outlives the container.
 */
struct jitmap {
	struct perfmap *pm;     /* NULL: none read yet */
	dev_t dev;              /* the file read, and how far */
	ino_t ino;
	off_t off;
	uint64_t ignored;       /* bytes beyond the cap, at the last read */
	bool refused;           /* by the ownership rule; counted once */
	bool final;             /* looked at again when symbolizing */
	struct u64map locs;     /* address << 1 | ret -> struct symloc */
	/* addresses it does not name, address << 1 | mapped -> "[anon+0x...]":
	   the process's, freed with it (ASLR makes them new in each process) */
	struct u64map anon;
};

static void jitmap__free(struct jitmap *j)
{
	if (!j)
		return;
	perfmap__free(j->pm);
	binsym__free_symlocs(&j->locs);
	binsym__free_symlocs(&j->anon);
	free(j);
}

struct symbolizer *symbolizer__new(struct proc_table *pt, const struct symbol_opts *o,
				   const char *kallsyms)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->pt = pt;
	s->jit_map_max = o->jit_map_max ? o->jit_map_max : JIT_MAP_MAX_DEFAULT;
	s->dwarf = srccache__new();
	if (!s->dwarf) {
		free(s);
		return NULL;
	}
	s->bo = (struct binsym_opts){
		.demangle = o->demangle,
		.dwarf = s->dwarf,
		.inlines = o->inlines,
		.lines = o->lines,
		.debug_roots = o->debug_dirs,
	};
	if (kallsyms)
		s->ks = ksyms__load(kallsyms); /* NULL: kernel frames print as addresses */
	return s;
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_bins; i++)
		binsym__free(s->bins[i]);
	free(s->bins);
	for (size_t i = 0; i < s->nr_retired; i++)
		binsym__free(s->retired[i]);
	free(s->retired);
	free(s->first_file_refused);
	free(s->first_denied);
	srccache__free(s->dwarf); /* after every binsym holding its entries */
	ksyms__free(s->ks);
	kvmlinux__free(s->kv);
	srcinfo__free_frames(&s->ksf);
	binsym__free_symlocs(&s->kfuncs);
	binsym__free_symlocs(&s->knames);
	for (size_t i = 0; i < s->jits.cap; i++)
		jitmap__free(s->jits.vals[i]);
	u64map__free(&s->jits);
	free(s);
}

bool symbolizer__kernel_hidden(const struct symbolizer *s)
{
	return !s->ks || ksyms__hidden(s->ks);
}

/*
 * A one-frame location of @kind: named @name (which outlives it), or, when
 * @name is NULL, by @fmt, formatted into the same allocation. NULL on ENOMEM.
 */
__attribute__((format(printf, 3, 4)))
static struct symloc *symloc__one(enum frame_kind kind, const char *name, const char *fmt, ...)
{
	size_t head = sizeof(struct symloc) + sizeof(struct frame);
	struct symloc *loc;
	va_list ap;
	int len = 0;

	if (!name) {
		va_start(ap, fmt);
		len = vsnprintf(NULL, 0, fmt, ap);
		va_end(ap);
		if (len < 0)
			return NULL;
	}
	loc = calloc(1, head + len + 1);
	if (!loc)
		return NULL;
	loc->nr = 1;
	loc->f[0].kind = kind;
	loc->f[0].name = name ? name : (char *)loc + head;
	if (!name) {
		va_start(ap, fmt);
		vsnprintf((char *)loc + head, len + 1, fmt, ap);
		va_end(ap);
	}
	return loc;
}

/* Keep @loc as @m[@key]; NULL (and @loc freed) on ENOMEM. */
static const struct symloc *symlocs__keep(struct u64map *m, uint64_t key, struct symloc *loc)
{
	if (loc && u64map__set(m, key, loc)) {
		free(loc);
		return NULL;
	}
	return loc;
}

static bool symbolizer__stopped(const struct symbolizer *s)
{
	return s->bo.stop && *s->bo.stop;
}

void symbolizer__set_stop(struct symbolizer *s, const volatile sig_atomic_t *stop)
{
	s->bo.stop = stop;
}

size_t symbolizer__skipped(const struct symbolizer *s)
{
	return s->skipped;
}

void symbolizer__dwarf_stats(const struct symbolizer *s, size_t *indexed, size_t *reused)
{
	srccache__stats(s->dwarf, indexed, reused);
}

/*
 * Binary @b's binsym was cut short by a stop signal its caller must read
 * first: kept as long as its names may be in use, read anew next time.
 */
static struct binsym *symbolizer__retire(struct symbolizer *s, const struct binary *b)
{
	struct binsym *bs = s->bins[b->id];

	if (array__grow((void **)&s->retired, &s->cap_retired, s->nr_retired + 1,
			sizeof(*s->retired)))
		return bs; /* kept as it is: fewer names, no harm */
	s->retired[s->nr_retired++] = bs;
	s->bins[b->id] = NULL;
	s->interrupted = true;
	return bs;
}

bool symbolizer__take_interrupted(struct symbolizer *s)
{
	bool was = s->interrupted;

	s->interrupted = false;
	return was;
}

static struct binsym *symbolizer__binsym(struct symbolizer *s, const struct binary *b)
{
	const char *why;

	if (b->id >= s->nr_bins) {
		size_t n = proc_table__nr_binaries(s->pt);
		struct binsym **p = realloc(s->bins, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + s->nr_bins, 0, (n - s->nr_bins) * sizeof(*p));
		s->bins = p;
		s->nr_bins = n;
	}
	if (!s->bins[b->id]) {
		s->bins[b->id] = binsym__new(b, &s->bo);
		if (symbolizer__stopped(s))
			s->skipped++; /* not read, or cut short (debuginfod) */
		why = s->bins[b->id] ? binsym__refused(s->bins[b->id]) : NULL;
		if (why && !s->files_refused++)
			s->first_file_refused = strdup(why); /* NULL: no detail */
		if (b->denied && !s->denied++)
			s->first_denied = strdup(b->path); /* NULL: no detail */
		if (s->bins[b->id] && binsym__interrupted(s->bins[b->id]))
			return symbolizer__retire(s, b);
	}
	return s->bins[b->id];
}

bool symbolizer__forget_process(struct symbolizer *s, pid_t tgid)
{
	struct jitmap *j = u64map__del(&s->jits, tgid);
	bool had = j && j->pm;

	jitmap__free(j);
	return had;
}

void symbolizer__forget_binary(struct symbolizer *s, const struct binary *b)
{
	size_t n = 0;

	if (b->id < s->nr_bins) {
		binsym__free(s->bins[b->id]);
		s->bins[b->id] = NULL;
	}
	for (size_t i = 0; i < s->nr_retired; i++) {
		if (binsym__binary(s->retired[i]) == b)
			binsym__free(s->retired[i]);
		else
			s->retired[n++] = s->retired[i];
	}
	s->nr_retired = n;
}

static struct jitmap *symbolizer__jitmap(struct symbolizer *s, pid_t tgid)
{
	struct jitmap *j = u64map__get(&s->jits, tgid);

	if (j)
		return j;
	j = calloc(1, sizeof(*j));
	if (!j || u64map__set(&s->jits, tgid, j)) {
		free(j);
		return NULL;
	}
	return j;
}

/* Read what was added to @tgid's map since last time (all of it, the first time). */
static void jitmap__update(struct symbolizer *s, struct jitmap *j, pid_t tgid)
{
	struct stat st;
	FILE *f;

	errno = 0;
	f = perfmap__open(tgid);
	if (!f) {
		if (errno == EPERM && !j->refused) {
			j->refused = true;
			if (!s->refused++)
				s->first_refused = tgid;
		}
		return;
	}
	if (fstat(fileno(f), &st))
		goto out;
	if (j->pm && (st.st_dev != j->dev || st.st_ino != j->ino))
		goto out; /* another file now (the process is gone): keep what we read */
	if (!j->pm || st.st_size < j->off) { /* first read, or rewritten from the start */
		struct perfmap *pm = perfmap__new(s->jit_map_max);

		if (!pm)
			goto out;
		perfmap__free(j->pm);
		j->pm = pm;
		j->dev = st.st_dev;
		j->ino = st.st_ino;
		j->off = 0;
		j->ignored = 0;
	}
	if (st.st_size > j->off && !perfmap__full(j->pm) && !fseeko(f, j->off, SEEK_SET)) {
		ssize_t n = perfmap__read_more(j->pm, f);

		if (n > 0)
			j->off += n;
	}
	if (perfmap__full(j->pm))
		j->ignored = st.st_size - j->off;
out:
	fclose(f);
}

void symbolizer__refresh_jit(struct symbolizer *s, pid_t tgid)
{
	struct jitmap *j = symbolizer__jitmap(s, tgid);

	if (j)
		jitmap__update(s, j, tgid);
}

size_t symbolizer__files_refused(const struct symbolizer *s, const char **first)
{
	*first = s->first_file_refused ? s->first_file_refused : "a debug file (out of memory)";
	return s->files_refused;
}

size_t symbolizer__binaries_denied(const struct symbolizer *s, const char **first)
{
	*first = s->first_denied ? s->first_denied : "a binary (out of memory)";
	return s->denied;
}

size_t symbolizer__perfmaps_refused(const struct symbolizer *s, pid_t *pid)
{
	*pid = s->first_refused;
	return s->refused;
}

size_t symbolizer__perfmaps_capped(const struct symbolizer *s, pid_t *pid, uint64_t *ignored)
{
	size_t n = 0;

	*ignored = 0;
	for (size_t i = 0; i < s->jits.cap; i++) {
		const struct jitmap *j = s->jits.vals[i];

		if (!j || !j->pm || !perfmap__full(j->pm))
			continue;
		if (!n++ || (pid_t)s->jits.keys[i] < *pid)
			*pid = s->jits.keys[i];
		*ignored += j->ignored;
	}
	return n;
}

size_t symbolizer__perfmap_oversized(const struct symbolizer *s, pid_t *pid)
{
	size_t n = 0;

	for (size_t i = 0; i < s->jits.cap; i++) {
		const struct jitmap *j = s->jits.vals[i];
		size_t k = j && j->pm ? perfmap__oversized(j->pm) : 0;

		if (k && (!n || (pid_t)s->jits.keys[i] < *pid))
			*pid = s->jits.keys[i];
		n += k;
	}
	return n;
}

const struct symloc *symbolizer__user(struct symbolizer *s, pid_t tgid, const char *comm,
				      uint64_t addr, bool ret)
{
	const struct mapping *m = proc_table__find(s->pt, tgid, comm, addr);
	struct symloc *loc;
	struct jitmap *j;
	const char *name;
	struct binsym *bs;

	if (m && m->bin) {
		bs = symbolizer__binsym(s, m->bin);
		return bs ? binsym__at_offset(bs, mapping__file_offset(m, addr), ret) : NULL;
	}
	/* code outside any file: the process's JIT map, else its address */
	j = symbolizer__jitmap(s, tgid);
	if (!j)
		return NULL;
	if (!j->final && !symbolizer__stopped(s)) {
		j->final = true;
		jitmap__update(s, j, tgid);
	}
	loc = u64map__get(&j->locs, addr << 1 | ret);
	if (loc)
		return loc;
	errno = 0;
	name = j->pm ? perfmap__lookup(j->pm, ret ? addr - 1 : addr) : NULL;
	if (!name && errno == ENOMEM)
		return NULL;
	if (name)
		return symlocs__keep(&j->locs, addr << 1 | ret, symloc__one(FRAME_JIT, name, NULL));
	loc = u64map__get(&j->anon, addr << 1 | !!m);
	if (loc)
		return loc;
	return symlocs__keep(&j->anon, addr << 1 | !!m,
			     symloc__one(FRAME_USER, NULL, "[%s+0x%" PRIx64 "]",
					 m ? "anon" : "unmapped", addr));
}

/* The running kernel's vmlinux with DWARF, when lines or inlines are wanted and it is found. */
static struct kvmlinux *symbolizer__kvmlinux(struct symbolizer *s)
{
	if (!s->kv_tried && !symbolizer__stopped(s)) {
		s->kv_tried = true;
		if (s->bo.lines || s->bo.inlines)
			s->kv = kvmlinux__open(s->ks, s->bo.debug_roots); /* NULL: names only */
	}
	return s->kv;
}

/*
 * The vmlinux function @name at @addr (already moved back into the call
 * for return addresses): its file and line from the vmlinux's DWARF, and
 * with inlines the calls inlined there after it, named from DWARF. All are
 * FRAME_KERNEL, so folded output marks each _[k]. NULL on ENOMEM.
 */
static struct symloc *symbolizer__kfunc(struct symbolizer *s, const char *name, uint64_t addr)
{
	struct kvmlinux *kv = symbolizer__kvmlinux(s);
	struct src_frames *sf = &s->ksf;
	struct symloc *loc;

	sf->nr = 0;
	if (kv && kvmlinux__lookup(kv, addr, s->bo.inlines, s->bo.lines, sf) == -ENOMEM)
		return NULL;
	loc = binsym__symloc_from_src(sf, FRAME_KERNEL, FRAME_KERNEL);
	if (!loc)
		return NULL;
	/* the function is named by kallsyms, its inlined calls by DWARF */
	loc->f[0].name = name;
	for (size_t i = 1; i < loc->nr; i++) {
		const char *raw = sf->v[sf->nr - 1 - i].name;

		loc->f[i].name = raw ? raw : "[inlined]";
	}
	return loc;
}

const struct symloc *symbolizer__kernel(struct symbolizer *s, uint64_t addr, bool ret)
{
	const struct ksym *sym = NULL;
	struct symloc *loc = u64map__get(&s->knames, addr << 1 | ret);
	uint64_t at = ret ? addr - 1 : addr;

	if (loc)
		return loc;
	if (s->ks && !ksyms__hidden(s->ks))
		sym = ksyms__lookup(s->ks, at);
	if (!sym)
		return symlocs__keep(&s->knames, addr << 1 | ret,
				     symloc__one(FRAME_KERNEL, NULL, "[kernel+0x%" PRIx64 "]",
						 addr));
	if (!sym->module && symbolizer__kvmlinux(s))
		return symlocs__keep(&s->knames, addr << 1 | ret,
				     symbolizer__kfunc(s, sym->name, at));
	/* a name alone: the same for every address in the function */
	loc = u64map__get(&s->kfuncs, (uintptr_t)sym);
	if (loc)
		return loc;
	if (sym->module)
		loc = symloc__one(FRAME_KERNEL, NULL, "%s [%s]", sym->name, sym->module);
	else
		loc = symbolizer__kfunc(s, sym->name, at);
	return symlocs__keep(&s->kfuncs, (uintptr_t)sym, loc);
}
