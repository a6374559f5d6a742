// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "binsym.h"
#include "debugfile.h"
#include "elfsymtab.h"
#include "fdefuncs.h"
#include "srccache.h"
#include "srcinfo.h"
#include "u64map.h"
#include "vdso.h"

struct binsym {
	const struct binary *b;
	struct binsym_opts o;
	struct elf_symtab *tab; /* the binary's own; NULL: unreadable */
	struct elf_symtab *dbg; /* its debug file's or MiniDebugInfo's, or NULL */
	struct demangler *dm;   /* names of the two tables above, each demangled once */
	int dwarf_fd;           /* the debug file, kept until its DWARF is read; -1: none */
	struct srcinfo *si;     /* NULL until needed, or when there is no DWARF */
	bool si_tried;
	struct fdefuncs *funcs; /* its .eh_frame's functions, read on the first
				   address no symbol names; NULL: none */
	bool funcs_tried;
	bool interrupted;       /* its debuginfod query was cut short by a signal */
	struct u64map by_off;   /* file offset << 1 | ret -> struct symloc */
	struct u64map by_vaddr; /* vaddr << 1 | ret -> struct symloc */
	struct src_frames sf;   /* scratch */
	char refused[PATH_MAX + 128]; /* the first file refused, and why; "" */
};

/* The vDSO every process maps is the one this process has. */
static struct elf_symtab *binsym__load_vdso(void)
{
	size_t size;
	const void *image = vdso__image(&size);

	return image ? elf_symtab__load_mem(image, size) : NULL;
}

static bool binsym__stopped(const struct binsym *bs)
{
	return bs->o.stop && *bs->o.stop;
}

static bool binsym__wants_dwarf(const struct binsym *bs)
{
	return bs->o.inlines || bs->o.lines;
}

/*
 * The separate debug file: installed (build-id directory, debuglink), else
 * from debuginfod when the binary lacks what is wanted (a .symtab; DWARF
 * when lines or inlines are asked for). -ENOENT when there is none.
 */
static int binsym__debug_fd(struct binsym *bs)
{
	static const char *const default_roots[] = { DEBUGFILE_ROOT, NULL };
	const struct binary *b = bs->b;
	/* a container's binary: its own debug files, inside the root we hold
	 * open (the process may be gone by now) */
	struct debugfile_where w = {
		.path = b->path,
		.root_fd = b->root_fd,
		.roots = bs->o.debug_roots ? bs->o.debug_roots : default_roots,
		.refused = bs->refused,
		.refused_size = sizeof(bs->refused),
	};
	int fd = debugfile__open(b->fd, b->build_id, b->build_id_len, &w);

	if (fd < 0 && b->build_id_len &&
	    (!elf_symtab__has_symtab(bs->tab) ||
	     (binsym__wants_dwarf(bs) && !elf_symtab__has_dwarf(bs->tab))))
		fd = debugfile__debuginfod(b->build_id, b->build_id_len, bs->o.stop);
	if (fd == -EINTR && !binsym__stopped(bs))
		bs->interrupted = true; /* a signal the caller must read first */
	return fd;
}

/*
 * Names from the debug file, else the MiniDebugInfo (.gnu_debugdata) the
 * binary may carry. A debug file's PT_LOADs say nothing true about file
 * offsets: translation stays with the binary's own table.
 */
static void binsym__load_debug(struct binsym *bs)
{
	void *image;
	size_t size;
	int fd, err;

	if (binsym__stopped(bs))
		return;
	fd = binsym__debug_fd(bs);
	if (fd >= 0) {
		bs->dbg = elf_symtab__load_fd(fd);
		if (binsym__wants_dwarf(bs) && elf_symtab__has_dwarf(bs->dbg))
			bs->dwarf_fd = fd;
		else
			close(fd);
		return;
	}
	err = debugfile__minidebuginfo(bs->b->fd, &image, &size);
	if (err == -EFBIG && !bs->refused[0])
		snprintf(bs->refused, sizeof(bs->refused),
			 "%s: its MiniDebugInfo (.gnu_debugdata) decompresses past %d times "
			 "its size or %u MiB",
			 bs->b->path, DEBUGFILE_UNXZ_RATIO, DEBUGFILE_UNXZ_MAX >> 20);
	if (err)
		return;
	bs->dbg = elf_symtab__load_mem(image, size); /* copies what it keeps */
	free(image);
}

