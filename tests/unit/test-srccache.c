// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The DWARF cache (srccache.c): one index for two descriptors of one file,
 * that outlives both; another for a copy (another inode) and for the same
 * inode once its mtime changed; freed with its last reference; failures
 * not kept; no cache: srcinfo itself. The fixture is elf-fixture (DWARF);
 * its main's line is looked up to show an index works.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "elfsymtab.h"
#include "srccache.h"

static char tmp[] = "/tmp/bpfprof-srccache-XXXXXX";

/* @si names main, at @vaddr, from elf-fixture.c */
static bool names_main(struct srcinfo *si, uint64_t vaddr)
{
	struct src_frames f = { 0 };
	bool ok = si && srcinfo__lookup(si, vaddr, true, true, &f) == 0 && f.nr >= 1 &&
		  f.v[f.nr - 1].file && strstr(f.v[f.nr - 1].file, "elf-fixture.c");

	srcinfo__free_frames(&f);
	return ok;
}

/* Without lines: main is named, with no file or line (the line table is not read). */
static bool names_main_no_line(struct srcinfo *si, uint64_t vaddr)
{
	struct src_frames f = { 0 };
	bool ok = si && srcinfo__lookup(si, vaddr, true, false, &f) == 0 && f.nr >= 1 &&
		  f.v[f.nr - 1].name && !strcmp(f.v[f.nr - 1].name, "main") &&
		  !f.v[f.nr - 1].file && !f.v[f.nr - 1].line;

	srcinfo__free_frames(&f);
	return ok;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in >= 0 && out >= 0 && n == 0 ? 0 : -1;
}

int main(void)
{
	const char *exe = getenv("FIXTURE_EXE"), *stripped = getenv("FIXTURE_EXE_STRIPPED");
	struct srcinfo *a, *b, *c, *d, *e;
	struct srccache *sc;
	struct elf_func main_fn;
	size_t indexed, reused;
	char copy[sizeof(tmp) + 16];
	struct timespec times[2] = { { 0, UTIME_OMIT }, { 12345, 0 } };
	int fd1, fd2, fd3, fd4;

	if (!exe || !stripped) {
		printf("# FIXTURE_EXE, FIXTURE_EXE_STRIPPED not set: run through meson test\n");
		return 1;
	}
	if (!mkdtemp(tmp))
		return 1;
	snprintf(copy, sizeof(copy), "%s/copy", tmp);
	fd1 = open(exe, O_RDONLY);
	fd2 = open(exe, O_RDONLY);
	CHECK(fd1 >= 0 && fd2 >= 0 && elf_symtab__find_fd(fd1, "main", &main_fn) == 0,
	      "the fixture and its main");
	sc = srccache__new();
	CHECK(sc, "a cache");

	a = srccache__get(sc, fd1);
	b = srccache__get(sc, fd2);
	srccache__stats(sc, &indexed, &reused);
	CHECK(a && a == b, "two descriptors of one file: one index");
	CHECK(indexed == 1 && reused == 1, "counted: 1 indexed, 1 reused (got %zu, %zu)",
	      indexed, reused);
	close(fd1);
	close(fd2);
	CHECK(names_main(a, main_fn.start), "the cache's own descriptor outlives the callers'");
	CHECK(names_main_no_line(a, main_fn.start), "without lines: the name alone");

	CHECK(copy_file(exe, copy) == 0, "a copy of the file");
	fd3 = open(copy, O_RDONLY);
	c = srccache__get(sc, fd3);
	CHECK(c && c != a && names_main(c, main_fn.start),
	      "a copy (another inode, the same bytes): an index of its own");
	CHECK(futimens(fd3, times) == 0, "the copy's mtime changed");
	d = srccache__get(sc, fd3);
	CHECK(d && d != c, "the same inode with another mtime: another index");
	srccache__stats(sc, &indexed, &reused);
	CHECK(indexed == 3 && reused == 1, "counted: 3 indexed, 1 reused (got %zu, %zu)",
	      indexed, reused);
	close(fd3);

	fd4 = open(stripped, O_RDONLY);
	errno = 0;
	e = srccache__get(sc, fd4);
	CHECK(!e && errno == ENOENT, "no DWARF: NULL, ENOENT");
	errno = 0;
	e = srccache__get(sc, fd4);
	CHECK(!e && errno == ENOENT, "asked again: read again, not kept");
	srccache__stats(sc, &indexed, &reused);
	CHECK(indexed == 3 && reused == 1, "failures count as neither");
	close(fd4);

	/* the last reference frees the index: the file is indexed anew */
	srccache__put(sc, a);
	fd1 = open(exe, O_RDONLY);
	e = srccache__get(sc, fd1);
	srccache__stats(sc, &indexed, &reused);
	CHECK(e == a && indexed == 3 && reused == 2, "one reference left: still shared");
	srccache__put(sc, e);
	srccache__put(sc, b);
	e = srccache__get(sc, fd1);
	srccache__stats(sc, &indexed, &reused);
	CHECK(e && indexed == 4 && reused == 2 && names_main(e, main_fn.start),
	      "after the last reference: indexed anew");
	srccache__put(sc, NULL); /* nothing */
	srccache__free(sc);      /* c, d and e still referenced: freed with it */

	/* no cache: srcinfo itself, on the caller's descriptor */
	a = srccache__get(NULL, fd1);
	CHECK(names_main(a, main_fn.start), "no cache: srcinfo__open");
	srccache__put(NULL, a);
	srccache__stats(NULL, &indexed, &reused);
	CHECK(indexed == 0 && reused == 0, "no cache: nothing counted");
	close(fd1);

	unlink(copy);
	rmdir(tmp);
	return check_done();
}
