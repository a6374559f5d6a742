// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "buildid.h"
#include "elfopen.h"
#include "elfscn.h"
#include "infile.h"
#include "search.h"
#include "srcinfo.h"

/* An address range of something: a compile unit, or a node of one. */
struct span {
	uint64_t lo, hi; /* [lo, hi) */
	uint32_t idx;    /* the unit's or the node's index */
	uint32_t depth;  /* nesting, for ordering spans that start together */
};

/* A function or inlined call with code: one node of a unit's scope tree. */
struct scope {
	Dwarf_Die die;
	int32_t parent; /* the enclosing function or inlined call; -1: none */
};

/* A compile unit's scopes, indexed on first use. */
struct unit_index {
	struct scope *scopes;
	size_t nr_scopes, cap_scopes;
	struct span *segs; /* disjoint, sorted; idx = innermost scope */
	size_t nr_segs;
};

struct unit {
	Dwarf_Die cudie;
	struct unit_index *index; /* NULL until first needed */
	bool index_failed;
};

struct srcinfo {
	Elf *elf;
	Dwarf *dw;
	int alt_fd;     /* dwz's shared file (.gnu_debugaltlink), or -1 */
	Elf *alt_elf;
	Dwarf *alt;
	struct unit *units;
	size_t nr_units;
	struct span *ranges; /* compile unit ranges, sorted, idx = unit */
	size_t nr_ranges;
};

static int spans__push(struct span **v, size_t *nr, size_t *cap, struct span s)
{
	if (array__grow((void **)v, cap, *nr + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*nr)++] = s;
	return 0;
}

static int span__cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1; /* outer first */
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static uint64_t span__lo(const void *span)
{
	return ((const struct span *)span)->lo;
}

/* The span holding @addr in a sorted, disjoint array, or NULL. */
static const struct span *spans__find(const struct span *v, size_t nr, uint64_t addr)
{
	size_t i = search__last_le(v, nr, sizeof(*v), addr, span__lo);

	return i < nr && addr < v[i].hi ? &v[i] : NULL;
}

/* Add every address range of @die as a span of node @idx at @depth. */
static int spans__add_die(struct span **v, size_t *nr, size_t *cap, Dwarf_Die *die,
			  uint32_t idx, uint32_t depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int added = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (spans__push(v, nr, cap, (struct span){ lo, hi, idx, depth }))
			return -ENOMEM;
		added++;
	}
	return added;
}

/*
 * Nested spans (sorted outer first) -> disjoint segments naming the
 * innermost span at each address. Children lie inside their parents, so a
 * stack of open spans is enough.
 */
static int spans__flatten(const struct span *in, size_t nr, struct span **out, size_t *nr_out)
{
	struct span *stack = malloc((nr + 1) * sizeof(*stack)), *segs = NULL;
	size_t top = 0, nsegs = 0, cap = 0;
	uint64_t cursor = 0;
	int err = 0;

	if (!stack)
		return -ENOMEM;
#define EMIT(from, to, node)                                                             \
	do {                                                                             \
		if ((from) < (to)) {                                                     \
			if (nsegs && segs[nsegs - 1].hi == (from) &&                    \
			    segs[nsegs - 1].idx == (node))                               \
				segs[nsegs - 1].hi = (to);                                \
			else if ((err = spans__push(&segs, &nsegs, &cap,                 \
						    (struct span){ (from), (to), (node), 0 }))) \
				goto out;                                                 \
		}                                                                        \
	} while (0)
	for (size_t i = 0; i <= nr; i++) {
		uint64_t next = i < nr ? in[i].lo : UINT64_MAX;

		/* close the spans that end before the next one starts */
		while (top && stack[top - 1].hi <= next) {
			EMIT(cursor, stack[top - 1].hi, stack[top - 1].idx);
			if (stack[top - 1].hi > cursor)
				cursor = stack[top - 1].hi;
			top--;
		}
		if (i == nr)
			break;
		if (top)
			EMIT(cursor, next, stack[top - 1].idx);
		if (next > cursor || !top)
			cursor = next;
		stack[top++] = in[i];
	}
#undef EMIT
out:
	free(stack);
	if (err) {
		free(segs);
		return err;
	}
	*out = segs;
	*nr_out = nsegs;
	return 0;
}

