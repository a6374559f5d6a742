// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "srccache.h"

/* One indexed file: its identity when opened, and how many hold it. */
struct srccache_entry {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	int fd; /* the cache's own descriptor of the file, for srcinfo */
	size_t refs;
	struct srcinfo *si;
};

struct srccache {
	/* few (one per DWARF file read): a search is a look at each */
	struct srccache_entry *v;
	size_t nr, cap;
	size_t indexed, reused;
};

struct srccache *srccache__new(void)
{
	return calloc(1, sizeof(struct srccache));
}

static void srccache_entry__free(struct srccache_entry *e)
{
	srcinfo__free(e->si);
	close(e->fd);
}

void srccache__free(struct srccache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr; i++)
		srccache_entry__free(&c->v[i]);
	free(c->v);
	free(c);
}

static bool srccache_entry__is(const struct srccache_entry *e, const struct stat *st)
{
	return e->dev == st->st_dev && e->ino == st->st_ino && e->size == st->st_size &&
	       e->mtime.tv_sec == st->st_mtim.tv_sec && e->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

struct srcinfo *srccache__get(struct srccache *c, int fd)
{
	struct srccache_entry *e;
	struct stat st;
	int own;

	if (!c)
		return srcinfo__open(fd);
	if (fstat(fd, &st))
		return NULL;
	for (size_t i = 0; i < c->nr; i++) {
		if (srccache_entry__is(&c->v[i], &st)) {
			c->v[i].refs++;
			c->reused++;
			return c->v[i].si;
		}
	}
	if (array__grow((void **)&c->v, &c->cap, c->nr + 1, sizeof(*c->v))) {
		errno = ENOMEM;
		return NULL;
	}
	own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (own < 0)
		return NULL;
	e = &c->v[c->nr];
	*e = (struct srccache_entry){
		.dev = st.st_dev,
		.ino = st.st_ino,
		.size = st.st_size,
		.mtime = st.st_mtim,
		.fd = own,
		.refs = 1,
		.si = srcinfo__open(own),
	};
	if (!e->si) {
		int err = errno;

		close(own);
		errno = err;
		return NULL;
	}
	c->nr++;
	c->indexed++;
	return e->si;
}

void srccache__put(struct srccache *c, struct srcinfo *si)
{
	if (!c) {
		srcinfo__free(si);
		return;
	}
	if (!si)
		return;
	for (size_t i = 0; i < c->nr; i++) {
		if (c->v[i].si != si)
			continue;
		if (--c->v[i].refs)
			return;
		srccache_entry__free(&c->v[i]);
		c->v[i] = c->v[--c->nr];
		return;
	}
}

void srccache__stats(const struct srccache *c, size_t *indexed, size_t *reused)
{
	*indexed = c ? c->indexed : 0;
	*reused = c ? c->reused : 0;
}
