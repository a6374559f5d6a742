// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "debugfile.h"
#include "demangle.h"
#include "elfsyms.h"
#include "ksyms.h"
#include "perfmap.h"
#include "symbolize.h"
#include "u64map.h"

/* Cached per binary: its symbols, or a marker that it could not be read. */
struct binsyms {
	struct elf_symtab *tab; /* NULL: no symbols; frames print as offsets */
	struct elf_symtab *dbg; /* the separate debug file's symbols, or NULL */
	struct u64map names;    /* file offset -> name */
};

struct symbolizer {
	struct proc_table *pt;
	struct binsyms **bins; /* by binary id */
	size_t nr_bins;
	struct ksyms *ks;
	struct demangler *dm;  /* user names, each unique one demangled once */
	struct u64map knames;  /* kernel address -> name */
	struct u64map anon;    /* absolute address -> "[anon+0x...]" etc. */
	struct u64map jits;    /* tgid -> struct jitmap, read on first use */
	size_t refused;        /* JIT maps refused by the ownership rule */
	pid_t first_refused;
	char **owned;          /* names we formatted */
	size_t nr_owned, cap_owned;
};

/* A process's JIT map, read the first time code outside any file is seen. */
struct jitmap {
	struct perfmap *pm; /* NULL: none, unreadable, or refused */
};

struct symbolizer *symbolizer__new(struct proc_table *pt, const char *kallsyms,
				   enum demangle_mode demangle)
{
	struct symbolizer *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->pt = pt;
	s->dm = demangler__new(demangle);
	if (!s->dm) {
		free(s);
		return NULL;
	}
	if (kallsyms)
		s->ks = ksyms__load(kallsyms); /* NULL: kernel frames print as addresses */
	return s;
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_bins; i++) {
		if (!s->bins[i])
			continue;
		elf_symtab__free(s->bins[i]->tab);
		elf_symtab__free(s->bins[i]->dbg);
		u64map__free(&s->bins[i]->names);
		free(s->bins[i]);
	}
	for (size_t i = 0; i < s->nr_owned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->bins);
	ksyms__free(s->ks);
	demangler__free(s->dm);
	u64map__free(&s->knames);
	u64map__free(&s->anon);
	for (size_t i = 0; i < s->jits.cap; i++) {
		struct jitmap *j = s->jits.vals[i];

		if (j)
			perfmap__free(j->pm);
		free(j);
	}
	u64map__free(&s->jits);
	free(s);
}

bool symbolizer__kernel_hidden(const struct symbolizer *s)
{
	return !s->ks || ksyms__hidden(s->ks);
}

/* Keep a formatted name; NULL on ENOMEM. */
static const char *symbolizer__own(struct symbolizer *s, char *name)
{
	if (!name)
		return NULL;
	if (s->nr_owned == s->cap_owned) {
		size_t cap = s->cap_owned ? s->cap_owned * 2 : 256;
		char **p = realloc(s->owned, cap * sizeof(*p));

		if (!p) {
			free(name);
			return NULL;
		}
		s->owned = p;
		s->cap_owned = cap;
	}
	s->owned[s->nr_owned++] = name;
	return name;
}

/* "[where+0xOFFSET]": a frame without a symbol, resolvable later. */
static const char *symbolizer__offset_name(struct symbolizer *s, const char *where,
					   uint64_t off)
{
	char *name;

	if (asprintf(&name, "[%s+0x%" PRIx64 "]", where, off) < 0)
		return NULL;
	return symbolizer__own(s, name);
}

static const char *symbolizer__module(struct symbolizer *s, const struct ksym *sym)
{
	char *name;

	if (asprintf(&name, "%s [%s]", sym->name, sym->module) < 0)
		return NULL;
	return symbolizer__own(s, name);
}

/* The vDSO every process maps is the one this process has. */
static struct elf_symtab *symbolizer__load_vdso(void)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t size;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return NULL;
	size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	return elf_symtab__load_mem(eh, size);
}

/*
 * The symbols of @b's separate debug file, if one is installed, else of its
 * MiniDebugInfo (.gnu_debugdata). A debug file's
 * PT_LOADs say nothing true about file offsets: translation stays with the
 * binary's own table; only names come from here.
 */
static struct elf_symtab *symbolizer__load_debug(const struct binary *b)
{
	static const char *const roots[] = { "/usr/lib/debug", NULL };
	struct elf_symtab *tab = NULL;
	int fd = debugfile__open(b->fd, b->path, b->build_id, b->build_id_len, roots);
	void *image;
	size_t size;

