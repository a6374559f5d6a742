// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildid.h"
#include "debugfile.h"

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

int debugfile__link(int fd, char *name, size_t size, uint32_t *crc)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int err = -ENOENT;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -ENOENT;
	if (elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *sname;
		size_t len;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".gnu_debuglink"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < 8)
			break;
		/* name, NUL, padding to 4, then a 4-byte CRC */
		len = strnlen(d->d_buf, d->d_size);
		if (len == 0 || len >= size || ((len + 4) & ~3u) + 4 > d->d_size)
			break;
		memcpy(name, d->d_buf, len + 1);
		memcpy(crc, (const char *)d->d_buf + ((len + 4) & ~3u), sizeof(*crc));
		err = 0;
		break;
	}
out:
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
