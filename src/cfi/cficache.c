// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The file (cficache.h) is the table as it is in memory, so a load is one
 * read of the header and one of the body, then the checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cficache.h"
#include "elfloads.h"
#include "infile.h"
#include "outfile.h"

char *cficache__default_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = NULL;
	int n;

	/* the XDG rule: a relative path is invalid and ignored */
	if (xdg && xdg[0] == '/')
		n = asprintf(&dir, "%s/bpfprof/unwind", xdg);
	else if (home && home[0] == '/')
		n = asprintf(&dir, "%s/.cache/bpfprof/unwind", home);
	else {
		errno = ENOENT;
		return NULL;
	}
	if (n < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return dir;
}

static char *cficache__path(const char *dir, const uint8_t *id, size_t len, bool debug)
{
	char hex[2 * BUILD_ID_MAX + 1], *path;

	buildid__hex(id, len, hex);
	if (asprintf(&path, "%s/%s%s.unwind", dir, hex, debug ? ".debug" : "") < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return path;
}

int64_t cficache__size(const char *dir, const uint8_t *id, size_t len)
{
	char *path = len && len <= BUILD_ID_MAX ? cficache__path(dir, id, len, false) : NULL;
	struct stat st;
	bool has = path && !stat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return has ? (int64_t)st.st_size : -1;
}

uint64_t cficache__checksum(const void *buf, size_t size)
{
	const unsigned char *p = buf;
	uint64_t h = 0x6a09e667f3bcc908ull ^ size;

	for (; size >= 8; p += 8, size -= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; size >= 4; p += 4, size -= 4) {
		uint32_t w;

		memcpy(&w, p, 4);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return h;
}

/* The header of a file of @size bytes, checked against what this build writes. */
static bool header__valid(const struct cficache_header *h, off_t size, const uint8_t *id,
			  size_t len, const uint8_t *source)
{
	uint64_t rows = (uint64_t)h->nr_rows * sizeof(struct unwind_row);

	return !memcmp(h->magic, CFICACHE_MAGIC, sizeof(h->magic)) &&
	       h->version == CFICACHE_VERSION && h->header_size == sizeof(*h) &&
	       h->row_size == sizeof(struct unwind_row) &&
	       h->page_shift == UNWIND_PAGE_SHIFT && h->build_id_len == len &&
	       !memcmp(h->build_id, id, len) && !memcmp(h->source, source, SHA256_SIZE) &&
	       h->nr_rows && h->nr_pages &&
	       h->nr_pages <= (1u << (32 - UNWIND_PAGE_SHIFT)) &&
	       h->body_size == rows + ((uint64_t)h->nr_pages + 1) * sizeof(uint32_t) &&
	       (uint64_t)size == sizeof(*h) + h->body_size;
}

static struct cfi_table *cficache__read(int fd, const uint8_t *id, size_t len,
				       const uint8_t *source)
{
	struct cficache_header h;
	struct cfi_table *t;
	struct stat st;
	int err;

	if (fstat(fd, &st))
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EBADMSG;
		return NULL;
	}
	err = elf_loads__pread(fd, &h, sizeof(h), 0);
	if (err) {
		errno = err == -EIO ? EBADMSG : -err; /* shorter than a header */
		return NULL;
	}
	if (!header__valid(&h, st.st_size, id, len, source)) {
		errno = EBADMSG;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->rows = malloc(h.body_size))) {
		free(t);
		errno = ENOMEM;
		return NULL;
	}
	t->base = h.base;
	t->nr_rows = h.nr_rows;
	t->nr_pages = h.nr_pages;
	t->pages = (uint32_t *)(t->rows + h.nr_rows);
	t->nr_fdes = h.nr_fdes;
	t->nr_fdes_skipped = h.nr_fdes_skipped;
	t->nr_raw_rows = h.nr_raw_rows;
	t->flags = h.flags;
	/* the size was checked: a short read is a file cut meanwhile */
	err = elf_loads__pread(fd, t->rows, h.body_size, sizeof(h));
	if (err == -EIO)
		err = -EBADMSG;
	else if (!err && (cficache__checksum(t->rows, h.body_size) != h.checksum ||
			  cfi_table__check(t)))
		err = -EBADMSG;
	if (err) {
		cfi_table__free(t);
		errno = -err;
		return NULL;
	}
	return t;
}

