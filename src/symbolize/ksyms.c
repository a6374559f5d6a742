/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel text symbols from a kallsyms-format file. The file is read whole,
 * parsed in place, and the names kept are compacted into one arena.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "infile.h"
#include "ksyms.h"
#include "number.h"
#include "search.h"

struct ksyms {
	struct ksym *syms; /* by address, file order among equal addresses */
	size_t nr;
	uint64_t *ends; /* end-of-text markers (_etext, _einittext), sorted */
	size_t nr_ends;
	char *names;
	bool hidden;
};

/* One parsed line; the strings point into the read buffer. */
struct kline {
	uint64_t addr;
	char type;
	char *name;
	size_t name_len;
	char *mod; /* NULL for vmlinux */
	size_t mod_len;
};

/* /proc/kallsyms is tens of MiB; a file that never ends is not read forever. */
#define KSYMS_FILE_MAX (1ul << 30)

struct kparse {
	char *buf; /* the file, NUL-terminated; names are compacted to its front */
	size_t w; /* compaction write offset */
	struct ksym *syms;
	size_t nr, cap;
	uint64_t *ends;
	size_t nr_ends, cap_ends;
	const char *last_mod;
	size_t last_mod_len;
	size_t lines;
	bool nonzero;
};

/* Parse hex digits at *@p; advances *@p. Returns 0 or -EINVAL. */
static int hex__parse(char **p, uint64_t *out)
{
	uint64_t v = 0;
	char *s = *p;
	int d, n = 0;

	while ((d = number__hex_digit(*s)) >= 0) {
		if (++n > 16)
			return -EINVAL;
		v = v << 4 | d;
		s++;
	}
	if (!n)
		return -EINVAL;
	*p = s;
	*out = v;
	return 0;
}

/* Optional "\t[module]" at @p, up to @eol. */
static int kline__parse_module(struct kline *kl, char *p, char *eol)
{
	char *close;

	if (p == eol)
		return 0;
	if (*p != '\t' || p[1] != '[')
		return -EINVAL;
	p += 2;
	close = memchr(p, ']', eol - p);
	if (!close || close == p)
		return -EINVAL;
	kl->mod = p;
	kl->mod_len = close - p;
	return 0;
}

/* "ADDR TYPE NAME[\t[MODULE]]" from @p to @eol (exclusive). */
static int kline__parse(struct kline *kl, char *p, char *eol)
{
	char *name;

	memset(kl, 0, sizeof(*kl));
	if (hex__parse(&p, &kl->addr) || eol - p < 4 || p[0] != ' ' || p[2] != ' ')
		return -EINVAL;
	kl->type = p[1];
	name = p + 3;
	for (p = name; p < eol && *p != '\t' && *p != ' '; p++)
		;
	if (p == name)
		return -EINVAL;
	kl->name = name;
	kl->name_len = p - name;
	return kline__parse_module(kl, p, eol);
}

static bool ktype__is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* Markers of the end of vmlinux text: they bound the symbol before them. */
static bool kline__is_end_marker(const struct kline *kl)
{
	static const char *const markers[] = { "_etext", "_einittext" };
	size_t i;

	if (kl->mod)
		return false;
	for (i = 0; i < ARRAY_SIZE(markers); i++) {
		if (kl->name_len == strlen(markers[i]) &&
		    !memcmp(kl->name, markers[i], kl->name_len))
			return true;
	}
	return false;
}

/* Copy @len bytes at @s to the compaction point; returns the copy. */
static const char *kparse__keep(struct kparse *kp, const char *s, size_t len)
{
	char *dst = kp->buf + kp->w;

	memmove(dst, s, len);
	dst[len] = '\0';
	kp->w += len + 1;
	return dst;
}

static int kparse__add_end(struct kparse *kp, uint64_t addr)
{
	if (array__grow((void **)&kp->ends, &kp->cap_ends, kp->nr_ends + 1,
			sizeof(*kp->ends)))
		return -ENOMEM;
	kp->ends[kp->nr_ends++] = addr;
	return 0;
}

