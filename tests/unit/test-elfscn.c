// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The section walk: every section binutils' readelf -S lists, in order, with
 * its header and name; "" for a name that does not read (the walk goes on);
 * nothing at all from a file that is not ELF. The walk without names: the
 * same sections, also in a file whose section name table is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "elfscn.h"

#define MAX_SCN 128

/* Section names by index from readelf -SW (index 0 left out); the count, or -1. */
static int readelf_names(const char *path, char names[MAX_SCN][64])
{
	char cmd[4096], line[1024], name[64];
	int nr = 0;
	unsigned int idx;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "readelf -SW '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " [%u] %63s", &idx, name) == 2 && idx && idx < MAX_SCN &&
		    idx == (unsigned int)nr + 1)
			strcpy(names[nr++], name);
	}
	return pclose(f) ? -1 : nr;
}

static Elf *open_elf(const char *path, int flags, Elf_Cmd cmd, int *fd)
{
	*fd = open(path, flags);
	return *fd < 0 ? NULL : elf_begin(*fd, cmd, NULL);
}

static void close_elf(Elf *elf, int fd)
{
	elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static void test_like_readelf(const char *path)
{
	char want[MAX_SCN][64];
	int fd, nr = readelf_names(path, want), i = 0, same = 1;
	Elf *elf = open_elf(path, O_RDONLY, ELF_C_READ_MMAP, &fd);
	bool text = false;
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;

	if (nr <= 0) {
		CHECK(1, "readelf -S # SKIP no readelf");
		close_elf(elf, fd);
		return;
	}
	CHECK(elf, "%s opens", path);
	while (elf && (scn = elf_scn__next(elf, scn, &sh, &name))) {
		if (i >= nr || elf_ndxscn(scn) != (size_t)i + 1 || strcmp(name, want[i]))
			same = 0;
		if (!strcmp(name, ".text"))
			text = sh.sh_type == SHT_PROGBITS &&
			       (sh.sh_flags & SHF_EXECINSTR);
		i++;
	}
	CHECK(same && i == nr, "every section readelf lists, in order (%d of %d)", i, nr);
	CHECK(text, ".text comes with its header (PROGBITS, executable)");
	close_elf(elf, fd);
}

/* Section 1's sh_name pointed past the section name table in a copy of @path. */
static int break_name(const char *path, const char *copy)
{
	char cmd[8192];
	Elf_Scn *scn;
	GElf_Shdr sh;
	int fd, err = -1;
	Elf *elf;

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, copy);
	if (system(cmd))
		return -1;
	elf = open_elf(copy, O_RDWR, ELF_C_RDWR, &fd);
	scn = elf ? elf_getscn(elf, 1) : NULL;
	if (scn && gelf_getshdr(scn, &sh)) {
		sh.sh_name = 0x7fffffff;
		elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
		if (gelf_update_shdr(scn, &sh) && elf_update(elf, ELF_C_WRITE) >= 0)
			err = 0;
	}
	close_elf(elf, fd);
	return err;
}

static void test_bad_name(const char *path)
{
	char copy[] = "/tmp/bpfprof-elfscn-XXXXXX";
	int fd = mkstemp(copy), nr = 0, first_empty = 0;
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;
	Elf *elf;

	if (fd >= 0)
		close(fd);
	CHECK(fd >= 0 && !break_name(path, copy), "a copy with a broken name");
	elf = open_elf(copy, O_RDONLY, ELF_C_READ_MMAP, &fd);
	while (elf && (scn = elf_scn__next(elf, scn, &sh, &name))) {
		if (++nr == 1)
			first_empty = name && !*name;
	}
	CHECK(first_empty, "the broken name reads as \"\"");
	CHECK(nr > 1, "the walk goes on past it (%d sections)", nr);
	close_elf(elf, fd);
	unlink(copy);
}

/*
 * Walk @path by headers alongside the walk by names: the number of sections
 * the first gives, whether it gives the same sections (index and type) as the
 * second, and whether it finds .text's header (PROGBITS, executable) by type.
 */
static int walk_headers(const char *path, bool *same, bool *exec)
{
	Elf_Scn *scn = NULL, *named = NULL;
	int fd, nr = 0;
	Elf *elf = open_elf(path, O_RDONLY, ELF_C_READ_MMAP, &fd);
	const char *name;
	GElf_Shdr sh, sh_named;

	*same = elf != NULL;
	*exec = false;
	while (elf && (scn = elf_scn__next_header(elf, scn, &sh))) {
		named = elf_scn__next(elf, named, &sh_named, &name);
		if (!named || named != scn || sh.sh_type != sh_named.sh_type)
			*same = false;
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR))
			*exec = true;
		nr++;
	}
	close_elf(elf, fd);
	return nr;
}

