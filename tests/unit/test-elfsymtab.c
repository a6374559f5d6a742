/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * elfsymtab against addresses known without reading any symbol table: the
 * fixture executable prints where its functions are at run time; the
 * fixture library, libc and the vDSO are loaded into this process and
 * found with dlsym, their file offsets through /proc/self/maps.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "../fixtures/maps-offset.h"
#include "elfsymtab.h"

struct fx_entry {
	char name[64];
	uint64_t off;
	uint64_t vaddr;
};

#define FX_MAX 32

static const char *env(const char *name)
{
	const char *v = getenv(name);

	if (!v)
		printf("# %s not set: run through meson test\n", name);
	return v;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Load through a descriptor closed right away: the table must not need it. */
static struct elf_symtab *load_path(const char *path, double *ms)
{
	struct elf_symtab *tab;
	double t0 = now_ms();
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	tab = elf_symtab__load_fd(fd);
	close(fd);
	if (ms)
		*ms = now_ms() - t0;
	return tab;
}

static void *file_read(const char *path, size_t *size)
{
	struct stat st;
	void *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		buf = malloc(st.st_size);
		if (buf && read(fd, buf, st.st_size) != st.st_size) {
			free(buf);
			buf = NULL;
		}
		*size = st.st_size;
	}
	close(fd);
	return buf;
}

/* Run the fixture executable and read its "NAME OFFSET VADDR" lines. */
static size_t fixture_run(const char *path, struct fx_entry *e, size_t max)
{
	char cmd[4096];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s'", path);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (n < max && fscanf(f, "%63s %" SCNx64 " %" SCNx64, e[n].name, &e[n].off,
				 &e[n].vaddr) == 3)
		n++;
	if (pclose(f) != 0)
		return 0;
	return n;
}

static const struct fx_entry *fx_find(const struct fx_entry *e, size_t n,
				      const char *name)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(e[i].name, name))
			return &e[i];
	}
	return NULL;
}

static int is_data(const struct fx_entry *e)
{
	return !strcmp(e->name, "fx_data_var");
}

/* Every entry: offset -> vaddr as the running process saw it, name, +1. */
static void check_entries(const struct elf_symtab *tab, const struct fx_entry *e,
			  size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 0, off = 99;
		const char *name;

		CHECK(elf_symtab__off_to_vaddr(tab, e[i].off, &v) == 0 && v == e[i].vaddr,
		      "%s: offset 0x%" PRIx64 " of %s -> vaddr 0x%" PRIx64, what,
		      e[i].off, e[i].name, e[i].vaddr);
		if (is_data(&e[i])) {
			CHECK(!elf_symtab__lookup(tab, e[i].vaddr, NULL),
			      "%s: data object %s is in no function", what, e[i].name);
			continue;
		}
		name = elf_symtab__lookup(tab, e[i].vaddr, &off);
		CHECK_STR(name, e[i].name, "%s: lookup of %s's start", what, e[i].name);
		CHECK(off == 0, "%s: %s at offset 0", what, e[i].name);
		name = elf_symtab__lookup(tab, e[i].vaddr + 1, &off);
		CHECK_STR(name, e[i].name, "%s: lookup inside %s", what, e[i].name);
		CHECK(off == 1, "%s: %s+1 at offset 1", what, e[i].name);
	}
}

/* fx_e_global (.size 4) has a weak alias fx_e_weak (.size 8), then a gap. */
static void check_alias_sizes(const struct elf_symtab *tab, const struct fx_entry *e)
{
	uint64_t off = 0;

	if (!e) {
		CHECK(0, "fixture printed fx_e_global");
		return;
	}
	CHECK_STR(elf_symtab__lookup(tab, e->vaddr + 7, &off), "fx_e_global",
		  "the larger size of an alias counts, under the preferred name");
	CHECK(off == 7, "fx_e_global+7 at offset 7");
	CHECK(!elf_symtab__lookup(tab, e->vaddr + 8, NULL),
	      "past the largest alias size");
}

