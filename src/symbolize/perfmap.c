// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
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

struct pm_entry {
	uint64_t start, end;
	uint32_t seq;  /* line order: a later entry wins an overlap */
	uint32_t name; /* offset into names */
};

struct perfmap {
	struct pm_entry *e;
	size_t nr, cap;
	char *names;
	size_t names_len, names_cap;
	uint64_t max_len; /* the longest entry: how far back a lookup looks */
};

static int perfmap__add(struct perfmap *pm, uint64_t start, uint64_t len, const char *name)
{
	size_t nlen = strlen(name) + 1;

	if (array__grow((void **)&pm->e, &pm->cap, pm->nr + 1, sizeof(*pm->e)) ||
	    array__grow((void **)&pm->names, &pm->names_cap, pm->names_len + nlen, 1))
		return -ENOMEM;
	memcpy(pm->names + pm->names_len, name, nlen);
	pm->e[pm->nr] = (struct pm_entry){ start, start + len, pm->nr, pm->names_len };
	pm->names_len += nlen;
	pm->nr++;
	if (len > pm->max_len)
		pm->max_len = len;
	return 0;
}

/* "START SIZE name": hex numbers, 0x optional; 0 on success. */
static int perfmap__line(char *line, uint64_t *start, uint64_t *len, char **name)
{
	char *p = line, *end;

	*start = strtoull(p, &end, 16);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end + 1;
	*len = strtoull(p, &end, 16);
	if (end == p || *end != ' ' || !*len || *start + *len < *start)
		return -EINVAL;
	*name = end + 1;
	(*name)[strcspn(*name, "\r\n")] = '\0';
	return **name ? 0 : -EINVAL;
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

struct perfmap *perfmap__new(void)
{
	return calloc(1, sizeof(struct perfmap));
}

ssize_t perfmap__read_more(struct perfmap *pm, FILE *f)
{
	char *line = NULL, *name;
	uint64_t start, len;
	size_t cap = 0, before = pm->nr;
	ssize_t n, used = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] != '\n')
			break; /* being written: read it next time */
		used += n;
		if (perfmap__line(line, &start, &len, &name))
			continue;
		if (perfmap__add(pm, start, len, name)) {
			free(line);
			return -ENOMEM;
		}
	}
	free(line);
	if (pm->nr > before) /* qsort(NULL, 0, ...) is undefined */
		qsort(pm->e, pm->nr, sizeof(*pm->e), pm_entry__cmp);
	return used;
}

struct perfmap *perfmap__parse(FILE *f)
{
	struct perfmap *pm = perfmap__new();

	if (pm && perfmap__read_more(pm, f) < 0) {
		perfmap__free(pm);
		errno = ENOMEM;
		return NULL;
	}
	return pm;
}

const char *perfmap__lookup(const struct perfmap *pm, uint64_t addr)
{
	/* the first entry starting above addr */
	size_t lo = search__upper_bound(pm->e, pm->nr, sizeof(*pm->e), addr, pm_entry__start);
	const struct pm_entry *best = NULL;

	/* entries before it may hold addr; none starts further back than max_len */
	for (size_t i = lo; i-- > 0 && addr - pm->e[i].start < pm->max_len;) {
		const struct pm_entry *e = &pm->e[i];

		if (addr < e->end && (!best || e->seq > best->seq))
			best = e;
	}
	return best ? pm->names + best->name : NULL;
}

size_t perfmap__count(const struct perfmap *pm)
{
	return pm->nr;
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
