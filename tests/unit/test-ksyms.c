/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ksyms against tests/fixtures/kallsyms.txt (vmlinux and module text, data
 * symbols to ignore, _etext), files written here (all-zero, malformed) and
 * the running kernel's /proc/kallsyms.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "infile.h"
#include "ksyms.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Check that @addr resolves to @name in @module (NULL: vmlinux). */
static void check_sym(const struct ksyms *ks, uint64_t addr, const char *name,
		      const char *module)
{
	const struct ksym *s = ksyms__lookup(ks, addr);

	CHECK_STR(s ? s->name : NULL, name, "0x%llx -> %s", (unsigned long long)addr,
		  name);
	if (!s)
		return;
	if (module)
		CHECK_STR(s->module, module, "%s is in module %s", name, module);
	else
		CHECK(s->module == NULL, "%s is in vmlinux", name);
}

static void check_none(const struct ksyms *ks, uint64_t addr, const char *why)
{
	const struct ksym *s = ksyms__lookup(ks, addr);

	CHECK(!s, "0x%llx -> nothing: %s (got %s)", (unsigned long long)addr, why,
	      s ? s->name : "NULL");
}

static void test_fixture(void)
{
	const char *path = getenv("FIXTURE_KALLSYMS");
	struct ksyms *ks = path ? ksyms__load(path) : NULL;

	CHECK(ks != NULL, "load the kallsyms fixture");
	if (!ks)
		return;
	CHECK(ksyms__count(ks) == 13, "13 text symbols (got %zu)", ksyms__count(ks));
	CHECK(!ksyms__hidden(ks), "fixture addresses are not hidden");
	check_none(ks, 0xffffffff80ffffffull, "below the first symbol");
	check_none(ks, 0, "address 0");
	check_sym(ks, 0xffffffff81000000ull, "_stext", NULL);
	check_sym(ks, 0xffffffff81000100ull, "fx_local_text", NULL);
	check_sym(ks, 0xffffffff81000200ull, "fx_global", NULL);
	check_sym(ks, 0xffffffff81000234ull, "fx_global", NULL);
	check_sym(ks, 0xffffffff81000300ull, "fx_global", NULL);
	check_sym(ks, 0xffffffff810003ffull, "fx_global", NULL);
	check_sym(ks, 0xffffffff81000400ull, "fx_weak", NULL);
	check_sym(ks, 0xffffffff81000490ull, "fx_local_weak", NULL);
	check_sym(ks, 0xffffffff810005ffull, "fx_last", NULL);
	check_none(ks, 0xffffffff81000600ull, "_etext ends the last vmlinux text symbol");
	check_none(ks, 0xffffffff81000800ull, "rodata after _etext");
	check_sym(ks, 0xffffffff81001000ull, "_sinittext", NULL);
	check_sym(ks, 0xffffffff81001050ull, "fx_init_fn", NULL);
	check_none(ks, 0xffffffff81001100ull, "_einittext ends init text");
	check_none(ks, 0xffffffffa0000000ull, "between vmlinux and modules");
	check_sym(ks, 0xffffffffc0001000ull, "mod_a_func", "moda");
	check_sym(ks, 0xffffffffc00010ffull, "mod_a_func", "moda");
	check_sym(ks, 0xffffffffc0001100ull, "mod_a_other", "moda");
	check_sym(ks, 0xffffffffc0001300ull, "mod_a_other", "moda");
	check_sym(ks, 0xffffffffc0002000ull, "mod_b_func", "modb");
	check_sym(ks, 0xffffffffc0002050ull, "mod_b_func", "modb");
	check_sym(ks, 0xffffffffc0003010ull, "mod_b_later", "modb");
	CHECK(ksyms__find(ks, "_stext") && ksyms__find(ks, "_stext")->addr == 0xffffffff81000000ull,
	      "find _stext by name");
	CHECK(ksyms__find(ks, "fx_init_fn") &&
		      ksyms__find(ks, "fx_init_fn")->addr == 0xffffffff81001010ull,
	      "find fx_init_fn by name");
	CHECK(!ksyms__find(ks, "mod_a_func"), "find: module symbols are not vmlinux's");
	CHECK(!ksyms__find(ks, "fx_data"), "find: data symbols are not kept");
	CHECK(!ksyms__find(ks, "fx_glob"), "find: whole names only");
	ksyms__free(ks);
}

