// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CFI table compiler (cfitable.c) and its disk cache (cficache.c):
 * rows of gcc-built fixtures with known shapes (tests/fixtures/cfi-fixture.c),
 * .debug_frame from the binary and from a debug file, the page index and the
 * BPF program's bounded search, the cache's round trip and its refusal of
 * damaged files.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elf.h>

#include "buildid.h"
#include "check.h"
#include "cficache.h"
#include "cfitable.h"
#include "elfsymtab.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static struct cfi_table *build(const char *path, const char *debug)
{
	int fd = path ? open(path, O_RDONLY) : -1;
	int dfd = debug ? open(debug, O_RDONLY) : -1;
	struct cfi_table *t = fd >= 0 ? cfi_table__build_fd(fd, dfd) : NULL;

	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	return t;
}

/*
 * The paged search against a linear walk of the rows, at every row start,
 * the bytes before and after it, every page start.
 */
static int lookups_agree(const struct cfi_table *t)
{
	uint32_t r = 0;

	for (uint64_t pc = 0; pc <= t->rows[t->nr_rows - 1].pc + 1; pc++) {
		const struct unwind_row *want;
		bool probe = (pc & ((1u << UNWIND_PAGE_SHIFT) - 1)) == 0;

		while (r + 1 < t->nr_rows && t->rows[r + 1].pc <= pc)
			r++;
		probe |= t->rows[r].pc == pc || t->rows[r].pc + 1 == pc ||
			 (r + 1 < t->nr_rows && t->rows[r + 1].pc == pc + 1);
		if (!probe)
			continue;
		want = pc < t->rows[t->nr_rows - 1].pc ? &t->rows[r] : NULL;
		if (cfi_table__lookup(t, t->base + pc) != want)
			return 0;
	}
	return cfi_table__lookup(t, t->base - 1) == NULL || t->base == 0;
}

static int pages_bounded(const struct cfi_table *t)
{
	for (uint32_t i = 0; i < t->nr_pages; i++)
		if (t->pages[i + 1] < t->pages[i] ||
		    t->pages[i + 1] - t->pages[i] + 1 >= (1u << UNWIND_SEARCH_STEPS))
			return 0;
	return t->pages[t->nr_pages] == t->nr_rows - 1;
}

static uint32_t count_type(const struct cfi_table *t, enum unwind_cfa_type type)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->nr_rows; i++)
		n += UNWIND_TYPE(t->rows[i].cfa_type) == type;
	return n;
}

static bool func_bounds(const char *path, const char *name, struct elf_func *f)
{
	int fd = path ? open(path, O_RDONLY) : -1;
	int err = fd >= 0 ? elf_symtab__find_fd(fd, name, f) : -ENOENT;

	if (fd >= 0)
		close(fd);
	return !err;
}

static uint64_t func_start(const char *path, const char *name)
{
	struct elf_func f;

	return func_bounds(path, name, &f) ? f.start : 0;
}

/* A row of @type (and aux, unless -1) within the function @name of @path. */
static const struct unwind_row *in_func(const struct cfi_table *t, const char *path,
					const char *name, enum unwind_cfa_type type,
					int aux)
{
	struct elf_func f;

	if (!func_bounds(path, name, &f))
		return NULL;
	for (uint32_t i = 0; i < t->nr_rows; i++) {
		const struct unwind_row *r = &t->rows[i];
		uint64_t v = t->base + r->pc;

		if (v >= f.start && v < f.end && UNWIND_TYPE(r->cfa_type) == type &&
		    (aux < 0 || UNWIND_AUX(r->cfa_type) == (unsigned int)aux))
			return r;
	}
	return NULL;
}

