// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <lzma.h>
#include <signal.h>
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
#include "infile.h"
#include "stopsig.h"

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
	struct stat st;
	off_t off = 0;
	ssize_t n = 0;

	*crc = 0;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -INFILE_ENOTREG;
	/* the size it had: a file that grows while it is read is not read forever */
	while (off < st.st_size &&
	       (n = pread(fd, buf, st.st_size - off < (off_t)sizeof(buf) ? (size_t)(st.st_size - off) :
									  sizeof(buf),
			  off)) > 0) {
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

size_t debugfile__unxz_bound(size_t in_size)
{
	size_t cap = DEBUGFILE_UNXZ_MAX / DEBUGFILE_UNXZ_RATIO;

	return in_size < cap ? in_size * DEBUGFILE_UNXZ_RATIO : DEBUGFILE_UNXZ_MAX;
}

/*
 * Decompress a whole .xz stream into a growing buffer, at most
 * debugfile__unxz_bound(@in_size) bytes (a bomb is refused, not read) and
 * DEBUGFILE_UNXZ_MEMLIMIT of decoder memory.
 */
static int debugfile__unxz(const uint8_t *in, size_t in_size, void **out, size_t *out_size)
{
	size_t max = debugfile__unxz_bound(in_size), cap = in_size * 4 + 4096, old;
	lzma_stream strm = LZMA_STREAM_INIT;
	uint8_t *buf;
	lzma_ret ret;

	if (cap > max + 1)
		cap = max + 1;
	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	if (lzma_stream_decoder(&strm, DEBUGFILE_UNXZ_MEMLIMIT, 0) != LZMA_OK) {
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
		/* one byte past the bound tells a bomb */
		if (strm.total_out > max)
			break;
		old = cap;
		if (array__grow((void **)&buf, &cap, old + 1, 1))
			break;
		if (cap > max + 1)
			cap = max + 1;
		strm.next_out = buf + old;
		strm.avail_out = cap - old;
	}
	*out_size = strm.total_out;
	lzma_end(&strm);
	if (ret != LZMA_STREAM_END) {
		free(buf);
		if (ret == LZMA_MEMLIMIT_ERROR || *out_size > max)
			return -EFBIG;
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

/*
 * Open the candidate @path (inside @w->root_fd when @in_root), a regular
 * file only: the first one refused (a FIFO, a device, a directory) is
 * named in @w->refused. 0 or -errno.
 */
static int debugfile__candidate(struct debugfile_where *w, bool in_root, const char *path,
				int *fd)
{
	int err = in_root ? infile__open_in(w->root_fd, path, fd) : infile__open(path, fd);

	if (err == -INFILE_ENOTREG && w->refused && !w->refused[0])
		snprintf(w->refused, w->refused_size, "%s%s: %s", in_root ? "(container) " : "",
			 path, infile__strerror(err));
	return err;
}

/* ROOT/.build-id/xx/rest.debug holding build-id @id: its fd, else -ENOENT. */
static int debugfile__try_build_id(struct debugfile_where *w, bool in_root, const char *root,
				   const uint8_t *id, size_t len, const char *hex)
{
	char path[PATH_MAX];
	uint8_t got[BUILD_ID_MAX];
	int fd, n;

	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", root, hex, hex + 2);
	if (debugfile__candidate(w, in_root, path, &fd))
		return -ENOENT;
	n = buildid__read_fd(fd, got, sizeof(got));
	if (n > 0 && (size_t)n == len && !memcmp(got, id, len))
		return fd;
	close(fd);
	return -ENOENT;
}

static int debugfile__by_build_id(const uint8_t *id, size_t len, struct debugfile_where *w)
{
	char hex[2 * BUILD_ID_MAX + 1];
	int fd;

	if (len < 2)
		return -ENOENT;
	buildid__hex(id, len, hex);
	/* a container's own /usr/lib/debug first, resolved inside its root */
	if (w->root_fd >= 0 &&
	    (fd = debugfile__try_build_id(w, true, DEBUGFILE_ROOT, id, len, hex)) >= 0)
		return fd;
	for (size_t r = 0; w->roots[r]; r++)
		if ((fd = debugfile__try_build_id(w, false, w->roots[r], id, len, hex)) >= 0)
			return fd;
	return -ENOENT;
}

/* @path if its CRC-32 is @crc (read up to the size it had when opened). */
static int debugfile__try_link(struct debugfile_where *w, bool in_root, const char *path,
			       uint32_t crc)
{
	uint32_t got;
	int fd;

	if (debugfile__candidate(w, in_root, path, &fd))
		return -ENOENT;
	if (!debugfile__crc(fd, &got) && got == crc)
		return fd;
	close(fd);
	return -ENOENT;
}

static int debugfile__by_link(int fd, struct debugfile_where *w)
{
	char name[NAME_MAX + 1], dir[PATH_MAX], cand[2 * PATH_MAX + 16];
	bool in_root = w->root_fd >= 0;
	const char *slash, *path = w->path;
	uint32_t crc;
	int dfd;

	if (!path || debugfile__link(fd, name, sizeof(name), &crc))
		return -ENOENT;
	slash = strrchr(path, '/');
	if (!slash)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	/* beside the binary and in .debug/: where the binary is (a container's root) */
	snprintf(cand, sizeof(cand), "%s/%s", dir, name);
	if (strcmp(cand, path) && (dfd = debugfile__try_link(w, in_root, cand, crc)) >= 0)
		return dfd;
	snprintf(cand, sizeof(cand), "%s/.debug/%s", dir, name);
	if ((dfd = debugfile__try_link(w, in_root, cand, crc)) >= 0)
		return dfd;
	snprintf(cand, sizeof(cand), "%s%s/%s", DEBUGFILE_ROOT, dir, name);
	if (in_root && (dfd = debugfile__try_link(w, true, cand, crc)) >= 0)
		return dfd;
	for (size_t r = 0; w->roots[r]; r++) {
		snprintf(cand, sizeof(cand), "%s%s/%s", w->roots[r], dir, name);
		if ((dfd = debugfile__try_link(w, false, cand, crc)) >= 0)
			return dfd;
	}
	return -ENOENT;
}

int debugfile__open(int fd, const uint8_t *id, size_t len, struct debugfile_where *w)
{
	int dfd = debugfile__by_build_id(id, len, w);

	return dfd >= 0 ? dfd : debugfile__by_link(fd, w);
}

/*
 * A stop signal: the flag a handler sets, or one waiting, blocked
 * (stopsig.h), for the caller to read between calls (bpfprof while it
 * samples), which it must get to. A handled one is never pending.
 */
static bool debugfile__stopped(const volatile sig_atomic_t *stop)
{
	return (stop && *stop) || stopsig__pending();
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
	return debugfile__stopped(stop);
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
	if (debugfile__stopped(stop))
		return -EINTR;
	debuginfod_set_user_data(client, (void *)stop);
	fd = debuginfod_find_debuginfo(client, id, len, NULL);
	if (fd < 0 && debugfile__stopped(stop)) {
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