/* Write @text to a new file in /tmp; returns its path or NULL. */
static char *write_tmp(const char *text)
{
	static char path[64];
	size_t len = strlen(text);
	int fd;

	strcpy(path, "/tmp/bpfprof-test-ksyms-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	return path;
}

static void test_hidden(void)
{
	char *path = write_tmp("0000000000000000 T _stext\n"
			       "0000000000000000 t do_one_initcall\n"
			       "0000000000000000 D jiffies\n"
			       "0000000000000000 t ext4_fill_super\t[ext4]\n");
	struct ksyms *ks = path ? ksyms__load(path) : NULL;

	CHECK(ks != NULL, "load an all-zero file");
	CHECK(ksyms__hidden(ks), "all-zero addresses: hidden");
	CHECK(!ksyms__lookup(ks, 0) && !ksyms__lookup(ks, 0xffffffff81000000ull),
	      "hidden: no lookups");
	CHECK(!ksyms__find(ks, "_stext"), "hidden: no symbol found by name");
	ksyms__free(ks);
	if (path)
		unlink(path);
}

/* ksyms__find_func: vmlinux and module names, where each ends, ambiguity. */
static void check_find_func(const struct ksyms *ks, const char *name, uint64_t addr,
			    uint64_t end)
{
	const struct ksym *s;
	uint64_t got_end = 0;
	size_t nr = 0;

	s = ksyms__find_func(ks, name, &got_end, &nr);
	CHECK(s && s->addr == addr && got_end == end && nr == 1,
	      "find_func %s: [0x%llx, 0x%llx)", name, (unsigned long long)addr,
	      (unsigned long long)end);
}

static void test_find_func(void)
{
	const char *path = getenv("FIXTURE_KALLSYMS");
	struct ksyms *ks = path ? ksyms__load(path) : NULL;
	char *dup = write_tmp("ffffffff81000000 T _stext\n"
			      "ffffffff81000100 t dup_fn\n"
			      "ffffffff81000200 t other\n"
			      "ffffffff81000300 t dup_fn\n"
			      "ffffffff81000400 T _etext\n");
	struct ksyms *kd = dup ? ksyms__load(dup) : NULL;
	const struct ksym *s;
	uint64_t end = 0;
	size_t nr = 0;

	CHECK(ks && kd, "load the fixtures for find_func");
	if (!ks || !kd)
		goto out;
	check_find_func(ks, "fx_global", 0xffffffff81000200ull, 0xffffffff81000400ull);
	check_find_func(ks, "fx_last", 0xffffffff81000500ull, 0xffffffff81000600ull);
	check_find_func(ks, "mod_a_func", 0xffffffffc0001000ull, 0xffffffffc0001100ull);
	check_find_func(ks, "fx_init_fn", 0xffffffff81001010ull, 0xffffffff81001100ull);
	CHECK(!ksyms__find_func(ks, "fx_data", &end, &nr) && nr == 0,
	      "find_func: a data symbol is no function");
	CHECK(!ksyms__find_func(ks, "fx_glob", &end, &nr), "find_func: whole names only");
	s = ksyms__find_func(kd, "dup_fn", &end, &nr);
	CHECK(s && s->addr == 0xffffffff81000100ull && end == 0xffffffff81000200ull && nr == 2,
	      "find_func: two dup_fn, the lowest first, nr 2");
out:
	ksyms__free(ks);
	ksyms__free(kd);
	if (dup)
		unlink(dup);
}

static void test_errors(void)
{
	static const char *const bad[] = {
		"ffffffff81000000 T\n",
		"ffffffff81000000 T _stext\nzzzz T foo\n",
		"ffffffff81000000 T foo\t[mod\n",
		"ffffffff81000000 T foo\t[]\n",
		"10000000000000000 T too_long\n",
	};
	struct ksyms *ks;
	char *path;
	size_t i;

	errno = 0;
	CHECK(!ksyms__load("/nonexistent/kallsyms") && errno == ENOENT,
	      "missing file: ENOENT");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = write_tmp(bad[i]);

		errno = 0;
		ks = path ? ksyms__load(path) : NULL;
		CHECK(!ks && errno == EINVAL, "malformed line %zu: EINVAL", i);
		ksyms__free(ks);
		if (path)
			unlink(path);
	}
	errno = 0;
	CHECK(!ksyms__load("/dev/zero") && errno == INFILE_ENOTREG,
	      "/dev/zero (never ends): refused as not a regular file");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		ks = ksyms__load_mem(bad[i], strlen(bad[i]));
		CHECK(!ks && errno == EINVAL, "malformed line %zu from memory: EINVAL", i);
		ksyms__free(ks);
	}
	/* 46 bytes: up to "t a", without the unterminated module after it */
	ks = ksyms__load_mem("ffffffff81000000 T _stext\nffffffff81000100 t a\t[mod", 46);
	CHECK(ks && ksyms__count(ks) == 2 && ksyms__lookup(ks, 0xffffffff81000101) &&
		      !strcmp(ksyms__lookup(ks, 0xffffffff81000101)->name, "a"),
	      "from memory: only LEN bytes are read, the last needs no newline");
	ksyms__free(ks);
	path = write_tmp("");
	ks = path ? ksyms__load(path) : NULL;
	if (path)
		unlink(path);
	CHECK(ks && ksyms__count(ks) == 0 && !ksyms__hidden(ks),
	      "empty file: no symbols");
	CHECK(!ksyms__lookup(ks, 0x1000), "empty file: no lookups");
	ksyms__free(ks);
	ksyms__free(NULL);
	CHECK(!ksyms__lookup(NULL, 0x1000) && ksyms__count(NULL) == 0, "no table");
}

/* The address of "schedule" in @path, read with plain sscanf. */
static unsigned long long schedule_address(const char *path)
{
	unsigned long long addr, found = 0;
	char line[512], type, name[256];
	FILE *f = fopen(path, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3 &&
		    !strcmp(name, "schedule") && (type == 'T' || type == 't'))
			found = addr;
	}
	if (f)
		fclose(f);
	return found;
}

static void test_proc(void)
{
	const char *path = "/proc/kallsyms";
	unsigned long long addr;
	struct ksyms *ks;
	double t0 = now_ms();

	ks = ksyms__load(path);
	CHECK(ks != NULL, "load %s", path);
	if (!ks)
		return;
	printf("# %s: %zu text symbols in %.1f ms\n", path, ksyms__count(ks),
	       now_ms() - t0);
	CHECK(ksyms__count(ks) > 10000, "more than 10000 kernel text symbols");
	addr = schedule_address(path);
	if (ksyms__hidden(ks) || !addr) {
		CHECK(1,
		      "schedule # SKIP addresses hidden (kptr_restrict) or no schedule");
	} else {
		check_sym(ks, addr, "schedule", NULL);
		check_sym(ks, addr + 1, "schedule", NULL);
	}
	ksyms__free(ks);
}

int main(void)
{
	test_fixture();
	test_hidden();
	test_find_func();
	test_errors();
	test_proc();
	return check_done();
}