/* The largest CFA offset of the function @name's rsp rows. */
static int32_t max_rsp_off(const struct cfi_table *t, const char *path, const char *name)
{
	struct elf_func f;
	int32_t max = 0;

	if (!func_bounds(path, name, &f))
		return 0;
	for (uint32_t i = 0; i < t->nr_rows; i++) {
		const struct unwind_row *r = &t->rows[i];
		uint64_t v = t->base + r->pc;

		if (v >= f.start && v < f.end &&
		    UNWIND_TYPE(r->cfa_type) == UNWIND_CFA_RSP && r->cfa_off > max)
			max = r->cfa_off;
	}
	return max;
}

static void test_fixture(void)
{
	const char *path = getenv("FIXTURE_CFI"), *ibt = getenv("FIXTURE_CFI_IBT");
	struct cfi_table *t = build(path, NULL), *ti = build(ibt, NULL);
	const struct unwind_row *r;

	CHECK(t && ti, "the fixtures' CFI compiles");
	if (!t || !ti)
		goto out;
	CHECK(!cfi_table__check(t) && !cfi_table__check(ti),
	      "the tables pass their checks");
	CHECK(t->flags == CFI_TABLE_EH_FRAME && t->nr_fdes >= 6 &&
		      t->nr_raw_rows >= t->nr_rows,
	      "statistics: .eh_frame, %u FDEs, %u rows (%u raw)", t->nr_fdes, t->nr_rows,
	      t->nr_raw_rows);
	r = in_func(t, path, "cfi_alloca", UNWIND_CFA_RBP, 0);
	CHECK(r && r->cfa_off == 16 && r->rbp_type == UNWIND_RBP_CFA && r->rbp_off == -16,
	      "alloca: CFA = rbp + 16, rbp saved at CFA - 16");
	r = in_func(t, path, "cfi_drap", UNWIND_CFA_REG, 10);
	CHECK(r && r->cfa_off == 0, "DRAP prologue: CFA = r10 + 0");
	r = in_func(t, path, "cfi_drap", UNWIND_CFA_DEREF, 6);
	CHECK(r && r->cfa_off < 0 && r->cfa_off % 8 == 0 &&
		      r->rbp_type == UNWIND_RBP_REG && r->rbp_off == 0,
	      "DRAP body: CFA = *(rbp - %d), rbp saved at rbp + 0", r ? -r->cfa_off : 0);
	CHECK(max_rsp_off(t, path, "cfi_big") == 100 * 1024 + 16,
	      "100 KiB frame: CFA = rsp + 102416 (got %d)",
	      max_rsp_off(t, path, "cfi_big"));
	CHECK(count_type(t, UNWIND_CFA_PLT) == 1, "one PLT row");
	for (r = t->rows; UNWIND_TYPE(r->cfa_type) != UNWIND_CFA_PLT; r++)
		;
	CHECK(UNWIND_AUX(r->cfa_type) == 11 && r->cfa_off == 8,
	      "PLT: rsp + 8, threshold 11");
	for (r = ti->rows;
	     r < ti->rows + ti->nr_rows && UNWIND_TYPE(r->cfa_type) != UNWIND_CFA_PLT;
	     r++)
		;
	CHECK(r < ti->rows + ti->nr_rows && UNWIND_AUX(r->cfa_type) == 9 &&
		      r->cfa_off == 8,
	      "IBT PLT: rsp + 8, threshold 9, read from the expression");
	r = cfi_table__lookup(t, func_start(path, "_start"));
	CHECK(r && UNWIND_TYPE(r->cfa_type) == UNWIND_CFA_END,
	      "_start: end of the stack");
	CHECK(count_type(t, UNWIND_CFA_NONE) >= 2, "gaps between FDEs are none rows");
	CHECK(lookups_agree(t) && pages_bounded(t), "paged search == linear search");
out:
	cfi_table__free(t);
	cfi_table__free(ti);
}

static int same_rows(const struct cfi_table *a, const struct cfi_table *b)
{
	return a && b && a->base == b->base && a->nr_rows == b->nr_rows &&
	       a->nr_pages == b->nr_pages &&
	       !memcmp(a->rows, b->rows, cfi_table__bytes(a));
}