struct binsym *binsym__new(const struct binary *b, const struct binsym_opts *o)
{
	struct binsym *bs = calloc(1, sizeof(*bs));

	if (!bs)
		return NULL;
	bs->b = b;
	bs->o = *o;
	bs->dwarf_fd = -1;
	bs->dm = demangler__new(o->demangle);
	if (!bs->dm) {
		free(bs);
		return NULL;
	}
	if (binsym__stopped(bs))
		return bs;
	if (b->vdso)
		bs->tab = binsym__load_vdso();
	else if (b->fd >= 0)
		bs->tab = elf_symtab__load_fd(b->fd);
	if (b->fd >= 0 && !b->vdso)
		binsym__load_debug(bs);
	return bs;
}

const char *binsym__refused(const struct binsym *bs)
{
	return bs->refused[0] ? bs->refused : NULL;
}

void binsym__free_symlocs(struct u64map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->vals[i]);
	u64map__free(m);
}

void binsym__free(struct binsym *bs)
{
	if (!bs)
		return;
	elf_symtab__free(bs->tab);
	elf_symtab__free(bs->dbg);
	demangler__free(bs->dm);
	srccache__put(bs->o.dwarf, bs->si);
	if (bs->dwarf_fd >= 0)
		close(bs->dwarf_fd);
	binsym__free_symlocs(&bs->by_off);
	binsym__free_symlocs(&bs->by_vaddr);
	srcinfo__free_frames(&bs->sf);
	fdefuncs__free(bs->funcs);
	free(bs);
}

/* The DWARF: the debug file's, else the binary's own. */
static struct srcinfo *binsym__srcinfo(struct binsym *bs)
{
	int fd = bs->dwarf_fd;

	if (bs->si_tried)
		return bs->si;
	if (binsym__stopped(bs))
		return NULL; /* no lines or inlines: the profile is wanted now */
	bs->si_tried = true;
	if (fd < 0 && elf_symtab__has_dwarf(bs->tab) && !bs->b->vdso)
		fd = bs->b->fd;
	if (fd >= 0)
		bs->si = srccache__get(bs->o.dwarf, fd); /* NULL: unreadable DWARF; names still work */
	if (bs->o.dwarf && bs->dwarf_fd >= 0) { /* the cache keeps a descriptor of its own */
		close(bs->dwarf_fd);
		bs->dwarf_fd = -1;
	}
	return bs->si;
}

const struct binary *binsym__binary(const struct binsym *bs)
{
	return bs->b;
}

bool binsym__interrupted(const struct binsym *bs)
{
	return bs->interrupted;
}

bool binsym__has_dwarf(struct binsym *bs)
{
	return binsym__srcinfo(bs) != NULL;
}

static const char *binsym__demangle(struct binsym *bs, const char *raw, int *err);

/* The function named @name in the ELF at @fd (closed here) or MiniDebugInfo @image. */
static int binsym__find_in(int fd, void *image, size_t size, const char *name,
			   struct elf_func *out)
{
	int err = image ? elf_symtab__find_mem(image, size, name, out) :
			  elf_symtab__find_fd(fd, name, out);

	if (fd >= 0)
		close(fd);
	free(image);
	return err;
}