/* The hand-laid-out functions: sizes and gaps (see tests/fixtures/elf-fixture.c). */
static void check_layout(const struct elf_symtab *tab, const struct fx_entry *e, size_t n)
{
	const struct fx_entry *sized = fx_find(e, n, "fx_sized");
	const struct fx_entry *after = fx_find(e, n, "fx_after");
	const struct fx_entry *unsized = fx_find(e, n, "fx_unsized");
	const struct fx_entry *unsized_end = fx_find(e, n, "fx_unsized_end");
	uint64_t off = 0;

	if (!sized || !after || !unsized || !unsized_end) {
		CHECK(0, "fixture printed the layout functions");
		return;
	}
	CHECK(after->vaddr == sized->vaddr + 16, "fx_after is 16 bytes after fx_sized");
	CHECK_STR(elf_symtab__lookup(tab, sized->vaddr + 3, &off), "fx_sized",
		  "last byte of 4-byte fx_sized");
	CHECK(off == 3, "fx_sized+3 at offset 3");
	CHECK(!elf_symtab__lookup(tab, sized->vaddr + 4, NULL),
	      "byte after fx_sized's st_size is in no function");
	CHECK(!elf_symtab__lookup(tab, sized->vaddr + 15, NULL),
	      "end of the gap after fx_sized is in no function");
	CHECK(unsized_end->vaddr == unsized->vaddr + 32, "fx_unsized is 32 bytes long");
	CHECK_STR(elf_symtab__lookup(tab, unsized->vaddr + 31, &off), "fx_unsized",
		  "st_size 0 covers up to the next symbol");
	CHECK(off == 31, "fx_unsized+31 at offset 31");
	check_alias_sizes(tab, fx_find(e, n, "fx_e_global"));
}

static void test_exe(const struct fx_entry *e, size_t n)
{
	const char *path = env("FIXTURE_EXE");
	struct elf_symtab *tab = path ? load_path(path, NULL) : NULL;
	uint64_t v;

	CHECK(tab != NULL, "load the fixture executable");
	if (!tab)
		return;
	check_entries(tab, e, n, "exe");
	check_layout(tab, e, n);
	CHECK(elf_symtab__off_to_vaddr(tab, 1ull << 40, &v) == -ENOENT,
	      "offset past every segment -> -ENOENT");
	CHECK(!elf_symtab__lookup(tab, 0, NULL), "address 0 is in no function");
	elf_symtab__free(tab);
}

/* vaddr -> offset is the inverse of offset -> vaddr, on every entry. */
static void check_vaddr_to_off(const struct elf_symtab *tab, const struct fx_entry *e,
			       size_t n)
{
	uint64_t off;
	size_t i;

	for (i = 0; i < n; i++) {
		off = 0;
		CHECK(elf_symtab__vaddr_to_off(tab, e[i].vaddr, &off) == 0 && off == e[i].off,
		      "vaddr 0x%" PRIx64 " of %s -> offset 0x%" PRIx64, e[i].vaddr, e[i].name,
		      e[i].off);
	}
	CHECK(elf_symtab__vaddr_to_off(tab, 1ull << 40, &off) == -ENOENT,
	      "vaddr past every segment -> -ENOENT");
}

/* find_object_fd (bpfprof watch): a data symbol with its size, a function, an unknown name. */
static void check_find_object(int fd, const struct fx_entry *e, size_t n)
{
	const struct fx_entry *d = fx_find(e, n, "fx_data_var");
	const struct fx_entry *g = fx_find(e, n, "fx_e_global");
	struct elf_object o;

	if (!d || !g) {
		CHECK(0, "fixture printed fx_data_var and fx_e_global");
		return;
	}
	CHECK(!elf_symtab__find_object_fd(fd, "fx_data_var", &o) && o.addr == d->vaddr &&
		      o.size == sizeof(int) && o.data && !o.tls,
	      "find object fx_data_var: data, 4 bytes, at its address");
	CHECK(!elf_symtab__find_object_fd(fd, "fx_e_global", &o) && o.addr == g->vaddr &&
		      !o.data,
	      "find object fx_e_global: found, and not data");
	CHECK(elf_symtab__find_object_fd(fd, "fx_no_such_var", &o) == -ENOENT,
	      "find object: an unknown name -> -ENOENT");
	CHECK(elf_symtab__find_object_fd(-1, "fx_data_var", &o) == -EBADF,
	      "find object: no file -> -EBADF");
}

