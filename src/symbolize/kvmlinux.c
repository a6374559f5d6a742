// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "array.h"
#include "buildid.h"
#include "elfopen.h"
#include "infile.h"
#include "elfscn.h"
#include "kvmlinux.h"

#define KERNEL_NOTES "/sys/kernel/notes"
#define NOTES_MAX 65536

struct kvmlinux {
	int fd;
	struct srcinfo *si;
	uint64_t offset; /* running address - ELF address */
};

int kvmlinux__kernel_build_id(const char *notes, uint8_t *id, size_t size)
{
	uint8_t *buf = malloc(NOTES_MAX);
	size_t len = 0;
	int fd, ret;

	if (!buf)
		return -ENOMEM;
	ret = infile__open(notes, &fd);
	if (ret) {
		free(buf);
		return ret;
	}
	/* a sysfs file: its size is what read returns */
	while (len < NOTES_MAX) {
		ssize_t n = read(fd, buf + len, NOTES_MAX - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	ret = buildid__from_notes(buf, len, id, size);
	free(buf);
	return ret;
}

/* The ELF file at @fd has DWARF: a .debug_info section with contents. */
static bool elf__has_dwarf(int fd)
{
	Elf *elf = elf_open__fd(fd);
	Elf_Scn *scn = NULL;
	bool found = false;
	const char *name;
	GElf_Shdr sh;

	if (!elf)
		return false;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return false;
	}
	while (!found && (scn = elf_scn__next(elf, scn, &sh, &name)))
		found = sh.sh_type != SHT_NOBITS && sh.sh_size &&
			!strcmp(name, ".debug_info");
	elf_end(elf);
	return found;
}

/* The file at @path if its build-id is @id and it has DWARF: its fd, else -ENOENT. */
static int vmlinux__try(const char *path, const uint8_t *id, size_t len)
{
	uint8_t got[BUILD_ID_MAX];
	int fd, n;

	if (infile__open(path, &fd))
		return -ENOENT;
	n = buildid__read_fd(fd, got, sizeof(got));
	if (n > 0 && (size_t)n == len && !memcmp(got, id, len) && elf__has_dwarf(fd))
		return fd;
	close(fd);
	return -ENOENT;
}

/* vmlinux__try on the path @fmt makes. */
__attribute__((format(printf, 3, 4)))
static int vmlinux__tryf(const uint8_t *id, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENOENT;
	return vmlinux__try(path, id, len);
}

int kvmlinux__find(const char *const *roots, const char *release, const uint8_t *id,
		   size_t len)
{
	static const char *const default_roots[] = { "/usr/lib/debug", NULL };
	char hex[2 * BUILD_ID_MAX + 1];
	int fd;

	/* An unknown build-id matches nothing: a wrong vmlinux gives wrong lines. */
	if (!len || len > BUILD_ID_MAX || !release)
		return -ENOENT;
	buildid__hex(id, len, hex);
	for (const char *const *r = roots ? roots : default_roots; *r; r++) {
		fd = vmlinux__tryf(id, len, "%s/.build-id/%.2s/%s.debug", *r, hex,
				   hex + 2);
		if (fd < 0)
			fd = vmlinux__tryf(id, len, "%s/boot/vmlinux-%s", *r, release);
		if (fd < 0)
			fd = vmlinux__tryf(id, len, "%s/lib/modules/%s/vmlinux", *r,
					   release);
		if (fd >= 0)
			return fd;
	}
	/* a kernel built in place, and what some distributions leave in /boot */
	fd = vmlinux__tryf(id, len, "/lib/modules/%s/build/vmlinux", release);
	if (fd < 0)
		fd = vmlinux__tryf(id, len, "/boot/vmlinux-%s", release);
	return fd;
}

/* @name in the symbol tables of @elf (.symtab, then .dynsym). */
static int elf__symbol(Elf *elf, const char *name, uint64_t *value)
{
	static const Elf64_Word types[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t t = 0; t < ARRAY_SIZE(types); t++) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;

		while ((scn = elf_scn__next_header(elf, scn, &sh))) {
			Elf_Data *data;
			size_t n;

			if (sh.sh_type != types[t] || !sh.sh_entsize)
				continue;
			data = elf_getdata(scn, NULL);
			if (!data)
				continue;
			n = sh.sh_size / sh.sh_entsize;
			for (size_t i = 1; i < n; i++) {
				const char *s;
				GElf_Sym sym;

				if (!gelf_getsym(data, i, &sym) ||
				    sym.st_shndx == SHN_UNDEF)
					continue;
				s = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (s && !strcmp(s, name)) {
					*value = sym.st_value;
					return 0;
				}
			}
		}
	}
	return -ENOENT;
}

int kvmlinux__symbol(int fd, const char *name, uint64_t *value)
{
	Elf *elf = elf_open__fd(fd);
	int ret;

	if (!elf)
		return -ENOEXEC;
	ret = elf_kind(elf) == ELF_K_ELF ? elf__symbol(elf, name, value) : -ENOEXEC;
	elf_end(elf);
	return ret;
}

struct kvmlinux *kvmlinux__new(int fd, uint64_t offset)
{
	struct kvmlinux *k = calloc(1, sizeof(*k));
	int err;

	if (!k) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	k->si = srcinfo__open(fd);
	if (!k->si) {
		err = errno;
		free(k);
		close(fd);
		errno = err;
		return NULL;
	}
	k->fd = fd;
	k->offset = offset;
	return k;
}

struct kvmlinux *kvmlinux__open(const struct ksyms *ks, const char *const *roots)
{
	static const char *const anchors[] = { "_stext", "_text" };
	uint8_t id[BUILD_ID_MAX];
	struct utsname u;
	int fd, len;

	/* Without the kernel's build-id no file can be told to be its vmlinux. */
	len = kvmlinux__kernel_build_id(KERNEL_NOTES, id, sizeof(id));
	if (len <= 0 || uname(&u)) {
		errno = ENOENT;
		return NULL;
	}
	fd = kvmlinux__find(roots, u.release, id, len);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(anchors); i++) {
		const struct ksym *sym = ksyms__find(ks, anchors[i]);
		uint64_t value;

		if (sym && !kvmlinux__symbol(fd, anchors[i], &value))
			return kvmlinux__new(fd, sym->addr - value);
	}
	close(fd);
	errno = ENOENT;
	return NULL;
}

void kvmlinux__free(struct kvmlinux *k)
{
	if (!k)
		return;
	srcinfo__free(k->si);
	close(k->fd);
	free(k);
}

int kvmlinux__lookup(struct kvmlinux *k, uint64_t kaddr, bool inlines, bool lines,
		     struct src_frames *out)
{
	return srcinfo__lookup(k->si, kaddr - k->offset, inlines, lines, out);
}