static void test_debug_frame(void)
{
	const char *path = getenv("FIXTURE_CFI_DEBUGFRAME");
	const char *stripped = getenv("FIXTURE_CFI_DEBUGFRAME_STRIPPED");
	const char *debug = getenv("FIXTURE_CFI_DEBUGFRAME_DEBUG");
	struct cfi_table *t = build(path, NULL), *s = build(stripped, NULL);
	struct cfi_table *sd = build(stripped, debug);
	struct cfi_table *sz = build(stripped, getenv("FIXTURE_CFI_DEBUGFRAME_ZDEBUG"));
	const struct unwind_row *r;

	CHECK(t && s && sd, "the .debug_frame fixtures compile");
	if (!t || !s || !sd)
		goto out;
	CHECK(t->flags == (CFI_TABLE_EH_FRAME | CFI_TABLE_DEBUG_FRAME),
	      "crt code from .eh_frame, the program's own from .debug_frame");
	r = in_func(t, path, "cfi_alloca", UNWIND_CFA_RBP, 0);
	CHECK(r && r->cfa_off == 16, ".debug_frame rows: alloca's CFA = rbp + 16");
	r = in_func(t, path, "cfi_drap", UNWIND_CFA_DEREF, 6);
	CHECK(r && r->rbp_type == UNWIND_RBP_REG, ".debug_frame rows: DRAP");
	r = cfi_table__lookup(s, func_start(path, "cfi_alloca"));
	CHECK(s->flags == CFI_TABLE_EH_FRAME &&
		      (!r || UNWIND_TYPE(r->cfa_type) == UNWIND_CFA_NONE),
	      "stripped: no rows for the program's code");
	CHECK(same_rows(t, sd), "stripped + debug file: the same table as unstripped");
	CHECK(same_rows(t, sz), "and with the debug file's sections compressed");
	CHECK(!cfi_table__check(t) && lookups_agree(t), "the table passes its checks");
out:
	cfi_table__free(t);
	cfi_table__free(s);
	cfi_table__free(sd);
	cfi_table__free(sz);
}

static void test_libc(void)
{
	struct cfi_table *t;

	if (access(LIBC, R_OK)) {
		printf("ok %d - # SKIP no %s\n", ++check__n, LIBC);
		return;
	}
	t = build(LIBC, NULL);
	CHECK(t && !cfi_table__check(t), "libc's CFI compiles and passes the checks");
	if (!t)
		return;
	CHECK(t->nr_fdes > 1000 && t->nr_rows > 10000 && t->nr_pages > 1,
	      "libc: %u FDEs, %u rows, %u pages", t->nr_fdes, t->nr_rows, t->nr_pages);
	CHECK(count_type(t, UNWIND_CFA_SIGNAL) >= 1,
	      "libc: __restore_rt is a signal frame");
	CHECK(count_type(t, UNWIND_CFA_END) >= 1, "libc: thread start ends the stack");
	CHECK(count_type(t, UNWIND_CFA_PLT) >= 1, "libc: its PLT");
	CHECK(pages_bounded(t), "every page's search range fits UNWIND_SEARCH_STEPS");
	CHECK(lookups_agree(t), "paged search == linear search at every boundary");
	cfi_table__free(t);
}

static void test_vdso(void)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct cfi_table *t;

	if (!eh) {
		printf("ok %d - # SKIP no vDSO\n", ++check__n);
		return;
	}
	t = cfi_table__build_mem(eh, eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize);
	CHECK(t && !cfi_table__check(t) && t->nr_fdes >= 1,
	      "the vDSO's CFI, from memory");
	cfi_table__free(t);
}