/* find_fd by name: every name of an alias group, sizes, unsized, ambiguity. */
static void check_find(int fd, const struct fx_entry *e, size_t n)
{
	static const char *const names[] = { "fx_a_l", "fx_a_weak",
					     "fx_a_global_with_the_longest_name" };
	const struct fx_entry *a = fx_find(e, n, "fx_a_global_with_the_longest_name");
	const struct fx_entry *u = fx_find(e, n, "fx_unsized");
	const struct fx_entry *g = fx_find(e, n, "fx_e_global");
	struct elf_func f;
	size_t i;

	if (!a || !u || !g) {
		CHECK(0, "fixture printed the functions find needs");
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK(!elf_symtab__find_fd(fd, names[i], &f) && f.start == a->vaddr &&
			      f.end == a->vaddr + 16 && f.nr == 1 && !f.ifunc,
		      "find %s: the alias group's 16 bytes", names[i]);
	CHECK(!elf_symtab__find_fd(fd, "fx_unsized", &f) && f.start == u->vaddr &&
		      f.end == u->vaddr + 32,
	      "find fx_unsized: up to the next symbol");
	CHECK(!elf_symtab__find_fd(fd, "fx_e_global", &f) && f.start == g->vaddr &&
		      f.end == g->vaddr + 8,
	      "find fx_e_global: the largest size of its aliases");
	CHECK(elf_symtab__find_fd(fd, "fx_no_such_function", &f) == -ENOENT,
	      "an unknown name -> -ENOENT");
	CHECK(elf_symtab__find_fd(fd, "fx_data_var", &f) == -ENOENT,
	      "a data object is not a function");
	CHECK(elf_symtab__find_fd(fd, "fx_unsize", &f) == -ENOENT,
	      "a prefix of a name is not the name");
	check_find_object(fd, e, n);
}

static void test_find(const struct fx_entry *e, size_t n)
{
	const char *path = env("FIXTURE_EXE");
	struct elf_symtab *tab = path ? load_path(path, NULL) : NULL;
	const struct fx_entry *sized = fx_find(e, n, "fx_sized");
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct elf_func f = { 0 };

	CHECK(tab && fd >= 0, "open the fixture executable");
	if (!tab || fd < 0 || !sized)
		goto out;
	check_vaddr_to_off(tab, e, n);
	check_find(fd, e, n);
	CHECK_STR(elf_symtab__lookup_func(tab, sized->vaddr + 2, &f), "fx_sized",
		  "lookup_func inside fx_sized");
	CHECK(f.start == sized->vaddr && f.end == sized->vaddr + 4,
	      "lookup_func: fx_sized's bounds");
	CHECK(!elf_symtab__lookup_func(tab, sized->vaddr + 4, &f),
	      "lookup_func past fx_sized's size: none");
	CHECK(elf_symtab__find_fd(-1, "main", &f) == -EBADF, "find without a file: -EBADF");
	CHECK(elf_symtab__find_mem("\177ELF", 0, "main", &f) == -ENOEXEC,
	      "find in an empty image: -ENOEXEC");
out:
	if (fd >= 0)
		close(fd);
	elf_symtab__free(tab);
}

static void test_exe_mem(const struct fx_entry *e, size_t n)
{
	const char *path = env("FIXTURE_EXE");
	struct elf_symtab *tab = NULL, *ftab;
	size_t size = 0;
	void *image = path ? file_read(path, &size) : NULL;

	if (image)
		tab = elf_symtab__load_mem(image, size);
	CHECK(tab != NULL, "load the fixture executable from memory");
	if (!tab) {
		free(image);
		return;
	}
	check_entries(tab, e, n, "mem");
	ftab = load_path(path, NULL);
	CHECK(ftab && elf_symtab__count(ftab) == elf_symtab__count(tab),
	      "same count from memory and from the file");
	elf_symtab__free(ftab);
	elf_symtab__free(tab);
	free(image);
}

static void test_stripped(const struct fx_entry *e, size_t n)
{
	static const char *const exported[] = {
		"fx_sized",	  "fx_a_global_with_the_longest_name",
		"fx_b_weak_name", "fx_c_aa",
		"fx_c_function",  "main",
	};
	const char *path = env("FIXTURE_EXE_STRIPPED"), *full_path = env("FIXTURE_EXE");
	struct elf_symtab *tab = path ? load_path(path, NULL) : NULL;
	struct elf_symtab *full = full_path ? load_path(full_path, NULL) : NULL;
	const struct fx_entry *local = fx_find(e, n, "fx_d_local");
	const struct fx_entry *stat = fx_find(e, n, "fx_static_function");
	const char *name;
	size_t i;

	CHECK(tab && full, "load the stripped fixture (.dynsym only)");
	if (!tab || !full)
		goto out;
	CHECK(elf_symtab__count(tab) > 0 &&
		      elf_symtab__count(tab) < elf_symtab__count(full),
	      "stripped: fewer symbols (%zu) than unstripped (%zu)",
	      elf_symtab__count(tab), elf_symtab__count(full));
	for (i = 0; i < sizeof(exported) / sizeof(exported[0]); i++) {
		const struct fx_entry *x = fx_find(e, n, exported[i]);
		uint64_t v = 0;

		CHECK(x && !elf_symtab__off_to_vaddr(tab, x->off, &v) && v == x->vaddr &&
			      (name = elf_symtab__lookup(tab, v, NULL)) &&
			      !strcmp(name, x->name),
		      "stripped: exported %s found from its offset", exported[i]);
	}
	name = local ? elf_symtab__lookup(tab, local->vaddr, NULL) : "fx_d_local";
	CHECK(!name || strcmp(name, "fx_d_local"),
	      "stripped: local fx_d_local is gone (%s)", name ? name : "NULL");
	name = stat ? elf_symtab__lookup(tab, stat->vaddr, NULL) : "fx_static_function";
	CHECK(!name || strcmp(name, "fx_static_function"),
	      "stripped: static fx_static_function is gone (%s)", name ? name : "NULL");
out:
	elf_symtab__free(tab);
	elf_symtab__free(full);
}

/* @addr in this process, within the object @tab was read from. */
static void check_loaded(const struct elf_symtab *tab, const void *addr, const char *want,
			 const char *what)
{
	uint64_t off = 0, v = 0, sym_off = 99;
	const char *name;
	Dl_info info;

	if (!dladdr(addr, &info) || maps_offset((uintptr_t)addr, &off)) {
		CHECK(0, "%s: %s is mapped", what, want);
		return;
	}
	CHECK(!elf_symtab__off_to_vaddr(tab, off, &v) &&
		      v == (uintptr_t)addr - (uintptr_t)info.dli_fbase,
	      "%s: offset 0x%" PRIx64 " of %s -> vaddr 0x%" PRIx64, what, off, want, v);
	name = elf_symtab__lookup(tab, v, &sym_off);
	CHECK_STR(name, want, "%s: lookup of %s", what, want);
	CHECK(sym_off == 0, "%s: %s at offset 0", what, want);
}

static void test_lib(void)
{
	static const char *const funcs[] = { "fxlib_one", "fxlib_two" };
	const char *path = env("FIXTURE_LIB");
	struct elf_symtab *tab = path ? load_path(path, NULL) : NULL;
	void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	void *(*hidden_address)(void);
	size_t i;

	CHECK(tab && h, "load and dlopen the fixture library");
	if (!tab || !h)
		goto out;
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		check_loaded(tab, dlsym(h, funcs[i]), funcs[i], "lib");
	*(void **)&hidden_address = dlsym(h, "fxlib_hidden_address");
	CHECK(hidden_address != NULL, "lib: fxlib_hidden_address exported");
	if (hidden_address)
		check_loaded(tab, hidden_address(), "fxlib_hidden", "lib (.symtab only)");
out:
	if (h)
		dlclose(h);
	elf_symtab__free(tab);
}

/* A libc function's name, or one of its aliases: dlsym(name) gives @addr back. */
static void check_libc_func(const struct elf_symtab *tab, void *h, const char *func)
{
	void *addr = dlsym(h, func);
	uint64_t off = 0, v = 0, sym_off = 99;
	const char *name = NULL;
	Dl_info info;

	if (addr && !maps_offset((uintptr_t)addr, &off) &&
	    !elf_symtab__off_to_vaddr(tab, off, &v) && dladdr(addr, &info))
		name = elf_symtab__lookup(tab, v, &sym_off);
	CHECK(name && sym_off == 0 && dlsym(h, name) == addr &&
		      v == (uintptr_t)addr - (uintptr_t)info.dli_fbase,
	      "libc: %s found as %s", func, name ? name : "NULL");
	name = elf_symtab__lookup(tab, v + 1, &sym_off);
	CHECK(name && sym_off == 1 && dlsym(h, name) == addr, "libc: inside %s", func);
}

/*
 * memcpy is an IFUNC: dlsym gives the selected implementation, which the
 * stripped libc's .dynsym does not name. The answer must be a memcpy or
 * memmove name, or nothing, never a neighbour's name stretched over it.
 */
static void check_libc_memcpy(const struct elf_symtab *tab, void *h)
{
	void *addr = dlsym(h, "memcpy");
	uint64_t off = 0, v = 0, sym_off = 0;
	const char *name;
	Dl_info info = { 0 };

	CHECK(addr && !maps_offset((uintptr_t)addr, &off) &&
		      !elf_symtab__off_to_vaddr(tab, off, &v) && dladdr(addr, &info),
	      "libc: memcpy is mapped");
	name = elf_symtab__lookup(tab, v, &sym_off);
	printf("# memcpy implementation at 0x%" PRIx64 ": %s+%" PRIu64 " (dladdr: %s)\n",
	       v, name ? name : "NULL", sym_off,
	       info.dli_sname ? info.dli_sname : "NULL");
	CHECK(!name || strstr(name, "memcpy") || strstr(name, "memmove"),
	      "libc: memcpy implementation not given a foreign name");
	if (info.dli_sname)
		CHECK(name && v - sym_off == (uintptr_t)info.dli_saddr -
						     (uintptr_t)info.dli_fbase,
		      "libc: memcpy implementation agrees with dladdr");
}

/* A weak alias (random_r) is found though the table keeps another name; memset is an IFUNC. */
static void test_libc_find(const char *path, void *h)
{
	void *addr = dlsym(h, "rand_r");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct elf_func f = { 0 };
	uint64_t off = 0;
	Dl_info info;

	CHECK(fd >= 0 && addr && dladdr(addr, &info) && !maps_offset((uintptr_t)addr, &off),
	      "libc: open it, find rand_r in this process");
	if (fd < 0 || !addr)
		goto out;
	CHECK(!elf_symtab__find_fd(fd, "rand_r", &f) &&
		      f.start == (uintptr_t)addr - (uintptr_t)info.dli_fbase &&
		      f.end > f.start && !f.ifunc,
	      "libc: find rand_r at its dlsym address");
	CHECK(!elf_symtab__find_fd(fd, "random_r", &f) && f.end > f.start && !f.ifunc,
	      "libc: find the weak random_r");
	CHECK(!elf_symtab__find_fd(fd, "memset", &f) && f.ifunc, "libc: memset is an IFUNC");
out:
	if (fd >= 0)
		close(fd);
}

static void test_libc(void)
{
	static const char *const funcs[] = {
		"getpid", "qsort", "fopen",   "malloc", "free",
		"strtol", "fputs", "opendir", "exit",	"pthread_create",
	};
	void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	struct elf_symtab *tab = NULL;
	Dl_info info;
	double ms = 0;
	size_t i;

	if (h && dladdr(dlsym(h, "getpid"), &info))
		tab = load_path(info.dli_fname, &ms);
	CHECK(tab != NULL, "load libc");
	if (!tab)
		goto out;
	printf("# %s: %zu symbols in %.2f ms\n", info.dli_fname, elf_symtab__count(tab),
	       ms);
	CHECK(elf_symtab__count(tab) > 1000, "libc: more than 1000 functions");
	for (i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++)
		check_libc_func(tab, h, funcs[i]);
	check_libc_memcpy(tab, h);
	test_libc_find(info.dli_fname, h);
out:
	elf_symtab__free(tab);
	if (h)
		dlclose(h);
}

/* Size of the [vdso] mapping, from /proc/self/maps. */
static size_t vdso_size(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	size_t size = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &start, &end) == 2)
			size = end - start;
	}
	if (f)
		fclose(f);
	return size;
}

