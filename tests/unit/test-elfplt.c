/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * PLT stubs in elfsymtab' tables, against the layout GNU ld gives them,
 * computed here by index (elfplt.c decodes each stub's jmp instead): stub
 * i of .plt.sec, or of .plt after its 16-byte header, is relocation i of
 * .rela.plt. The gcc fixtures: a plain lazy PLT (cfi-fixture), an IBT one
 * with .plt.sec (cfi-fixture-ibt), a stripped PIE (elf-fixture-stripped),
 * and a debug file whose PLT sections have no contents.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "elfsymtab.h"

#define STUB 16

struct sec {
	uint64_t addr;
	uint64_t size;
};

/* The PLT layout of one file, read with libelf. */
struct layout {
	struct sec plt, plt_sec, plt_got;
	char *names[64]; /* .rela.plt's symbols, in order */
	size_t nr;
};

static const char *env(const char *name)
{
	const char *v = getenv(name);

	if (!v)
		printf("# %s not set: run through meson test\n", name);
	return v;
}

static void layout__free(struct layout *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->names[i]);
}

/* .rela.plt's entries' symbol names, through its linked .dynsym. */
static void layout__rela_plt(struct layout *l, Elf *elf, Elf_Scn *scn,
			     const GElf_Shdr *sh)
{
	Elf_Scn *sym_scn = elf_getscn(elf, sh->sh_link);
	Elf_Data *data = elf_getdata(scn, NULL), *syms;
	GElf_Shdr sym_sh;
	size_t i;

	if (!data || !sym_scn || !gelf_getshdr(sym_scn, &sym_sh))
		return;
	syms = elf_getdata(sym_scn, NULL);
	for (i = 0; syms && i < data->d_size / sh->sh_entsize && l->nr < 64; i++) {
		GElf_Rela r;
		GElf_Sym s;

		if (!gelf_getrela(data, i, &r) ||
		    !gelf_getsym(syms, GELF_R_SYM(r.r_info), &s))
			continue;
		l->names[l->nr++] = strdup(elf_strptr(elf, sym_sh.sh_link, s.st_name));
	}
}

static int layout__read(struct layout *l, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;

	memset(l, 0, sizeof(*l));
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		close(fd);
		return -EIO;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		struct sec *s = NULL;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".rela.plt"))
			layout__rela_plt(l, elf, scn, &sh);
		else if (!strcmp(name, ".plt"))
			s = &l->plt;
		else if (!strcmp(name, ".plt.sec"))
			s = &l->plt_sec;
		else if (!strcmp(name, ".plt.got"))
			s = &l->plt_got;
		if (s)
			*s = (struct sec){ .addr = sh.sh_addr, .size = sh.sh_size };
	}
	elf_end(elf);
	close(fd);
	return 0;
}

static struct elf_symtab *load_path(const char *path)
{
	struct elf_symtab *tab;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	tab = elf_symtab__load_fd(fd);
	close(fd);
	return tab;
}

/* @vaddr is @off bytes into a symbol named @want. */
static void check_at(const struct elf_symtab *tab, uint64_t vaddr, const char *want,
		     uint64_t off, const char *what)
{
	uint64_t got_off = ~0ULL;
	const char *name = elf_symtab__lookup(tab, vaddr, &got_off);

	CHECK_STR(name, want, "%s: 0x%lx is %s", what, (unsigned long)vaddr, want);
	CHECK(got_off == off, "%s: 0x%lx is %lu bytes into it (%lu)", what,
	      (unsigned long)vaddr, (unsigned long)off, (unsigned long)got_off);
}

/* Found by name (bpfprof range BINARY:NAME@plt): the stub, all of it. */
static void check_find(const char *path, const char *name, uint64_t vaddr, const char *what)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct elf_func f;
	int err = fd < 0 ? -errno : elf_symtab__find_fd(fd, name, &f);

	CHECK(!err && f.start == vaddr && f.end == vaddr + STUB && f.nr == 1,
	      "%s: find %s: [0x%lx, 0x%lx) (%d)", what, name, (unsigned long)vaddr,
	      (unsigned long)(vaddr + STUB), err);
	if (fd >= 0)
		close(fd);
}