static void test_synthetic(void)
{
	/* one page P: rows at 0, P, 2.5 P (end), 3 P (none) */
	const uint32_t P = 1u << UNWIND_PAGE_SHIFT;
	struct unwind_row rows[] = {
		{ .pc = 0, .cfa_off = 8, .cfa_type = UNWIND_CFA(UNWIND_CFA_RSP, 0) },
		{ .pc = P, .cfa_off = 16, .cfa_type = UNWIND_CFA(UNWIND_CFA_RBP, 0) },
		{ .pc = 2 * P + P / 2, .cfa_type = UNWIND_CFA(UNWIND_CFA_END, 0) },
		{ .pc = 3 * P, .cfa_type = UNWIND_CFA(UNWIND_CFA_NONE, 0) },
	};
	struct cfi_table *t = cfi_table__from_rows(0x400000, rows, 4);
	struct unwind_row *dense;
	const uint32_t n = 1u << UNWIND_PAGE_SHIFT;
	bool ok = true;

	CHECK(t && t->nr_pages == 4 && t->pages[0] == 0 && t->pages[1] == 1 &&
		      t->pages[2] == 1 && t->pages[3] == 3 && t->pages[4] == 3,
	      "page index: the row in force at each page start");
	if (!t)
		return;
	CHECK(cfi_table__lookup(t, 0x400000 + 2 * P + P / 2 - 1) == &t->rows[1] &&
		      cfi_table__lookup(t, 0x400000 + 2 * P + P / 2) == &t->rows[2] &&
		      cfi_table__lookup(t, 0x400000 + 3 * P - 1) == &t->rows[2] &&
		      !cfi_table__lookup(t, 0x400000 + 3 * P) && !cfi_table__lookup(t, 0x3fffff),
	      "lookups at and around row and page boundaries");
	CHECK(!cfi_table__check(t), "a good table passes");
	t->rows[2].pc = P;
	CHECK(cfi_table__check(t) == -EBADMSG, "pcs not increasing: refused");
	t->rows[2].pc = 2 * P + P / 2;
	t->pages[2] = 2;
	CHECK(cfi_table__check(t) == -EBADMSG, "a wrong page entry: refused");
	t->pages[2] = 1;
	t->rows[1].cfa_type = UNWIND_CFA(UNWIND_CFA_INVALID + 1, 0);
	CHECK(cfi_table__check(t) == -EBADMSG, "an unknown rule: refused");
	t->rows[1].cfa_type = UNWIND_CFA(UNWIND_CFA_RBP, 3);
	CHECK(cfi_table__check(t) == -EBADMSG,
	      "an aux value on a rule without one: refused");
	t->rows[1].cfa_type = UNWIND_CFA(UNWIND_CFA_RBP, 0);
	t->rows[3].cfa_type = UNWIND_CFA(UNWIND_CFA_RSP, 0);
	CHECK(cfi_table__check(t) == -EBADMSG, "a last row other than none: refused");
	cfi_table__free(t);

	/* the worst page: a row at every byte */
	dense = calloc(n + 1, sizeof(*dense));
	for (uint32_t i = 0; dense && i <= n; i++) {
		dense[i].pc = i;
		dense[i].cfa_off = i;
		dense[i].cfa_type =
			UNWIND_CFA(i < n ? UNWIND_CFA_RSP : UNWIND_CFA_NONE, 0);
	}
	t = dense ? cfi_table__from_rows(0, dense, n + 1) : NULL;
	CHECK(t && !cfi_table__check(t) && pages_bounded(t),
	      "a row at every byte of a page: within UNWIND_SEARCH_STEPS");
	for (uint32_t pc = 0; t && pc < n; pc++)
		ok &= cfi_table__lookup(t, pc) == &t->rows[pc];
	CHECK(t && ok, "each of them found by the bounded search");
	cfi_table__free(t);
	free(dense);
	CHECK(!cfi_table__from_rows(0, rows, 0) && errno == EINVAL, "no rows: EINVAL");
}

static void test_errors(void)
{
	const char *kallsyms = getenv("FIXTURE_KALLSYMS"),
		   *obj = getenv("FIXTURE_NOTE_OBJ");

	CHECK(!build(kallsyms, NULL) && errno == ENOEXEC, "not ELF: ENOEXEC");
	CHECK(!build(obj, NULL) && errno == ENODATA, "no CFI: ENODATA");
}