/* The vDSO, from memory; clock_gettime is a weak alias of the global name. */
static void test_vdso(void)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	const char *addr = h ? dlsym(h, "__vdso_clock_gettime") : NULL;
	struct elf_symtab *tab = NULL;
	uint64_t v = 0, off = 99;

	if (!base || !addr) {
		CHECK(1, "vdso # SKIP no vDSO or not found by dlopen");
		return;
	}
	tab = elf_symtab__load_mem(base, vdso_size());
	CHECK(tab != NULL, "load the vDSO from memory");
	CHECK(tab && !elf_symtab__off_to_vaddr(tab, addr - base, &v) &&
		      v == (uint64_t)(addr - base),
	      "vDSO: offset == vaddr");
	CHECK_STR(elf_symtab__lookup(tab, addr - base, &off), "__vdso_clock_gettime",
		  "vDSO: global __vdso_clock_gettime chosen over weak clock_gettime");
	CHECK(off == 0, "vDSO: at offset 0");
	elf_symtab__free(tab);
	dlclose(h);
}

static void test_errors(void)
{
	const char *path = env("FIXTURE_KALLSYMS");
	struct elf_symtab *tab;

	errno = 0;
	tab = path ? load_path(path, NULL) : NULL;
	CHECK(!tab && errno == ENOEXEC, "a text file is not ELF: ENOEXEC (errno %d)",
	      errno);
	elf_symtab__free(tab);
	errno = 0;
	CHECK(!elf_symtab__load_fd(-1) && errno == EBADF, "bad descriptor: EBADF");
	CHECK(!elf_symtab__load_mem("\177ELF", 0), "empty image refused");
	CHECK(!elf_symtab__lookup(NULL, 0x1000, NULL), "lookup in no table");
	CHECK(elf_symtab__count(NULL) == 0, "count of no table");
	elf_symtab__free(NULL);
}

