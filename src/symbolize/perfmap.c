// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JIT maps (perfmap.h). Lines are read in chunks, never the whole file at
 * once (a chunk grows only for a line longer than it), and only up to the
 * map's byte and entry caps. Each
 * entry keeps its line number; a lookup first sorts and flattens them (once
 * per batch of new lines, with the pieces of the batches before) into
 * disjoint pieces, each of the latest entry holding it, so a lookup is one
 * binary search whatever the entries' sizes and overlaps.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "infile.h"
#include "perfmap.h"
#include "search.h"

#define PERFMAP_CHUNK (64 * 1024) /* bytes read at a time, at first */

struct pm_entry {
	uint64_t start, end;    /* end: clipped, for an oversized entry */
	uint64_t name : 36;     /* offset into names (at most 4 GiB are read) */
	uint64_t seq : 27;      /* line order: a later entry wins an overlap */
	uint64_t oversized : 1; /* its size wrapped or passed PERFMAP_SIZE_MAX */
};

struct perfmap {
	/*
	 * The entries flattened (sorted, disjoint, each piece keeping the line
	 * of the entry it is of), then, when dirty, the lines added since
	 */
	struct pm_entry *e;
	size_t nr, cap;
	char *names;
	size_t names_len, names_cap;
	bool dirty;
	size_t lines;           /* entries read */
	uint64_t max_bytes;     /* what may be read of the file */
	size_t max_entries;
	uint64_t bytes;         /* read of it so far */
	size_t oversized;
	bool full;              /* stopped at max_bytes or max_entries */
};

static int perfmap__add(struct perfmap *pm, uint64_t start, uint64_t len, const char *name)
{
	size_t nlen = strlen(name) + 1;
	bool oversized = len > PERFMAP_SIZE_MAX || start + len < start;

	if (array__grow((void **)&pm->e, &pm->cap, pm->nr + 1, sizeof(*pm->e)) ||
	    array__grow((void **)&pm->names, &pm->names_cap, pm->names_len + nlen, 1))
		return -ENOMEM;
	memcpy(pm->names + pm->names_len, name, nlen);
	if (oversized) /* ends at the next entry's start (perfmap__index), or this */
		len = start + PERFMAP_SIZE_MAX < start ? UINT64_MAX - start : PERFMAP_SIZE_MAX;
	pm->e[pm->nr++] = (struct pm_entry){ start, start + len, pm->names_len, pm->lines++,
					     oversized };
	pm->names_len += nlen;
	pm->oversized += oversized;
	pm->dirty = true;
	return 0;
}

/* "START SIZE name": hex numbers, 0x optional; 0 on success. */
static int perfmap__line(char *line, uint64_t *start, uint64_t *len, char **name)
{
	char *p = line, *end;

	errno = 0;
	*start = strtoull(p, &end, 16);
	if (end == p || *end != ' ' || errno)
		return -EINVAL;
	p = end + 1;
	*len = strtoull(p, &end, 16);
	if (end == p || *end != ' ' || !*len || errno)
		return -EINVAL;
	*name = end + 1;
	(*name)[strcspn(*name, "\r\n")] = '\0';
	return **name ? 0 : -EINVAL;
}

struct perfmap *perfmap__new(uint64_t max_bytes)
{
	struct perfmap *pm = calloc(1, sizeof(struct perfmap));

	if (!pm)
		return NULL;
	pm->max_bytes = max_bytes;
	pm->max_entries = max_bytes / PERFMAP_BYTES_PER_ENTRY;
	return pm;
}

/*
 * Make @buf (*@cap bytes, @have used) hold more: twice as much, from
 * PERFMAP_CHUNK, but no more than what may still be read of the file and
 * one byte (a line longer than that ends the reading). 0, -ENOSPC (the
 * line is too long: stop) or -ENOMEM.
 */
