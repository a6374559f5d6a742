// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The unwind-table cache reader (cficache__load): the input is written as a
 * cache file in a directory of its own and loaded, as a hostile writer of
 * the cache directory could make it. Such a writer knows the build-id and
 * the source digest the loader asks for and computes the checksum, so the
 * target asks for the ones the input's header names and seals its
 * checksum: the mutations reach the checks that must stop a forged file.
 * A table the loader accepts must be the file's body and pass every check
 * the BPF search relies on.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cficache.h"

static char dir[64];

static void fuzz_cficache__cleanup(void)
{
	rmdir(dir);
}

/* The directory of the cache files: in memory when /dev/shm is there (twice the runs). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const bases[] = { "/dev/shm", "/tmp" };

	(void)argc;
	(void)argv;
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		snprintf(dir, sizeof(dir), "%s/fuzz-cficache-XXXXXX", bases[i]);
		if (mkdtemp(dir)) {
			atexit(fuzz_cficache__cleanup);
			return 0;
		}
	}
	perror("fuzz-cficache: mkdtemp");
	exit(1);
}

static void fuzz_cficache__write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert(fd >= 0);
	assert(write(fd, data, size) == (ssize_t)size);
	close(fd);
}

static void fuzz_cficache__check(const struct cfi_table *t,
				 const struct cficache_header *h, const uint8_t *body,
				 size_t size)
{
	assert(cfi_table__check(t) == 0);
	assert(t->nr_rows == h->nr_rows && t->nr_pages == h->nr_pages && t->base == h->base);
	assert(cfi_table__bytes(t) == size && size == h->body_size);
	assert(!memcmp(t->rows, body, size));
	assert((const void *)t->pages == (const void *)(t->rows + t->nr_rows));
	for (uint32_t i = 0; i + 1 < t->nr_rows; i++) /* the last row only ends the table */
		assert(cfi_table__lookup(t, t->base + t->rows[i].pc) == &t->rows[i]);
	assert(!cfi_table__lookup(t, t->base + t->rows[t->nr_rows - 1].pc));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cficache_header h = { 0 };
	uint8_t *file = malloc(size ? size : 1);
	char hex[2 * BUILD_ID_MAX + 1], *path;
	struct cfi_table *t;
	size_t len;

	assert(file);
	memcpy(file, data, size);
	if (size >= sizeof(h)) {
		memcpy(&h, file, sizeof(h));
		h.checksum = cficache__checksum(file + sizeof(h), size - sizeof(h));
		memcpy(file + offsetof(struct cficache_header, checksum), &h.checksum,
		       sizeof(h.checksum));
	}
	/* a length the loader refuses before it opens anything: ask for a whole id */
	len = h.build_id_len && h.build_id_len <= BUILD_ID_MAX ? h.build_id_len : BUILD_ID_MAX;
	buildid__hex(h.build_id, len, hex);
	assert(asprintf(&path, "%s/%s.unwind", dir, hex) > 0);
	fuzz_cficache__write(path, file, size);
	errno = 0;
	t = cficache__load(dir, h.build_id, len, false, h.source);
	if (t) {
		fuzz_cficache__check(t, &h, file + sizeof(h), size - sizeof(h));
		cfi_table__free(t);
	} else {
		assert(errno == EBADMSG || errno == ENOMEM);
	}
	unlink(path);
	free(path);
	free(file);
	return 0;
}