/* DIEs that may hold functions or inlined calls with code. */
static bool tag__may_hold_code(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
	case DW_TAG_skeleton_unit:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_entry_point:
		return true;
	default:
		return false;
	}
}

struct index_build {
	struct unit_index *ix;
	struct span *spans;
	size_t nr_spans, cap_spans;
};

static int index__add_scope(struct index_build *b, Dwarf_Die *die, int32_t parent, uint32_t depth,
			    int32_t *idx)
{
	struct unit_index *ix = b->ix;
	int n;

	if (array__grow((void **)&ix->scopes, &ix->cap_scopes, ix->nr_scopes + 1,
			sizeof(*ix->scopes)))
		return -ENOMEM;
	n = spans__add_die(&b->spans, &b->nr_spans, &b->cap_spans, die, ix->nr_scopes, depth);
	if (n < 0)
		return n;
	if (n == 0) { /* no code: a declaration or an abstract instance */
		*idx = -2;
		return 0;
	}
	ix->scopes[ix->nr_scopes] = (struct scope){ *die, parent };
	*idx = ix->nr_scopes++;
	return 0;
}

/* Walk the children of @parent_die (iteratively, siblings; recursively, depth). */
static int index__walk(struct index_build *b, Dwarf_Die *parent_die, int32_t parent,
		       uint32_t depth)
{
	Dwarf_Die die;
	int err, r = dwarf_child(parent_die, &die);

	if (depth > 256) /* deeper than any real program: malformed */
		return 0;
	for (; r == 0; r = dwarf_siblingof(&die, &die)) {
		int tag = dwarf_tag(&die);
		int32_t self = parent;

		if (!tag__may_hold_code(tag))
			continue;
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			err = index__add_scope(b, &die, parent, depth, &self);
			if (err)
				return err;
			/*
			 * No code of its own (a declaration or an abstract
			 * instance), but a local class inside it may hold
			 * concrete functions (gcc's lambdas in templates):
			 * look below it, under the enclosing scope.
			 */
			if (self == -2)
				self = parent;
		}
		if (dwarf_haschildren(&die) > 0) {
			err = index__walk(b, &die, self, depth + 1);
			if (err)
				return err;
		}
	}
	return 0;
}

static void unit_index__free(struct unit_index *ix)
{
	if (!ix)
		return;
	free(ix->scopes);
	free(ix->segs);
	free(ix);
}

static struct unit_index *unit__index(struct unit *u)
{
	struct index_build b = { 0 };
	int err;

	if (u->index || u->index_failed)
		return u->index;
	b.ix = calloc(1, sizeof(*b.ix));
	if (!b.ix)
		return NULL;
	err = index__walk(&b, &u->cudie, -1, 0);
	if (!err) {
		if (b.nr_spans) /* qsort(NULL, 0, ...) is undefined */
			qsort(b.spans, b.nr_spans, sizeof(*b.spans), span__cmp);
		err = spans__flatten(b.spans, b.nr_spans, &b.ix->segs, &b.ix->nr_segs);
	}
	free(b.spans);
	if (err) {
		unit_index__free(b.ix);
		u->index_failed = true;
		return NULL;
	}
	u->index = b.ix;
	return u->index;
}