static char *cache_file(const char *dir, const char *path)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1], *file;
	int fd = open(path, O_RDONLY),
	    len = fd >= 0 ? buildid__read_fd(fd, id, sizeof(id)) : -1;

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return NULL;
	buildid__hex(id, len, hex);
	return asprintf(&file, "%s/%s.unwind", dir, hex) < 0 ? NULL : file;
}

/* Overwrite @len bytes at @off of @file with @bytes; cut it at @off when @bytes is NULL. */
static void damage(const char *file, off_t off, const void *bytes, size_t len)
{
	int fd = open(file, O_WRONLY);

	if (fd < 0)
		return;
	if (bytes)
		(void)!pwrite(fd, bytes, len, off);
	else
		(void)!ftruncate(fd, off);
	close(fd);
}

static int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/*
 * A forged copy: another binary (the IBT build: other code, other CFI)
 * claiming @id. Its table must not be taken from the cache for the genuine
 * file, nor the genuine one's for it, whichever ran first.
 */
static void test_cache_forged(const char *dir, const char *root, const struct cfi_table *t,
			      int fd, const uint8_t *id, int len)
{
	const char *ibt = getenv("FIXTURE_CFI_IBT");
	uint8_t other[BUILD_ID_MAX], *image = NULL, *at;
	struct cfi_table *real = build(ibt, NULL), *c;
	int ffd = -1, olen, n;
	bool cached = true;
	char *forged = NULL;
	struct stat st;

	ffd = open(ibt, O_RDONLY);
	olen = ffd >= 0 ? buildid__read_fd(ffd, other, sizeof(other)) : -1;
	if (ffd < 0 || olen != len || fstat(ffd, &st) || !(image = malloc(st.st_size)) ||
	    pread(ffd, image, st.st_size, 0) != st.st_size || !real ||
	    asprintf(&forged, "%s/forged", root) < 0) {
		CHECK(0, "forged copy set up");
		goto out;
	}
	close(ffd);
	at = memmem(image, st.st_size, other, olen);
	if (at)
		memcpy(at, id, len);
	ffd = open(forged, O_RDWR | O_CREAT | O_TRUNC, 0600);
	n = ffd >= 0 ? pwrite(ffd, image, st.st_size, 0) : -1;
	CHECK(at && n == st.st_size && buildid__read_fd(ffd, other, sizeof(other)) == len &&
		      !memcmp(other, id, len),
	      "the forged copy claims the genuine build-id");
	c = cficache__get(dir, ffd, -1, &cached);
	CHECK(c && !cached && same_rows(real, c),
	      "forged copy: not the genuine file's cached table, its own");
	cfi_table__free(c);
	c = cficache__get(dir, fd, -1, &cached);
	CHECK(c && !cached && same_rows(t, c),
	      "genuine file after the forged one: its own table again, not the forged one's");
	cfi_table__free(c);
out:
	if (ffd >= 0)
		close(ffd);
	cfi_table__free(real);
	free(image);
	free(forged);
}