/*
 * An ELF header and two PT_LOADs: a sane one, and one whose file range
 * (@wrap_off) or address range (else) passes 2^64 (found by fuzz-elfsymtab:
 * vaddr_to_off answered an offset outside its segment, wrapped around).
 */
static void wrapping_image(unsigned char *image, size_t size, bool wrap_off)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_DYN,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 2,
	};
	Elf64_Phdr ph[2] = {
		{ .p_type = PT_LOAD, .p_offset = 0, .p_vaddr = 0x1000, .p_filesz = 0x100 },
		{ .p_type = PT_LOAD, .p_offset = 0x2000, .p_vaddr = 0x400000, .p_filesz = 0x2000 },
	};

	if (wrap_off)
		ph[1].p_offset = 0xfffffffffffff000ull;
	else
		ph[1].p_vaddr = 0xfffffffffffff000ull;
	memset(image, 0, size);
	memcpy(image, &eh, sizeof(eh));
	memcpy(image + sizeof(eh), ph, sizeof(ph));
}

static void test_wrapping_segment(void)
{
	unsigned char image[512];
	struct elf_symtab *tab;
	uint64_t x = 0;

	wrapping_image(image, sizeof(image), true);
	tab = elf_symtab__load_mem(image, sizeof(image));
	CHECK(tab, "an image with a PT_LOAD whose file range wraps loads");
	CHECK(elf_symtab__vaddr_to_off(tab, 0x401800, &x) == -ENOENT,
	      "a PT_LOAD whose file range passes 2^64 gives no offset (got 0x%" PRIx64 ")", x);
	CHECK(!elf_symtab__vaddr_to_off(tab, 0x1010, &x) && x == 0x10,
	      "the sane PT_LOAD beside it still translates");
	elf_symtab__free(tab);

	wrapping_image(image, sizeof(image), false);
	tab = elf_symtab__load_mem(image, sizeof(image));
	x = 0;
	CHECK(tab && elf_symtab__off_to_vaddr(tab, 0x3800, &x) == -ENOENT,
	      "a PT_LOAD whose address range passes 2^64 gives no address (got 0x%" PRIx64 ")",
	      x);
	elf_symtab__free(tab);
}

int main(void)
{
	const char *exe = env("FIXTURE_EXE");
	struct fx_entry e[FX_MAX];
	size_t n = exe ? fixture_run(exe, e, FX_MAX) : 0;

	CHECK(n >= 13, "fixture executable ran and printed its functions (%zu)", n);
	test_exe(e, n);
	test_exe_mem(e, n);
	test_find(e, n);
	test_stripped(e, n);
	test_lib();
	test_libc();
	test_vdso();
	test_errors();
	test_wrapping_segment();
	return check_done();
}