/* Index the compile units by their address ranges. */
static int srcinfo__index_units(struct srcinfo *si)
{
	Dwarf_CU *cu = NULL, *next;
	size_t cap_units = 0, cap_ranges = 0;
	Dwarf_Die cudie, subdie;
	uint8_t type;
	Dwarf_Half version;

	while (dwarf_get_units(si->dw, cu, &next, &version, &type, &cudie, &subdie) == 0) {
		Dwarf_Die *die = type == DW_UT_skeleton && dwarf_tag(&subdie) >= 0 ? &subdie : &cudie;
		int n;

		cu = next;
		if (type != DW_UT_compile && type != DW_UT_skeleton)
			continue; /* type and partial units hold no code */
		if (array__grow((void **)&si->units, &cap_units, si->nr_units + 1,
				sizeof(*si->units)))
			return -ENOMEM;
		n = spans__add_die(&si->ranges, &si->nr_ranges, &cap_ranges, die, si->nr_units, 0);
		if (n < 0)
			return n;
		if (n == 0)
			continue;
		si->units[si->nr_units++] = (struct unit){ .cudie = *die };
	}
	if (si->nr_ranges) /* none (unreadable DWARF): qsort(NULL, 0) is undefined */
		qsort(si->ranges, si->nr_ranges, sizeof(*si->ranges), span__cmp);
	/* overlapping unit ranges (rare, broken producers): the first wins */
	size_t w = 0;
	for (size_t i = 0; i < si->nr_ranges; i++) {
		if (w && si->ranges[i].lo < si->ranges[w - 1].hi) {
			if (si->ranges[i].hi > si->ranges[w - 1].hi)
				si->ranges[i].lo = si->ranges[w - 1].hi;
			else
				continue;
		}
		si->ranges[w++] = si->ranges[i];
	}
	si->nr_ranges = w;
	return 0;
}

/* @path if it is a regular file with build-id @id (@len bytes): its fd, else -1. */
static int srcinfo__try_alt(const char *path, const void *id, size_t len)
{
	uint8_t got[BUILD_ID_MAX];
	int fd, n;

	if (infile__open(path, &fd))
		return -1;
	n = buildid__read_fd(fd, got, sizeof(got));
	if (n > 0 && (size_t)n == len && !memcmp(got, id, len))
		return fd;
	close(fd);
	return -1;
}

/*
 * dwz's shared file, named by .gnu_debugaltlink of the DWARF at @fd: found
 * where libdw looks (the name, relative to the file's directory, then
 * /usr/lib/debug/.build-id) but opened as every outside file is (a regular
 * file, its build-id checked) and handed to libdw, which would otherwise
 * open the name itself and wait forever on a FIFO there. 0 when there is
 * no link or the file is set; -ENOENT when it is not found: then libdw must
 * not look for it either, and the DWARF is not used.
 */
static int srcinfo__set_alt(struct srcinfo *si, int fd)
{
	char self[64], dir[PATH_MAX], path[2 * PATH_MAX + 2], hex[2 * BUILD_ID_MAX + 1];
	const char *name, *slash;
	const void *id;
	ssize_t len = dwelf_dwarf_gnu_debugaltlink(si->dw, &name, &id), n;

	if (len <= 0)
		return 0;
	if (name[0] == '/') {
		si->alt_fd = srcinfo__try_alt(name, id, len);
	} else {
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		n = readlink(self, dir, sizeof(dir) - 1);
		dir[n > 0 ? n : 0] = '\0';
		slash = strrchr(dir, '/');
		snprintf(path, sizeof(path), "%.*s/%s", slash ? (int)(slash - dir) : 0, dir, name);
		si->alt_fd = n > 0 && dir[0] == '/' ? srcinfo__try_alt(path, id, len) : -1;
	}
	if (si->alt_fd < 0 && len <= BUILD_ID_MAX) {
		buildid__hex(id, len, hex);
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		si->alt_fd = srcinfo__try_alt(path, id, len);
	}
	if (si->alt_fd < 0)
		return -ENOENT;
	si->alt_elf = elf_open__fd(si->alt_fd);
	si->alt = si->alt_elf ? dwarf_begin_elf(si->alt_elf, DWARF_C_READ, NULL) : NULL;
	if (!si->alt)
		return -ENOENT;
	dwarf_setalt(si->dw, si->alt);
	return 0;
}

struct srcinfo *srcinfo__open(int fd)
{
	struct srcinfo *si;
	int err;

	si = calloc(1, sizeof(*si));
	if (!si)
		return NULL;
	si->alt_fd = -1;
	si->elf = elf_open__fd(fd);
	/* no DWARF whose compressed sections claim too much (a bomb) */
	err = si->elf ? elf_scn__unpack_bounded(si->elf) : -ENOENT;
	si->dw = !err ? dwarf_begin_elf(si->elf, DWARF_C_READ, NULL) : NULL;
	err = err ?: !si->dw ? -ENOENT : srcinfo__set_alt(si, fd);
	if (err) {
		srcinfo__free(si);
		errno = -err;
		return NULL;
	}
	err = srcinfo__index_units(si);
	if (err || !si->nr_units) {
		srcinfo__free(si);
		errno = err ? -err : ENOENT;
		return NULL;
	}
	return si;
}