/* A copy of @path whose ELF header names no section name table. */
static int drop_shstrndx(const char *path, const char *copy)
{
	char cmd[8192];
	Elf64_Ehdr eh;
	int fd, err = -1;

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, copy);
	if (system(cmd))
		return -1;
	fd = open(copy, O_RDWR);
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && eh.e_ident[EI_CLASS] == ELFCLASS64) {
		eh.e_shstrndx = SHN_UNDEF;
		if (pwrite(fd, &eh, sizeof(eh), 0) == sizeof(eh))
			err = 0;
	}
	close(fd);
	return err;
}

static void test_headers(const char *path)
{
	char want[MAX_SCN][64], copy[] = "/tmp/bpfprof-elfscn-XXXXXX";
	int fd = mkstemp(copy), nr = readelf_names(path, want), got, named = 0;
	bool same, exec, all_empty = true;
	Elf_Scn *scn = NULL;
	const char *name;
	GElf_Shdr sh;
	Elf *elf;

	got = walk_headers(path, &same, &exec);
	CHECK(nr <= 0 || got == nr, "headers: every section readelf lists (%d of %d)", got, nr);
	CHECK(same, "headers: the sections the walk by names gives, in order");
	CHECK(exec, "headers: .text found by its type");

	if (fd >= 0)
		close(fd);
	CHECK(fd >= 0 && !drop_shstrndx(path, copy), "a copy without a section name table");
	got = walk_headers(copy, &same, &exec);
	CHECK(nr <= 0 || got == nr, "no name table: every section still (%d of %d)", got, nr);
	CHECK(exec, "no name table: .text still found by its type");
	elf = open_elf(copy, O_RDONLY, ELF_C_READ_MMAP, &fd);
	while (elf && (scn = elf_scn__next(elf, scn, &sh, &name))) {
		all_empty = all_empty && !*name;
		named++;
	}
	CHECK(all_empty, "no name table: the walk by names has no names (%d sections)", named);
	close_elf(elf, fd);
	unlink(copy);
}

static void test_not_elf(const char *path)
{
	int fd;
	Elf *elf = open_elf(path, O_RDONLY, ELF_C_READ_MMAP, &fd);
	const char *name = NULL;
	GElf_Shdr sh;

	CHECK(elf && !elf_scn__next(elf, NULL, &sh, &name) && !name,
	      "no sections in a text file");
	CHECK(elf && !elf_scn__next_header(elf, NULL, &sh), "no headers in a text file");
	close_elf(elf, fd);
}

/* Is a copy of @zdebug whose first compressed section claims @claim bytes bounded? */
static int unpack_bounded_claiming(const char *zdebug, uint64_t claim, uint64_t *size)
{
	char path[] = "/tmp/test-elfscn-XXXXXX", cmd[4096];
	int fd = mkstemp(path), ret = -1;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", zdebug, path);
	elf = system(cmd) ? NULL : open_elf(path, O_RDWR, ELF_C_READ, &fd);
	while (elf && (scn = elf_scn__next_header(elf, scn, &sh)))
		if (sh.sh_flags & SHF_COMPRESSED)
			break;
	/* Elf64_Chdr: ch_type, ch_reserved, then ch_size */
	if (scn && (!claim || pwrite(fd, &claim, 8, sh.sh_offset + 8) == 8)) {
		close_elf(elf, fd);
		elf = open_elf(path, O_RDONLY, ELF_C_READ, &fd);
		ret = elf ? elf_scn__unpack_bounded(elf) : -1;
		*size = sh.sh_size;
	}
	close_elf(elf, fd);
	unlink(path);
	return ret;
}

static void test_unpack_bounded(const char *zdebug)
{
	uint64_t size = 0;

	CHECK(unpack_bounded_claiming(zdebug, 0, &size) == 0 && size,
	      "compressed .debug_frame as objcopy wrote it: bounded");
	CHECK(unpack_bounded_claiming(zdebug, size * 10, &size) == 0,
	      "claiming 10 times its size: bounded");
	CHECK(unpack_bounded_claiming(zdebug, size * (ELF_SCN_UNPACK_RATIO + 1), &size) == -EFBIG,
	      "claiming %d times its size: -EFBIG", ELF_SCN_UNPACK_RATIO + 1);
	CHECK(unpack_bounded_claiming(zdebug, 1ull << 40, &size) == -EFBIG,
	      "claiming 1 TiB: -EFBIG");
}

int main(void)
{
	const char *exe = getenv("FIXTURE_EXE"), *txt = getenv("FIXTURE_KALLSYMS");

	if (!exe || !txt) {
		printf("Bail out! fixtures missing (run through meson test)\n");
		return 1;
	}
	elf_version(EV_CURRENT);
	test_like_readelf(exe);
	test_bad_name(exe);
	test_headers(exe);
	test_not_elf(txt);
	if (getenv("FIXTURE_CFI_DEBUGFRAME_ZDEBUG"))
		test_unpack_bounded(getenv("FIXTURE_CFI_DEBUGFRAME_ZDEBUG"));
	return check_done();
}