int binsym__find(struct binsym *bs, const char *name, struct elf_func *out)
{
	const struct binary *b = bs->b;
	void *image;
	size_t size;
	int err, fd;

	if (b->fd < 0 || b->vdso)
		return -ENOENT;
	err = elf_symtab__find_fd(b->fd, name, out);
	if (err != -ENOENT || elf_symtab__has_symtab(bs->tab))
		return err;
	/* stripped: its debug file's .symtab, else its MiniDebugInfo */
	fd = binsym__debug_fd(bs);
	if (fd >= 0)
		return binsym__find_in(fd, NULL, 0, name, out);
	if (debugfile__minidebuginfo(b->fd, &image, &size))
		return -ENOENT;
	return binsym__find_in(-1, image, size, name, out);
}

void binsym__each_name(const struct binsym *bs, void (*fn)(const char *name, void *ctx),
		       void *ctx)
{
	for (size_t i = 0; i < elf_symtab__count(bs->tab); i++)
		fn(elf_symtab__name(bs->tab, i), ctx);
	for (size_t i = 0; i < elf_symtab__count(bs->dbg); i++)
		fn(elf_symtab__name(bs->dbg, i), ctx);
}

const char *binsym__func_at(struct binsym *bs, uint64_t vaddr, struct elf_func *out)
{
	const char *raw = bs->dbg ? elf_symtab__lookup_func(bs->dbg, vaddr, out) : NULL;
	int err = 0;

	if (!raw)
		raw = elf_symtab__lookup_func(bs->tab, vaddr, out);
	return binsym__demangle(bs, raw, &err);
}

bool binsym__vaddr_to_off(const struct binsym *bs, uint64_t vaddr, uint64_t *off)
{
	return bs->tab && !elf_symtab__vaddr_to_off(bs->tab, vaddr, off);
}

bool binsym__off_to_vaddr(const struct binsym *bs, uint64_t off, uint64_t *vaddr)
{
	return bs->tab && !elf_symtab__off_to_vaddr(bs->tab, off, vaddr);
}

/* Names from the debug file first (a stripped binary keeps only .dynsym). */
static const char *binsym__symbol(const struct binsym *bs, uint64_t vaddr)
{
	const char *name = bs->dbg ? elf_symtab__lookup(bs->dbg, vaddr, NULL) : NULL;

	return name ? name : elf_symtab__lookup(bs->tab, vaddr, NULL);
}

/* A demangled name, NULL staying NULL; *@err on ENOMEM. */
static const char *binsym__demangle(struct binsym *bs, const char *raw, int *err)
{
	const char *name;

	if (!raw)
		return NULL;
	name = demangler__name(bs->dm, raw);
	if (!name)
		*err = -ENOMEM;
	return name;
}

struct symloc *binsym__symloc_from_src(const struct src_frames *sf, enum frame_kind outer,
				       enum frame_kind inner)
{
	size_t n = sf->nr ? sf->nr : 1;
	struct symloc *loc = calloc(1, sizeof(*loc) + n * sizeof(loc->f[0]));

	if (!loc)
		return NULL;
	loc->nr = n;
	for (size_t i = 0; i < sf->nr; i++) {
		const struct src_frame *s = &sf->v[sf->nr - 1 - i];

		loc->f[i].file = s->file;
		loc->f[i].line = s->line;
		loc->f[i].start_line = s->start_line;
	}
	for (size_t i = 0; i < n; i++)
		loc->f[i].kind = i ? inner : outer;
	return loc;
}

/* Resolve @vaddr (already moved back into the call for return addresses). */
static struct symloc *binsym__resolve(struct binsym *bs, uint64_t vaddr)
{
	const char *sym = bs->tab ? binsym__symbol(bs, vaddr) : NULL;
	struct srcinfo *si = binsym__wants_dwarf(bs) ? binsym__srcinfo(bs) : NULL;
	struct src_frames *sf = &bs->sf;
	struct symloc *loc;
	int err = 0;

