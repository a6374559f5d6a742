// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "buildid.h"
#include "debugfile.h"
#include "elfopen.h"
#include "elfscn.h"

static uint32_t crc32_update(uint32_t crc, const unsigned char *buf, size_t len)
{
	static uint32_t table[256];

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *buf++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

int debugfile__crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	off_t off = 0;
	ssize_t n;

	*crc = 0;
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0) {
		*crc = crc32_update(*crc, buf, n);
		off += n;
	}
	return n < 0 ? -errno : 0;
}

/* The data of the PROGBITS section called @want, or NULL. */
static Elf_Data *debugfile__section(Elf *elf, const char *want)
{
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;

	while ((scn = elf_scn__next(elf, scn, &sh, &name))) {
		if (sh.sh_type == SHT_PROGBITS && !strcmp(name, want))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

int debugfile__link(int fd, char *name, size_t size, uint32_t *crc)
{
	Elf *elf = elf_open__fd(fd);
	Elf_Data *d = elf ? debugfile__section(elf, ".gnu_debuglink") : NULL;
	int err = -ENOENT;
	size_t len;

	/* name, NUL, padding to 4, then a 4-byte CRC */
	if (d && d->d_buf && d->d_size >= 8) {
		len = strnlen(d->d_buf, d->d_size);
		if (len && len < size && ((len + 4) & ~3u) + 4 <= d->d_size) {
			memcpy(name, d->d_buf, len + 1);
			memcpy(crc, (const char *)d->d_buf + ((len + 4) & ~3u), sizeof(*crc));
			err = 0;
		}
	}
	elf_end(elf);
	return err;
}

/* Decompress a whole .xz stream into a growing buffer. */
static int debugfile__unxz(const uint8_t *in, size_t in_size, void **out, size_t *out_size)
{
	lzma_stream strm = LZMA_STREAM_INIT;
	size_t cap = in_size * 4 + 4096, old;
	uint8_t *buf = malloc(cap);
	lzma_ret ret;

	if (!buf)
		return -ENOMEM;
	if (lzma_stream_decoder(&strm, UINT64_MAX, 0) != LZMA_OK) {
		free(buf);
		return -ENOMEM;
	}
	strm.next_in = in;
	strm.avail_in = in_size;
	strm.next_out = buf;
	strm.avail_out = cap;
	while ((ret = lzma_code(&strm, LZMA_FINISH)) == LZMA_OK) {
		if (strm.avail_out)
			continue;
		old = cap;
		if (array__grow((void **)&buf, &cap, old + 1, 1))
			break;
		strm.next_out = buf + old;
		strm.avail_out = cap - old;
	}
	*out_size = strm.total_out;
	lzma_end(&strm);
	if (ret != LZMA_STREAM_END) {
		free(buf);
		return ret == LZMA_MEM_ERROR || ret == LZMA_OK ? -ENOMEM : -EINVAL;
	}
	*out = buf;
	return 0;
}

int debugfile__minidebuginfo(int fd, void **image, size_t *size)
{
	Elf *elf = elf_open__fd(fd);
	Elf_Data *d = elf ? debugfile__section(elf, ".gnu_debugdata") : NULL;
	int err = -ENOENT;

	if (d && d->d_buf && d->d_size)
		err = debugfile__unxz(d->d_buf, d->d_size, image, size);
	elf_end(elf);
	return err;
}

static int debugfile__by_build_id(const uint8_t *id, size_t len, const char *const *roots)
{
	char hex[2 * BUILD_ID_MAX + 1], path[PATH_MAX];
	uint8_t got[BUILD_ID_MAX];
	int fd, n;

	if (len < 2)
		return -ENOENT;
	buildid__hex(id, len, hex);
	for (size_t r = 0; roots[r]; r++) {
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", roots[r], hex, hex + 2);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = buildid__read_fd(fd, got, sizeof(got));
		if (n > 0 && (size_t)n == len && !memcmp(got, id, len))
			return fd;
		close(fd);
	}
	return -ENOENT;
}

static int debugfile__try_link(const char *path, uint32_t crc)
{
	uint32_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -ENOENT;
	if (!debugfile__crc(fd, &got) && got == crc)
		return fd;
	close(fd);
	return -ENOENT;
}

static int debugfile__by_link(int fd, const char *path, const char *const *roots)
{
	char name[NAME_MAX + 1], dir[PATH_MAX], cand[2 * PATH_MAX + 16];
	const char *slash;
	uint32_t crc;
	int dfd;

	if (!path || debugfile__link(fd, name, sizeof(name), &crc))
		return -ENOENT;
	slash = strrchr(path, '/');
	if (!slash)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	snprintf(cand, sizeof(cand), "%s/%s", dir, name);
	if (strcmp(cand, path) && (dfd = debugfile__try_link(cand, crc)) >= 0)
		return dfd;
	snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, name);
	if ((dfd = debugfile__try_link(cand, crc)) >= 0)
		return dfd;
	for (size_t r = 0; roots[r]; r++) {
		snprintf(cand, sizeof(cand), "%s%s/%s", roots[r], dir, name);
		if ((dfd = debugfile__try_link(cand, crc)) >= 0)
			return dfd;
	}
	return -ENOENT;
}

int debugfile__open(int fd, const char *path, const uint8_t *id, size_t len,
		    const char *const *roots)
{
	int dfd = debugfile__by_build_id(id, len, roots);

	return dfd >= 0 ? dfd : debugfile__by_link(fd, path, roots);
}

/*
 * Called by libdebuginfod while it waits or downloads (about once a second
 * when nothing arrives): non-zero gives the query up. Prints nothing.
 */
static int debugfile__progress(debuginfod_client *client, long done, long total)
{
	const volatile sig_atomic_t *stop = debuginfod_get_user_data(client);

	(void)done;
	(void)total;
	return stop && *stop;
}

/*
 * One libdebuginfod client for the process, made on first use and kept (it
 * reads $DEBUGINFOD_URLS and the cache settings on every query). It must not
 * print: no progress bar ($DEBUGINFOD_PROGRESS), no verbose log
 * ($DEBUGINFOD_VERBOSE).
 */
static debuginfod_client *debugfile__client(void)
{
	static debuginfod_client *client;

	if (!client) {
		client = debuginfod_begin();
		if (client) {
			debuginfod_set_progressfn(client, debugfile__progress);
			debuginfod_set_verbose_fd(client, -1);
		}
	}
	return client;
}

/*
 * libdebuginfod remembers a query given up by the progress callback as a
 * miss (an empty <cache>/<build-id>/debuginfo, not asked again for
 * cache_miss_s, 10 minutes): a query the user cut short is not one. Its
 * cache directory as libdebuginfod 0.188 chooses it; the file is removed
 * only when it is that empty marker.
 */
static void debugfile__forget_miss(const uint8_t *id, size_t len)
{
	const char *env = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	char hex[2 * BUILD_ID_MAX + 1], dir[PATH_MAX], path[PATH_MAX];
	struct stat st;

	if (len > BUILD_ID_MAX)
		return;
	for (size_t i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (home && snprintf(dir, sizeof(dir), "%s/.debuginfod_client_cache", home) > 0 &&
		 !stat(dir, &st) && S_ISDIR(st.st_mode))
		;
	else if (xdg && *xdg)
		snprintf(dir, sizeof(dir), "%s/debuginfod_client", xdg);
	else if (home)
		snprintf(dir, sizeof(dir), "%s/.cache/debuginfod_client", home);
	else
		return;
	if (snprintf(path, sizeof(path), "%s/%s/debuginfo", dir, hex) >= (int)sizeof(path))
		return;
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_size == 0)
		unlink(path);
}

int debugfile__debuginfod(const uint8_t *id, size_t len, const volatile sig_atomic_t *stop)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	debuginfod_client *client;
	int fd;

	if (!urls || !*urls || !len)
		return -ENOENT;
	client = debugfile__client();
	if (!client)
		return -ENOMEM;
	if (stop && *stop)
		return -EINTR;
	debuginfod_set_user_data(client, (void *)stop);
	fd = debuginfod_find_debuginfo(client, id, len, NULL);
	if (fd < 0 && stop && *stop) {
		debugfile__forget_miss(id, len);
		return -EINTR;
	}
	if (fd >= 0) {
		/* the cache file is opened without O_CLOEXEC */
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		return fd;
	}
	/* no server has it (or a miss remembered by the cache), no usable URL */
	return fd == -ENOENT || fd == -ENOSYS ? -ENOENT : fd;
}