struct cfi_table *cficache__load(const char *dir, const uint8_t *id, size_t len,
				 bool debug, const uint8_t *source)
{
	struct cfi_table *t;
	char *path;
	int fd, err;

	if (!len || len > BUILD_ID_MAX) {
		errno = ENOENT;
		return NULL;
	}
	path = cficache__path(dir, id, len, debug);
	if (!path)
		return NULL;
	err = infile__open(path, &fd); /* no hang on a FIFO */
	free(path);
	if (err) {
		errno = err == -INFILE_ENOTREG ? EBADMSG : -err;
		return NULL;
	}
	t = cficache__read(fd, id, len, source);
	err = errno;
	close(fd);
	errno = err;
	return t;
}

/* mkdir -p, new directories private to the user. */
static int cficache__mkdir(const char *dir)
{
	char *p = strdup(dir);
	int err = 0;

	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; !err; s++) {
		bool last = !*s;

		if (*s != '/' && !last)
			continue;
		*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			err = -errno;
		if (last)
			break;
		*s = '/';
	}
	free(p);
	return err;
}

int cficache__store(const char *dir, const uint8_t *id, size_t len, bool debug,
		    const uint8_t *source, const struct cfi_table *t)
{
	struct cficache_header h = {
		.version = CFICACHE_VERSION,
		.header_size = sizeof(h),
		.row_size = sizeof(struct unwind_row),
		.page_shift = UNWIND_PAGE_SHIFT,
		.build_id_len = len,
		.base = t->base,
		.nr_rows = t->nr_rows,
		.nr_pages = t->nr_pages,
		.nr_fdes = t->nr_fdes,
		.nr_fdes_skipped = t->nr_fdes_skipped,
		.nr_raw_rows = t->nr_raw_rows,
		.flags = t->flags,
		.body_size = cfi_table__bytes(t),
	};
	struct outfile *of = NULL;
	char *path = NULL;
	struct stat st;
	FILE *f;
	int err;

	if (!len || len > BUILD_ID_MAX)
		return -EINVAL;
	memcpy(h.magic, CFICACHE_MAGIC, sizeof(h.magic));
	memcpy(h.build_id, id, len);
	memcpy(h.source, source, SHA256_SIZE);
	/* rows and pages are one block (cfitable.h) */
	h.checksum = cficache__checksum(t->rows, h.body_size);
	err = cficache__mkdir(dir);
	if (err)
		return err;
	path = cficache__path(dir, id, len, debug);
	/* outfile writes into a device or FIFO in place: the cache replaces it */
	if (path && !lstat(path, &st) && !S_ISREG(st.st_mode) && unlink(path)) {
		err = -errno;
		goto out;
	}
	of = path ? outfile__open(path, NULL, 0) : NULL;
	if (!of) {
		err = -errno;
		goto out;
	}
	f = outfile__stream(of);
	if (fwrite(&h, sizeof(h), 1, f) != 1 || fwrite(t->rows, h.body_size, 1, f) != 1)
		err = errno ? -errno : -EIO;
	else
		err = outfile__commit(of);
out:
	outfile__free(of);
	free(path);
	return err;
}

struct cfi_table *cficache__get(const char *dir, int fd, int debug_fd, bool *cached)
{
	uint8_t id[BUILD_ID_MAX], source[SHA256_SIZE];
	struct cfi_table *t;
	int len = dir ? buildid__read_fd(fd, id, sizeof(id)) : -ENOENT;
	bool debug = debug_fd >= 0;

	if (cached)
		*cached = false;
	if (len > 0 && cfi_table__digest(fd, debug_fd, source))
		len = -ENOENT; /* not a file to cache a table of */
	if (len > 0) {
		t = cficache__load(dir, id, len, debug, source);
		if (t) {
			if (cached)
				*cached = true;
			return t;
		}
	}
	t = cfi_table__build_fd(fd, debug_fd);
	if (t && len > 0)
		cficache__store(dir, id, len, debug, source, t); /* no cache: only slower */
	return t;
}