void srcinfo__free(struct srcinfo *si)
{
	if (!si)
		return;
	for (size_t i = 0; i < si->nr_units; i++)
		unit_index__free(si->units[i].index);
	free(si->units);
	free(si->ranges);
	if (si->dw)
		dwarf_end(si->dw);
	if (si->elf)
		elf_end(si->elf);
	if (si->alt)
		dwarf_end(si->alt);
	if (si->alt_elf)
		elf_end(si->alt_elf);
	if (si->alt_fd >= 0)
		close(si->alt_fd);
	free(si);
}

void srcinfo__free_frames(struct src_frames *f)
{
	free(f->v);
	f->v = NULL;
	f->nr = f->cap = 0;
}

static int src_frames__push(struct src_frames *f, struct src_frame fr)
{
	if (array__grow((void **)&f->v, &f->cap, f->nr + 1, sizeof(*f->v)))
		return -ENOMEM;
	f->v[f->nr++] = fr;
	return 0;
}

/* A function's name: its linkage name (qualified, mangled) else its plain one. */
static const char *die__name(Dwarf_Die *die)
{
	static const int attrs[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };
	Dwarf_Attribute attr;

	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++) {
		const char *s = dwarf_formstring(dwarf_attr_integrate(die, attrs[i], &attr));

		if (s && *s)
			return s;
	}
	return NULL;
}

/* The line a function (or an inlined call's function) is declared at; 0: unknown. */
static uint32_t die__decl_line(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word ln;

	if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_line, &attr), &ln) == 0 &&
	    ln <= UINT32_MAX)
		return ln;
	return 0;
}

/* Where the inlined call @die was made: its DW_AT_call_file and _line. */
static void die__call_site(Dwarf_Die *die, Dwarf_Die *cudie, const char **file, uint32_t *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx, ln;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &ln) == 0)
		*line = ln;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &idx) == 0 &&
	    dwarf_getsrcfiles(cudie, &files, &nfiles) == 0 && idx < nfiles)
		*file = dwarf_filesrc(files, idx, NULL, NULL);
}

int srcinfo__lookup(struct srcinfo *si, uint64_t vaddr, bool inlines, bool lines,
		    struct src_frames *out)
{
	const struct span *r = spans__find(si->ranges, si->nr_ranges, vaddr);
	struct src_frame fr = { 0 };
	struct unit_index *ix;
	const struct span *seg;
	struct unit *u;
	Dwarf_Line *line;
	int32_t node;
	int ln;

	out->nr = 0;
	if (!r)
		return -ENOENT;
	u = &si->units[r->idx];
	line = lines ? dwarf_getsrc_die(&u->cudie, vaddr) : NULL;
	if (line && dwarf_lineno(line, &ln) == 0 && ln > 0) {
		fr.file = dwarf_linesrc(line, NULL, NULL);
		fr.line = ln;
	}
	ix = inlines ? unit__index(u) : NULL;
	seg = ix ? spans__find(ix->segs, ix->nr_segs, vaddr) : NULL;
	if (!seg)
		return src_frames__push(out, fr);
	/* innermost first: each inlined call, then the function holding them */
	for (node = seg->idx; node >= 0; node = ix->scopes[node].parent) {
		struct scope *sc = &ix->scopes[node];
		bool inl = dwarf_tag(&sc->die) == DW_TAG_inlined_subroutine;
		int err;

		fr.name = die__name(&sc->die);
		fr.start_line = die__decl_line(&sc->die);
		fr.inlined = inl;
		err = src_frames__push(out, fr);
		if (err)
			return err;
		if (!inl)
			break;
		/* the next frame out is at this call's site */
		if (lines)
			die__call_site(&sc->die, &u->cudie, &fr.file, &fr.line);
		if (ix->scopes[node].parent < 0) { /* an inlined call outside any function */
			fr.name = NULL;
			fr.start_line = 0;
			fr.inlined = false;
			return src_frames__push(out, fr);
		}
	}
	return 0;
}