static int kparse__add_sym(struct kparse *kp, const struct kline *kl)
{
	struct ksym *s;

	if (array__grow((void **)&kp->syms, &kp->cap, kp->nr + 1, sizeof(*kp->syms)))
		return -ENOMEM;
	s = &kp->syms[kp->nr++];
	s->addr = kl->addr;
	/* The name lies before the module in the line: keep it first. */
	s->name = kparse__keep(kp, kl->name, kl->name_len);
	s->module = NULL;
	if (!kl->mod)
		return 0;
	if (!kp->last_mod || kp->last_mod_len != kl->mod_len ||
	    memcmp(kp->last_mod, kl->mod, kl->mod_len)) {
		kp->last_mod = kparse__keep(kp, kl->mod, kl->mod_len);
		kp->last_mod_len = kl->mod_len;
	}
	s->module = kp->last_mod;
	return 0;
}

static int kparse__line(struct kparse *kp, char *p, char *eol)
{
	struct kline kl;
	int err;

	if (p == eol)
		return 0;
	err = kline__parse(&kl, p, eol);
	if (err)
		return err;
	kp->lines++;
	if (kl.addr)
		kp->nonzero = true;
	if (!ktype__is_text(kl.type))
		return 0;
	if (kline__is_end_marker(&kl))
		return kparse__add_end(kp, kl.addr);
	return kparse__add_sym(kp, &kl);
}

static int kparse__all(struct kparse *kp, size_t len)
{
	char *p = kp->buf, *end = kp->buf + len;
	int err = 0;

	while (!err && p < end) {
		char *eol = memchr(p, '\n', end - p);

		if (!eol)
			eol = end;
		err = kparse__line(kp, p, eol);
		p = eol + 1;
	}
	return err;
}

static int ksym__cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* Names sit in the arena in file order: this keeps the sort stable. */
	return a->name < b->name ? -1 : a->name > b->name;
}

static int u64__cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static bool ksyms__sorted(const struct ksym *syms, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++) {
		if (ksym__cmp(&syms[i - 1], &syms[i]) > 0)
			return false;
	}
	return true;
}

/* Move the compacted names from the read buffer into an arena of their size. */
static int kparse__finish(struct kparse *kp, struct ksyms *ks)
{
	size_t i;

	ks->names = malloc(kp->w ? kp->w : 1);
	if (!ks->names)
		return -ENOMEM;
	memcpy(ks->names, kp->buf, kp->w);
	for (i = 0; i < kp->nr; i++) {
		struct ksym *s = &kp->syms[i];

		s->name = ks->names + (s->name - kp->buf);
		if (s->module)
			s->module = ks->names + (s->module - kp->buf);
	}
	if (!ksyms__sorted(kp->syms, kp->nr))
		qsort(kp->syms, kp->nr, sizeof(*kp->syms), ksym__cmp);
	if (kp->nr_ends)
		qsort(kp->ends, kp->nr_ends, sizeof(*kp->ends), u64__cmp);
	ks->syms = kp->syms;
	ks->nr = kp->nr;
	ks->ends = kp->ends;
	ks->nr_ends = kp->nr_ends;
	ks->hidden = kp->lines && !kp->nonzero;
	kp->syms = NULL;
	kp->ends = NULL;
	return 0;
}

/* Parse the NUL-terminated text at @buf (@len bytes, taken: freed here). */
static struct ksyms *ksyms__from_buf(char *buf, size_t len)
{
	struct kparse kp = { .buf = buf };
	struct ksyms *ks;
	int err;

	ks = calloc(1, sizeof(*ks));
	err = ks ? kparse__all(&kp, len) : -ENOMEM;
	if (!err)
		err = kparse__finish(&kp, ks);
	free(kp.buf);
	free(kp.syms);
	free(kp.ends);
	if (err) {
		ksyms__free(ks);
		errno = -err;
		return NULL;
	}
	return ks;
}