static void test_file(const char *var, bool ibt)
{
	const char *path = env(var);
	struct elf_symtab *tab;
	struct layout l;
	uint64_t first, end;
	char want[128];

	if (!path || layout__read(&l, path)) {
		CHECK(0, "%s: read its sections", var);
		return;
	}
	CHECK(l.nr >= 2, "%s: %zu .rela.plt entries", var, l.nr);
	CHECK(!!l.plt_sec.size == ibt, "%s: %s .plt.sec", var, ibt ? "a" : "no");
	tab = load_path(path);
	CHECK(tab != NULL, "%s: loaded", var);
	if (!tab || !l.plt.size) {
		layout__free(&l);
		elf_symtab__free(tab);
		return;
	}
	/* the header; beside a .plt.sec, all of .plt */
	check_at(tab, l.plt.addr, ".plt", 0, var);
	check_at(tab, l.plt.addr + STUB - 1, ".plt", STUB - 1, var);
	if (ibt)
		check_at(tab, l.plt.addr + l.plt.size - 1, ".plt", l.plt.size - 1, var);
	first = ibt ? l.plt_sec.addr : l.plt.addr + STUB;
	for (size_t i = 0; i < l.nr; i++) {
		snprintf(want, sizeof(want), "%s@plt", l.names[i]);
		check_at(tab, first + i * STUB, want, 0, var);
		check_at(tab, first + i * STUB + STUB - 1, want, STUB - 1, var);
		check_find(path, want, first + i * STUB, var);
	}
	/* a function without a stub has no NAME@plt, nor a stub a plain name */
	{
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		struct elf_func f;

		CHECK(fd >= 0 && elf_symtab__find_fd(fd, "main@plt", &f) == -ENOENT,
		      "%s: main@plt is no stub", var);
		CHECK(fd >= 0 && elf_symtab__find_fd(fd, "@plt", &f) == -ENOENT,
		      "%s: @plt alone names nothing", var);
		if (fd >= 0)
			close(fd);
	}
	/* gcc's PIEs call __cxa_finalize through .plt.got (a GLOB_DAT slot) */
	if (l.plt_got.size)
		check_at(tab, l.plt_got.addr, "__cxa_finalize@plt", 0, var);
	/* nothing past the last stub is one */
	end = ibt ? l.plt_sec.addr + l.plt_sec.size : l.plt.addr + l.plt.size;
	if (!l.plt_got.size || l.plt_got.addr != end) {
		const char *name = elf_symtab__lookup(tab, end, NULL);

		CHECK(!name || !strstr(name, "@plt"),
		      "%s: 0x%lx after the stubs is no stub (%s)", var,
		      (unsigned long)end, name ? name : "NULL");
	}
	layout__free(&l);
	elf_symtab__free(tab);
}

/* A debug file's PLT sections are NOBITS: no stubs, and nothing read from them. */
static void test_debug_file(void)
{
	const char *exe = env("FIXTURE_EXE_BUILDID"), *dbg = env("FIXTURE_DEBUG");
	struct elf_symtab *tab;
	struct layout l;
	const char *name;

	if (!exe || !dbg || layout__read(&l, exe)) {
		CHECK(0, "debug file: fixtures");
		return;
	}
	tab = load_path(dbg);
	CHECK(tab != NULL, "debug file: loaded");
	name = tab ? elf_symtab__lookup(tab, l.plt.addr + STUB, NULL) : NULL;
	CHECK(!name, "debug file: its PLT is not named (%s)", name ? name : "NULL");
	layout__free(&l);
	elf_symtab__free(tab);
}

int main(void)
{
	test_file("FIXTURE_CFI", false);
	test_file("FIXTURE_CFI_IBT", true);
	test_file("FIXTURE_EXE_STRIPPED", false);
	test_debug_file();
	return check_done();
}