static int perfmap__grow_buf(const struct perfmap *pm, char **buf, size_t *cap, size_t have)
{
	uint64_t room = pm->max_bytes - pm->bytes + 1;
	size_t want = *cap ? *cap * 2 : PERFMAP_CHUNK;
	char *p;

	if (have >= room)
		return -ENOSPC;
	if (want > room)
		want = room;
	p = realloc(*buf, want);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = want;
	return 0;
}

ssize_t perfmap__read_more(struct perfmap *pm, FILE *f)
{
	size_t have = 0, cap = 0; /* bytes in buf, and its size */
	char *buf = NULL;
	ssize_t used = 0;
	int err = 0;

	while (!pm->full) {
		size_t got, at = 0;
		char *nl;

		if (have == cap && (err = perfmap__grow_buf(pm, &buf, &cap, have))) {
			pm->full = err == -ENOSPC;
			break;
		}
		got = fread(buf + have, 1, cap - have, f);
		have += got;
		while (!err && (nl = memchr(buf + at, '\n', have - at))) {
			size_t len = nl + 1 - (buf + at);
			uint64_t start, size;
			char *name;

			if (pm->bytes + len > pm->max_bytes || pm->lines == pm->max_entries) {
				pm->full = true;
				break;
			}
			*nl = '\0';
			if (!perfmap__line(buf + at, &start, &size, &name))
				err = perfmap__add(pm, start, size, name);
			pm->bytes += len;
			used += len;
			at += len;
		}
		if (err)
			break;
		memmove(buf, buf + at, have - at);
		have -= at;
		if (!got)
			break; /* a line without its newline is being written: next time */
	}
	free(buf);
	return err == -ENOMEM ? err : used;
}

struct perfmap *perfmap__parse(FILE *f, uint64_t max_bytes)
{
	struct perfmap *pm = perfmap__new(max_bytes);

	if (pm && perfmap__read_more(pm, f) < 0) {
		perfmap__free(pm);
		errno = ENOMEM;
		return NULL;
	}
	return pm;
}