	sf->nr = 0;
	if (si && srcinfo__lookup(si, vaddr, bs->o.inlines, bs->o.lines, sf) == -ENOMEM)
		return NULL;
	loc = binsym__symloc_from_src(sf, FRAME_USER, FRAME_INLINE);
	if (!loc)
		return NULL;
	/* the function is named by its symbol where it has one */
	for (size_t i = 0; i < loc->nr; i++) {
		const char *raw = sf->nr ? sf->v[sf->nr - 1 - i].name : NULL;

		if (i == 0 && sym)
			raw = sym;
		loc->f[i].name = binsym__demangle(bs, raw, &err);
		if (loc->f[i].name != raw)
			loc->f[i].system_name = raw;
		if (i && !loc->f[i].name)
			loc->f[i].name = "[inlined]";
	}
	if (err) {
		free(loc);
		return NULL;
	}
	return loc;
}

const struct symloc *binsym__at_vaddr(struct binsym *bs, uint64_t vaddr, bool ret)
{
	uint64_t key = vaddr << 1 | ret;
	struct symloc *loc = u64map__get(&bs->by_vaddr, key);

	if (loc)
		return loc;
	loc = binsym__resolve(bs, ret && vaddr ? vaddr - 1 : vaddr);
	if (loc)
		loc->bin = bs->b;
	if (loc && u64map__set(&bs->by_vaddr, key, loc)) {
		free(loc);
		return NULL;
	}
	return loc;
}

/*
 * The file offset an address without a symbol is named after: that of
 * the start of the function holding it (@vaddr, already moved back into
 * the call for return addresses), its FDE's, so that every sample of one
 * function folds into one frame; @off itself with --lines (each
 * instruction its own frame, as each line is), when the binary has no
 * FDE there, or once the profile is wanted now. *@err on ENOMEM.
 */
static uint64_t binsym__unnamed_off(struct binsym *bs, uint64_t vaddr, uint64_t off, int *err)
{
	uint64_t start, start_off;

	if (bs->o.lines || bs->b->vdso || bs->b->fd < 0)
		return off;
	if (!bs->funcs_tried && !binsym__stopped(bs)) {
		bs->funcs_tried = true;
		if (fdefuncs__load_fd(bs->b->fd, &bs->funcs) == -ENOMEM)
			*err = -ENOMEM;
	}
	if (bs->funcs && !fdefuncs__start(bs->funcs, vaddr, &start) &&
	    !elf_symtab__vaddr_to_off(bs->tab, start, &start_off))
		return start_off;
	return off;
}

const struct symloc *binsym__at_offset(struct binsym *bs, uint64_t off, bool ret)
{
	uint64_t key = off << 1 | ret, lookup_off = ret && off ? off - 1 : off, vaddr;
	struct symloc *loc = u64map__get(&bs->by_off, key);
	uint64_t name_off = off;
	char *name;
	int err = 0;

	if (loc)
		return loc;
	if (bs->tab && !elf_symtab__off_to_vaddr(bs->tab, lookup_off, &vaddr)) {
		loc = binsym__resolve(bs, vaddr);
		if (loc && !loc->f[0].name)
			name_off = binsym__unnamed_off(bs, vaddr, off, &err);
		if (err) {
			free(loc);
			return NULL;
		}
	} else {
		loc = calloc(1, sizeof(*loc) + sizeof(loc->f[0]));
		if (loc)
			loc->nr = 1;
	}
	if (!loc)
		return NULL;
	if (!loc->f[0].name) {
		/* no symbol: a file offset (its function's start, see
		 * binsym__unnamed_off), so it can be resolved later; the
		 * name is kept in the same allocation, after the frames */
		size_t head = sizeof(*loc) + loc->nr * sizeof(loc->f[0]);
		int len = snprintf(NULL, 0, "[%s+0x%" PRIx64 "]", bs->b->name, name_off);
		struct symloc *grown = len < 0 ? NULL : realloc(loc, head + len + 1);

		if (!grown) {
			free(loc);
			return NULL;
		}
		loc = grown;
		name = (char *)loc + head;
		snprintf(name, len + 1, "[%s+0x%" PRIx64 "]", bs->b->name, name_off);
		loc->f[0].name = name;
	}
	loc->bin = bs->b;
	if (u64map__set(&bs->by_off, key, loc)) {
		free(loc);
		return NULL;
	}
	return loc;
}