	if (fd < 0 && b->build_id_len)
		fd = debugfile__debuginfod(b->build_id, b->build_id_len);
	if (fd >= 0) {
		tab = elf_symtab__load_fd(fd);
		close(fd);
		return tab;
	}
	/* no debug file: the MiniDebugInfo the binary may carry */
	if (debugfile__minidebuginfo(b->fd, &image, &size))
		return NULL;
	tab = elf_symtab__load_mem(image, size); /* copies what it keeps */
	free(image);
	return tab;
}

static struct binsyms *symbolizer__binsyms(struct symbolizer *s, const struct binary *b)
{
	struct binsyms *bs;

	if (b->id >= s->nr_bins) {
		size_t n = proc_table__nr_binaries(s->pt);
		struct binsyms **p = realloc(s->bins, n * sizeof(*p));

		if (!p)
			return NULL;
		memset(p + s->nr_bins, 0, (n - s->nr_bins) * sizeof(*p));
		s->bins = p;
		s->nr_bins = n;
	}
	if (s->bins[b->id])
		return s->bins[b->id];
	bs = calloc(1, sizeof(*bs));
	if (!bs)
		return NULL;
	if (b->vdso)
		bs->tab = symbolizer__load_vdso();
	else if (b->fd >= 0)
		bs->tab = elf_symtab__load_fd(b->fd);
	if (b->fd >= 0)
		bs->dbg = symbolizer__load_debug(b);
	s->bins[b->id] = bs;
	return bs;
}

/* Names from the debug file first (a stripped binary keeps only .dynsym). */
static const char *binsyms__lookup(const struct binsyms *bs, uint64_t vaddr)
{
	const char *name = bs->dbg ? elf_symtab__lookup(bs->dbg, vaddr, NULL) : NULL;

	return name ? name : elf_symtab__lookup(bs->tab, vaddr, NULL);
}

static const char *symbolizer__in_binary(struct symbolizer *s, const struct binary *b,
					 uint64_t off, bool ret)
{
	struct binsyms *bs = symbolizer__binsyms(s, b);
	uint64_t lookup_off = ret && off ? off - 1 : off, vaddr;
	const char *name = NULL;

	if (!bs)
		return NULL;
	name = u64map__get(&bs->names, off);
	if (name)
		return name;
	if (bs->tab && !elf_symtab__off_to_vaddr(bs->tab, lookup_off, &vaddr))
		name = binsyms__lookup(bs, vaddr);
	if (name && !(name = demangler__name(s->dm, name)))
		return NULL;
	if (!name)
		name = symbolizer__offset_name(s, b->name, off);
	if (name && u64map__set(&bs->names, off, (void *)name))
		return NULL;
	return name;
}

static const char *symbolizer__jit(struct symbolizer *s, pid_t tgid, uint64_t addr)
{
	struct jitmap *j = u64map__get(&s->jits, tgid);
	FILE *f;

	if (!j) {
		j = calloc(1, sizeof(*j));
		if (!j || u64map__set(&s->jits, tgid, j)) {
			free(j);
			return NULL;
		}
		errno = 0;
		f = perfmap__open(tgid);
		if (f) {
			j->pm = perfmap__parse(f);
			fclose(f);
		} else if (errno == EPERM && !s->refused++) {
			s->first_refused = tgid;
		}
	}
	return j->pm ? perfmap__lookup(j->pm, addr) : NULL;
}

size_t symbolizer__perfmaps_refused(const struct symbolizer *s, pid_t *pid)
{
	*pid = s->first_refused;
	return s->refused;
}

const char *symbolizer__user(struct symbolizer *s, pid_t tgid, const char *comm,
			     uint64_t addr, bool ret, bool *jit)
{
	const struct mapping *m = proc_table__find(s->pt, tgid, comm, addr);
	const char *name;

	*jit = false;
	if (m && m->bin)
		return symbolizer__in_binary(s, m->bin, mapping__file_offset(m, addr), ret);
	name = symbolizer__jit(s, tgid, ret ? addr - 1 : addr);
	if (name) {
		*jit = true;
		return name;
	}
	name = u64map__get(&s->anon, addr);
	if (name)
		return name;
	name = symbolizer__offset_name(s, m ? "anon" : "unmapped", addr);
	if (name && u64map__set(&s->anon, addr, (void *)name))
		return NULL;
	return name;
}

const char *symbolizer__kernel(struct symbolizer *s, uint64_t addr, bool ret)
{
	const struct ksym *sym = NULL;
	const char *name = u64map__get(&s->knames, addr);

	if (name)
		return name;
	if (s->ks && !ksyms__hidden(s->ks))
		sym = ksyms__lookup(s->ks, ret ? addr - 1 : addr);
	if (!sym)
		name = symbolizer__offset_name(s, "kernel", addr);
	else if (sym->module)
		name = symbolizer__module(s, sym);
	else
		name = sym->name;
	if (name && u64map__set(&s->knames, addr, (void *)name))
		return NULL;
	return name;
}