static int pm_entry__cmp(const void *a, const void *b)
{
	const struct pm_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t pm_entry__start(const void *e)
{
	return ((const struct pm_entry *)e)->start;
}

/* A max-heap of entry indexes, by seq: the latest line first. */
static void heap__push(const struct pm_entry *e, uint32_t *h, size_t *n, uint32_t v)
{
	size_t i = (*n)++;

	for (; i && e[h[(i - 1) / 2]].seq < e[v].seq; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = v;
}

static void heap__pop(const struct pm_entry *e, uint32_t *h, size_t *n)
{
	uint32_t v = h[--*n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && e[h[c + 1]].seq > e[h[c]].seq)
			c++;
		if (e[h[c]].seq <= e[v].seq)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

/* Piece [@start, @end) of @e goes to @out (joining the piece before it, of the same line). */
static int perfmap__piece(struct pm_entry **out, size_t *nr, size_t *cap,
			  const struct pm_entry *e, uint64_t start, uint64_t end)
{
	struct pm_entry *last = *nr ? &(*out)[*nr - 1] : NULL;

	if (last && last->seq == e->seq && last->end == start) {
		last->end = end;
		return 0;
	}
	if (array__grow((void **)out, cap, *nr + 1, sizeof(**out)))
		return -ENOMEM;
	(*out)[*nr] = *e;
	(*out)[*nr].start = start;
	(*out)[(*nr)++].end = end;
	return 0;
}

/*
 * Flatten the entries into disjoint pieces: a sweep over their starts and
 * ends in address order, with the entries holding the current address in
 * a heap by line; each piece goes to the latest of them. O(n log n),
 * whatever the overlaps; what was flattened before takes part as the
 * pieces it became. An oversized entry first ends at the next entry's
 * start.
 */
static int perfmap__index(struct perfmap *pm)
{
	struct pm_entry *e = pm->e, *out = NULL;
	size_t nheap = 0, i = 0, nout = 0, outcap = 0;
	bool flat = true;
	uint32_t *heap;
	uint64_t pos = 0;
	int err = 0;

	if (pm->nr) /* qsort(NULL, 0, ...) is undefined */
		qsort(e, pm->nr, sizeof(*e), pm_entry__cmp);
	for (size_t k = pm->nr, next = pm->nr; k-- > 0;) {
		if (k + 1 < pm->nr && e[k + 1].start != e[k].start)
			next = k + 1; /* the first entry of a greater start */
		if (e[k].oversized && next < pm->nr && e[next].start < e[k].end)
			e[k].end = e[next].start;
		if (k + 1 < pm->nr && e[k].end > e[k + 1].start)
			flat = false;
	}
	if (flat) { /* no overlap (the usual map): sorted is flattened */
		pm->dirty = false;
		return 0;
	}
	heap = malloc(pm->nr * sizeof(*heap));
	if (!heap)
		return -ENOMEM;
	while (!err && (i < pm->nr || nheap)) {
		uint64_t end;

		if (!nheap)
			pos = e[i].start;
		while (i < pm->nr && e[i].start <= pos)
			heap__push(e, heap, &nheap, i++);
		while (nheap && e[heap[0]].end <= pos)
			heap__pop(e, heap, &nheap);
		if (!nheap)
			continue;
		end = e[heap[0]].end;
		if (i < pm->nr && e[i].start < end)
			end = e[i].start;
		err = perfmap__piece(&out, &nout, &outcap, &e[heap[0]], pos, end);
		pos = end;
	}
	free(heap);
	if (err) {
		free(out);
		return err;
	}
	free(pm->e);
	pm->e = out;
	pm->nr = nout;
	pm->cap = outcap;
	pm->dirty = false;
	return 0;
}

const char *perfmap__lookup(struct perfmap *pm, uint64_t addr)
{
	size_t i;

	if (pm->dirty && perfmap__index(pm)) {
		errno = ENOMEM;
		return NULL;
	}
	i = search__last_le(pm->e, pm->nr, sizeof(*pm->e), addr, pm_entry__start);
	if (i == pm->nr || addr >= pm->e[i].end)
		return NULL;
	return pm->names + pm->e[i].name;
}

size_t perfmap__count(const struct perfmap *pm)
{
	return pm->lines;
}

size_t perfmap__oversized(const struct perfmap *pm)
{
	return pm->oversized;
}

bool perfmap__full(const struct perfmap *pm)
{
	return pm->full;
}

void perfmap__free(struct perfmap *pm)
{
	if (!pm)
		return;
	free(pm->e);
	free(pm->names);
	free(pm);
}

/* The process's pid in its own pid namespace, and its effective uid. */
static int perfmap__status(pid_t pid, pid_t *nspid, uid_t *uid)
{
	char path[64], line[512];
	unsigned int r, e;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	*nspid = pid;
	*uid = (uid_t)-1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "NSpid:", 6)) {
			char *last = strrchr(line, '\t');

			if (last)
				*nspid = atoi(last + 1);
		} else if (sscanf(line, "Uid: %u %u", &r, &e) == 2) {
			*uid = e;
		}
	}
	fclose(f);
	return 0;
}

FILE *perfmap__open(pid_t pid)
{
	char path[128];
	pid_t nspid = pid;
	uid_t uid = (uid_t)-1;
	struct stat st;
	int fd, root = -1, err;
	FILE *f;

	/*
	 * The process's own /tmp, resolved inside its root (its symlinks stay
	 * there), else ours once it is gone; the map itself is no symlink.
	 */
	if (perfmap__status(pid, &nspid, &uid) == 0)
		snprintf(path, sizeof(path), "/proc/%d/root", pid);
	else
		snprintf(path, sizeof(path), "/");
	err = infile__open_root(path, &root);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", nspid);
	err = err ?: infile__open_in_flags(root, path, O_NOFOLLOW, &fd);
	if (root >= 0)
		close(root);
	if (err) {
		errno = -err;
		return NULL;
	}
	if (fstat(fd, &st) || (st.st_uid != 0 && (uid == (uid_t)-1 || st.st_uid != uid))) {
		close(fd);
		errno = EPERM;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}