static void test_cache(void)
{
	const char *path = getenv("FIXTURE_CFI");
	char tmpl[] = "/tmp/test-cfitable-XXXXXX", *root = mkdtemp(tmpl), *dir = NULL,
	     *file;
	struct cfi_table *t = build(path, NULL), *c;
	uint8_t id[BUILD_ID_MAX], src[SHA256_SIZE];
	int fd = open(path, O_RDONLY), len = buildid__read_fd(fd, id, sizeof(id));
	bool cached = true;
	struct stat st;

	if (!root || !t || len <= 0 || asprintf(&dir, "%s/a/b/unwind", root) < 0 ||
	    cfi_table__digest(fd, -1, src)) {
		CHECK(0, "cache test set up");
		goto out;
	}
	file = cache_file(dir, path);
	errno = 0;
	CHECK(!cficache__load(dir, id, len, false, src) && errno == ENOENT,
	      "nothing cached: ENOENT");
	CHECK(!cficache__store(dir, id, len, false, src, t),
	      "stored (the directories created)");
	CHECK(!stat(dir, &st) && (st.st_mode & 0777) == 0700,
	      "a new cache directory is 0700");
	CHECK(dir_entries(dir) == 1, "one file, no temporary left");
	c = cficache__load(dir, id, len, false, src);
	CHECK(same_rows(t, c) && c->nr_fdes == t->nr_fdes &&
		      c->nr_raw_rows == t->nr_raw_rows && c->flags == t->flags,
	      "loaded back: the same table and statistics");
	cfi_table__free(c);
	CHECK(!cficache__load(dir, id, len, true, src) && errno == ENOENT,
	      "a table built with a debug file is another entry");
	id[0] ^= 1;
	CHECK(!cficache__load(dir, id, len, false, src) && errno == ENOENT,
	      "another build-id: ENOENT");
	id[0] ^= 1;
	src[0] ^= 1;
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "built from other bytes under the same build-id: refused");
	src[0] ^= 1;

	c = cficache__get(dir, fd, -1, &cached);
	CHECK(same_rows(t, c) && cached, "cficache__get: from the cache");
	cfi_table__free(c);

	damage(file, cfi_table__bytes(t) + 127, NULL, 0);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "truncated: refused");
	c = cficache__get(dir, fd, -1, &cached);
	CHECK(same_rows(t, c) && !cached, "cficache__get: rebuilt");
	cfi_table__free(c);
	c = cficache__load(dir, id, len, false, src);
	CHECK(same_rows(t, c), "and stored again");
	cfi_table__free(c);

	damage(file, 128 + 12 * 3 + 4, "\x7f", 1); /* row 3's cfa_off */
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "a changed byte in the rows: refused (checksum)");
	cficache__store(dir, id, len, false, src, t);
	damage(file, 8, "\x7f", 1);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "another format version: refused");
	cficache__store(dir, id, len, false, src, t);
	damage(file, 0, "BPFPCFI", 7);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "bad magic: refused");
	cficache__store(dir, id, len, false, src, t);
	damage(file, 28, "\xff", 1);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "a file of another build-id: refused");
	damage(file, 0, NULL, 0);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG, "empty: refused");
	unlink(file);
	mkfifo(file, 0600);
	CHECK(!cficache__load(dir, id, len, false, src) && errno == EBADMSG,
	      "a FIFO in the cache: refused, without waiting for a writer");
	CHECK(!cficache__store(dir, id, len, false, src, t) && !stat(file, &st) && S_ISREG(st.st_mode),
	      "and replaced by the table, not written into");
	c = cficache__get(NULL, fd, -1, &cached);
	CHECK(same_rows(t, c) && !cached, "no directory: built");
	cfi_table__free(c);
	test_cache_forged(dir, root, t, fd, id, len);
	free(file);
out:
	if (fd >= 0)
		close(fd);
	cfi_table__free(t);
	if (root) {
		char *cmd;

		if (asprintf(&cmd, "rm -rf '%s'", root) >= 0) {
			(void)!system(cmd);
			free(cmd);
		}
	}
	free(dir);
}

static void test_default_dir(void)
{
	char *d;

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	d = cficache__default_dir();
	CHECK_STR(d, "/x/cache/bpfprof/unwind", "$XDG_CACHE_HOME/bpfprof/unwind");
	free(d);
	setenv("XDG_CACHE_HOME", "relative", 1);
	setenv("HOME", "/home/u", 1);
	d = cficache__default_dir();
	CHECK_STR(d, "/home/u/.cache/bpfprof/unwind", "else $HOME/.cache/bpfprof/unwind");
	free(d);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	CHECK(!cficache__default_dir() && errno == ENOENT, "neither: ENOENT");
}

int main(void)
{
	test_synthetic();
	test_fixture();
	test_debug_frame();
	test_libc();
	test_vdso();
	test_errors();
	test_cache();
	test_default_dir();
	return check_done();
}