struct ksyms *ksyms__load(const char *path)
{
	size_t len;
	char *buf;
	int err, fd;

	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	err = infile__open(path, &fd);
	if (!err) {
		err = infile__read_all(fd, KSYMS_FILE_MAX, &buf, &len);
		close(fd);
	}
	if (err) {
		errno = -err;
		return NULL;
	}
	return ksyms__from_buf(buf, len);
}

struct ksyms *ksyms__load_mem(const char *text, size_t len)
{
	char *buf = malloc(len + 1);

	if (!buf)
		return NULL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return ksyms__from_buf(buf, len);
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->ends);
	free(ks->names);
	free(ks);
}

static uint64_t ksym__addr(const void *sym)
{
	return ((const struct ksym *)sym)->addr;
}

/* Index of the first symbol with address > @addr. */
static size_t ksyms__upper(const struct ksyms *ks, uint64_t addr)
{
	return search__upper_bound(ks->syms, ks->nr, sizeof(*ks->syms), addr, ksym__addr);
}

/* The first end marker above @addr, or UINT64_MAX. */
static uint64_t ksyms__end_after(const struct ksyms *ks, uint64_t addr)
{
	size_t i;

	for (i = 0; i < ks->nr_ends; i++) {
		if (ks->ends[i] > addr)
			return ks->ends[i];
	}
	return UINT64_MAX;
}

/* Where the symbol at index @i ends: the next address, or an end marker. */
static uint64_t ksyms__end(const struct ksyms *ks, size_t i)
{
	uint64_t end = ksyms__end_after(ks, ks->syms[i].addr);
	size_t next = ksyms__upper(ks, ks->syms[i].addr);

	if (next < ks->nr && ks->syms[next].addr < end)
		end = ks->syms[next].addr;
	return end;
}

const struct ksym *ksyms__lookup(const struct ksyms *ks, uint64_t addr)
{
	size_t i, first;

	if (!ks || ks->hidden) {
		errno = ks ? ENOENT : EINVAL;
		return NULL;
	}
	i = ksyms__upper(ks, addr);
	if (!i) {
		errno = ENOENT;
		return NULL;
	}
	first = i - 1;
	while (first && ks->syms[first - 1].addr == ks->syms[i - 1].addr)
		first--;
	if (addr >= ksyms__end(ks, first)) {
		errno = ENOENT;
		return NULL;
	}
	return &ks->syms[first];
}

/*
 * The lowest symbol named @name (of vmlinux only, with @vmlinux), and in
 * *@nr how many have that name at distinct addresses. NULL + errno.
 */
static const struct ksym *ksyms__named(const struct ksyms *ks, const char *name,
				       bool vmlinux, size_t *nr)
{
	const struct ksym *best = NULL;
	size_t i;

	*nr = 0;
	if (!ks || ks->hidden) {
		errno = ks ? ENOENT : EINVAL;
		return NULL;
	}
	for (i = 0; i < ks->nr; i++) {
		const struct ksym *s = &ks->syms[i];

		if ((vmlinux && s->module) || strcmp(s->name, name) ||
		    (best && s->addr == best->addr))
			continue;
		if (!best)
			best = s;
		(*nr)++;
	}
	if (!best)
		errno = ENOENT;
	return best;
}

const struct ksym *ksyms__find(const struct ksyms *ks, const char *name)
{
	size_t nr;

	return ksyms__named(ks, name, true, &nr);
}

const struct ksym *ksyms__find_func(const struct ksyms *ks, const char *name, uint64_t *end,
				    size_t *nr)
{
	const struct ksym *s = ksyms__named(ks, name, false, nr);

	if (s)
		*end = ksyms__end(ks, s - ks->syms);
	return s;
}

bool ksyms__hidden(const struct ksyms *ks)
{
	return ks && ks->hidden;
}

size_t ksyms__count(const struct ksyms *ks)
{
	return ks ? ks->nr : 0;
}
