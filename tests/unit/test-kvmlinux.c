// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Kernel source lines without a real vmlinux: the kernel's build-id from a
 * notes file, the search of the vmlinux paths under temporary debug roots
 * (build-id checked), and the KASLR translation with the kvmlinux fixture
 * (tests/fixtures/kvmlinux-fixture.c) standing in for vmlinux, moved to a
 * kernel-like address. Expected frames come from binutils' nm and
 * addr2line and from the markers in the fixture's source. Last, the
 * symbolizer end to end: a copy of the fixture carrying the running
 * kernel's build-id, found as DIR/boot/vmlinux-RELEASE, under a kallsyms
 * file of our own.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "buildid.h"
#include "check.h"
#include "kvmlinux.h"
#include "symbolizer.h"

#define RELEASE "9.9.9-bpfprof-test"
/* where the fixture's _stext runs: a KASLR slide of 0x1a00000 */
#define STEXT_RUNTIME (0xffffffff81000000ull + 0x1a00000ull)
#define CHAIN_MAX 8

struct a2l_frame {
	char name[128];
	char file[4096];
	uint32_t line;
};

static char tmp[] = "/tmp/bpfprof-kvmlinux-XXXXXX";

static const char *env(const char *name)
{
	const char *v = getenv(name);

	if (!v)
		printf("# %s not set: run through meson test\n", name);
	return v;
}

static size_t hex_to_id(const char *hex, uint8_t *id)
{
	size_t len = 0;

	for (; hex[2 * len] && len < BUILD_ID_MAX; len++)
		sscanf(hex + 2 * len, "%2hhx", &id[len]);
	return len;
}

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* Copy @from to @to (directories made), with the bytes @old replaced by @new if given. */
static int copy_file(const char *from, const char *to, const uint8_t *old,
		     const uint8_t *new, size_t len)
{
	char cmd[8192];
	struct stat st;
	int fd, ret = -1;
	uint8_t *buf;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", to);
	if (system(cmd))
		return -1;
	fd = open(from, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return -1;
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) == st.st_size)
		ret = 0;
	close(fd);
	for (off_t i = 0; !ret && old && i + (off_t)len <= st.st_size; i++) {
		if (!memcmp(buf + i, old, len))
			memcpy(buf + i, new, len);
	}
	fd = ret ? -1 : open(to, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || write(fd, buf, st.st_size) != st.st_size)
		ret = -1;
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		printf("# cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
}

static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return fd >= 0 && !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Value and size of @sym in @path, from nm. */
static int nm_sym(const char *path, const char *sym, uint64_t *addr, uint64_t *size)
{
	char cmd[8192], line[512], name[256];
	unsigned long long a, s;
	int found = -1;
	char type;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm -S '%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		*size = 0;
		if ((sscanf(line, "%llx %llx %c %255s", &a, &s, &type, name) == 4 ||
		     (s = 0, sscanf(line, "%llx %c %255s", &a, &type, name) == 3)) &&
		    !strcmp(name, sym)) {
			*addr = a;
			*size = s;
			found = 0;
			break;
		}
	}
	pclose(p);
	return found;
}

/* The inline chain binutils' addr2line -i -f gives at @vaddr, innermost first. */
static size_t addr2line(const char *path, uint64_t vaddr, struct a2l_frame *f, size_t max)
{
	char cmd[8192], name[sizeof(f->name)], loc[sizeof(f->file)];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "addr2line -i -f -e '%s' 0x%" PRIx64, path, vaddr);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (n < max && fgets(name, sizeof(name), p) && fgets(loc, sizeof(loc), p)) {
		char *colon = strrchr(loc, ':');

		name[strcspn(name, "\n")] = '\0';
		snprintf(f[n].name, sizeof(f[n].name), "%s", name);
		f[n].line = colon ? strtoul(colon + 1, NULL, 10) : 0;
		if (colon)
			*colon = '\0';
		snprintf(f[n].file, sizeof(f[n].file), "%s", loc);
		n++;
	}
	pclose(p);
	return n;
}

/* The line of @src holding "/ * MARKER * /". */
static uint32_t marker_line(const char *src, const char *marker)
{
	char line[1024], want[128];
	uint32_t n = 0;
	FILE *f = fopen(src, "r");

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "/* %s */", marker);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, want)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	return 0;
}

static void notes_put(uint8_t **p, uint32_t type, const char *owner, const void *desc,
		      uint32_t dlen)
{
	uint32_t nlen = strlen(owner) + 1, h[3] = { nlen, dlen, type };

	memcpy(*p, h, sizeof(h));
	*p += sizeof(h);
	memset(*p, 0, (nlen + 3) & ~3u);
	memcpy(*p, owner, nlen);
	*p += (nlen + 3) & ~3u;
	memset(*p, 0, (dlen + 3) & ~3u);
	memcpy(*p, desc, dlen);
	*p += (dlen + 3) & ~3u;
}

static void test_kernel_build_id(void)
{
	static const uint8_t want[] = { 0xde, 0xad, 0xbe, 0xef, 0x10, 0x32, 0x54, 0x76 };
	uint8_t buf[256], *p = buf, id[BUILD_ID_MAX];
	char path[4096];
	int n;

	/* as the kernel lays them out: decoys (Linux, Xen) around the GNU note */
	notes_put(&p, 3, "Linux", "6.1.0", 6);
	notes_put(&p, 3, "GNU", want, sizeof(want));
	notes_put(&p, 0x12, "Xen", "\0\0\0\0\0\0\0\0", 8);
	snprintf(path, sizeof(path), "%s/notes", tmp);
	write_file(path, buf, p - buf);
	n = kvmlinux__kernel_build_id(path, id, sizeof(id));
	CHECK(n == (int)sizeof(want) && !memcmp(id, want, sizeof(want)),
	      "the GNU build-id note of a notes file (got %d)", n);
	p = buf;
	notes_put(&p, 3, "Linux", "6.1.0", 6);
	write_file(path, buf, p - buf);
	CHECK(kvmlinux__kernel_build_id(path, id, sizeof(id)) == -ENOENT,
	      "notes without a GNU build-id: -ENOENT");
	CHECK(kvmlinux__kernel_build_id("/nonexistent/notes", id, sizeof(id)) == -ENOENT,
	      "no notes file: -ENOENT");
	n = kvmlinux__kernel_build_id("/sys/kernel/notes", id, sizeof(id));
	if (n == -ENOENT || n == -EACCES)
		CHECK(1,
		      "the running kernel's build-id # SKIP /sys/kernel/notes has none");
	else
		CHECK(n > 0,
		      "the running kernel's build-id from /sys/kernel/notes (got %d)", n);
}

static void test_find(void)
{
	const char *exe = env("FIXTURE_EXE_BUILDID"), *dbg = env("FIXTURE_DEBUG");
	const char *stripped = env("FIXTURE_DEBUGLINK"), *hex = env("FIXTURE_BUILDID");
	char r1[4096], r2[4096], r3[4096], path[8192], bpath[8192];
	const char *roots[] = { r1, r2, NULL }, *roots3[] = { r3, NULL };
	uint8_t id[BUILD_ID_MAX], wrong[BUILD_ID_MAX];
	size_t len;
	int fd;

	if (!exe || !dbg || !stripped || !hex)
		return;
	len = hex_to_id(hex, id);
	memcpy(wrong, id, len);
	wrong[len - 1] ^= 1;
	snprintf(r1, sizeof(r1), "%s/r1", tmp);
	snprintf(r2, sizeof(r2), "%s/r2", tmp);
	snprintf(r3, sizeof(r3), "%s/r3", tmp);

	CHECK(kvmlinux__find(roots, RELEASE, id, len) == -ENOENT, "empty roots: -ENOENT");
	snprintf(path, sizeof(path), "%s/boot/vmlinux-" RELEASE, r2);
	CHECK(!copy_file(exe, path, NULL, NULL, 0),
	      "ROOT/boot/vmlinux-RELEASE in the second root");
	fd = kvmlinux__find(roots, RELEASE, id, len);
	CHECK(same_file(fd, path),
	      "ROOT/boot/vmlinux-RELEASE with the kernel's build-id is found");
	if (fd >= 0)
		close(fd);
	CHECK(kvmlinux__find(roots, RELEASE, wrong, len) == -ENOENT,
	      "the same file for another build-id is rejected");
	CHECK(kvmlinux__find(roots, RELEASE, id, 0) == -ENOENT,
	      "an unknown kernel build-id accepts nothing");
	CHECK(kvmlinux__find(roots, "9.9.8-other", id, len) == -ENOENT,
	      "another release's name is not looked at");

	/* same build-id, no DWARF (stripped), in the first root: skipped */
	snprintf(bpath, sizeof(bpath), "%s/boot/vmlinux-" RELEASE, r1);
	copy_file(stripped, bpath, NULL, NULL, 0);
	fd = kvmlinux__find(roots, RELEASE, id, len);
	CHECK(same_file(fd, path), "a matching file without DWARF is passed over");
	if (fd >= 0)
		close(fd);

	/* the build-id path is tried first */
	snprintf(bpath, sizeof(bpath), "%s/.build-id/%.2s/%s.debug", r1, hex, hex + 2);
	copy_file(dbg, bpath, NULL, NULL, 0);
	fd = kvmlinux__find(roots, RELEASE, id, len);
	CHECK(same_file(fd, bpath),
	      "ROOT/.build-id/xx/rest.debug (a debug-only file) is found");
	if (fd >= 0)
		close(fd);
	CHECK(kvmlinux__find(roots, RELEASE, wrong, len) == -ENOENT,
	      "nothing for another build-id");

	snprintf(path, sizeof(path), "%s/lib/modules/" RELEASE "/vmlinux", r3);
	copy_file(exe, path, NULL, NULL, 0);
	fd = kvmlinux__find(roots3, RELEASE, id, len);
	CHECK(same_file(fd, path), "ROOT/lib/modules/RELEASE/vmlinux is found");
	if (fd >= 0)
		close(fd);
	CHECK(kvmlinux__find(NULL, RELEASE, id, len) == -ENOENT,
	      "the default places have no vmlinux of a made-up release");
}

static void test_symbol(const char *vml, const char *src)
{
	uint64_t v = 0, want = 0, size;
	int fd = open(vml, O_RDONLY);

	CHECK(!nm_sym(vml, "_stext", &want, &size) &&
		      !kvmlinux__symbol(fd, "_stext", &v) && v == want,
	      "_stext's value, as nm has it (%#" PRIx64 ")", v);
	CHECK(!nm_sym(vml, "kfx_outer", &want, &size) &&
		      !kvmlinux__symbol(fd, "kfx_outer", &v) && v == want,
	      "kfx_outer's value, as nm has it");
	CHECK(kvmlinux__symbol(fd, "kfx_no_such", &v) == -ENOENT,
	      "no such symbol: -ENOENT");
	close(fd);
	fd = open(src, O_RDONLY);
	CHECK(kvmlinux__symbol(fd, "_stext", &v) == -ENOEXEC, "not ELF: -ENOEXEC");
	close(fd);
}

/* Our frames (innermost first) against addr2line's at ELF address @v. */
static bool frames_match(const struct src_frames *sf, const struct a2l_frame *a,
			 size_t na)
{
	if (sf->nr != na)
		return false;
	for (size_t i = 0; i < na; i++) {
		const char *file = base_name(sf->v[i].file);

		if (!sf->v[i].name || strcmp(sf->v[i].name, a[i].name) || !file ||
		    strcmp(file, base_name(a[i].file)) || sf->v[i].line != a[i].line)
			return false;
	}
	return true;
}

/*
 * ELF addresses in kfx_outer (0: none): in the inlined kfx_leaf, outside
 * it, and the first outside it right after it.
 */
struct probe {
	uint64_t chain, plain, after;
};

/*
 * Every address of kfx_outer, moved up by a KASLR-like offset: the frames
 * addr2line gives at the ELF address.
 */
static struct probe test_lookup(const char *vml, const char *src)
{
	uint32_t call = marker_line(src, "KFX_CALL");
	uint32_t leaf_lo = marker_line(src, "KFX_LEAF_FIRST");
	uint32_t leaf_hi = marker_line(src, "KFX_LEAF_LAST");
	uint64_t stext, outer, size, offset, chain = 0, plain = 0, after = 0;
	struct src_frames sf = { 0 };
	struct a2l_frame a[CHAIN_MAX];
	size_t bad = 0, bad_flat = 0;
	struct kvmlinux *k;
	int fd;

	if (nm_sym(vml, "_stext", &stext, &size) ||
	    nm_sym(vml, "kfx_outer", &outer, &size) || !size || !call || !leaf_lo ||
	    !leaf_hi) {
		CHECK(0, "nm and the fixture's markers");
		return (struct probe){ 0 };
	}
	offset = STEXT_RUNTIME - stext;
	fd = open(vml, O_RDONLY);
	k = fd >= 0 ? kvmlinux__new(fd, offset) : NULL;
	CHECK(k != NULL, "open the fixture as a vmlinux");
	if (!k)
		return (struct probe){ 0 };
	for (uint64_t v = outer; v < outer + size; v++) {
		size_t na = addr2line(vml, v, a, CHAIN_MAX);
		int err = kvmlinux__lookup(k, v + offset, true, true, &sf);

		if (err || !frames_match(&sf, a, na)) {
			bad++;
			printf("# %#" PRIx64 ": %zu frames, addr2line %zu\n", v, sf.nr,
			       na);
			continue;
		}
		if (na == 2 && !strcmp(a[0].name, "kfx_leaf") && !chain)
			chain = v;
		if (na == 1 && !plain)
			plain = v;
		if (na == 1 && chain == v - 1 && !after)
			after = v;
		else if (na == 2 && chain && !after)
			chain = v; /* the last inlined address before @after */
		/* without inlines: one frame (unnamed: kallsyms names it), the line table's line */
		err = kvmlinux__lookup(k, v + offset, false, true, &sf);
		if (err || sf.nr != 1 || sf.v[0].line != a[0].line ||
		    strcmp(base_name(sf.v[0].file), base_name(a[0].file)))
			bad_flat++;
	}
	CHECK(!bad,
	      "every address of kfx_outer: addr2line -i's chain, names and lines (%zu differ)",
	      bad);
	CHECK(!bad_flat,
	      "without inlines: one frame at the line table's line (%zu differ)",
	      bad_flat);
	CHECK(chain != 0, "kfx_leaf is inlined somewhere in kfx_outer");
	if (chain && !kvmlinux__lookup(k, chain + offset, true, true, &sf) && sf.nr == 2) {
		CHECK(sf.v[1].line == call,
		      "the function's line is the call site (line %u, got %u)", call,
		      sf.v[1].line);
		CHECK(sf.v[0].inlined && sf.v[0].line >= leaf_lo &&
			      sf.v[0].line <= leaf_hi,
		      "the inlined call's line is in kfx_leaf (got %u)", sf.v[0].line);
		CHECK_STR(base_name(sf.v[1].file), "kvmlinux-fixture.c",
			  "the source file");
	}
	CHECK(kvmlinux__lookup(k, offset, true, true, &sf) == -ENOENT,
	      "ELF address 0: -ENOENT");
	CHECK(kvmlinux__lookup(k, offset - 0x1000, true, true, &sf) == -ENOENT,
	      "below the vmlinux: -ENOENT");
	srcinfo__free_frames(&sf);
	kvmlinux__free(k);

	errno = 0;
	fd = open(env("FIXTURE_DEBUGLINK"), O_RDONLY);
	CHECK(fd >= 0 && !kvmlinux__new(fd, offset) && errno == ENOENT,
	      "a file without DWARF: ENOENT");
	return (struct probe){ chain, plain, after };
}

static const struct symloc *ksym(struct symbolizer *s, uint64_t addr, bool ret)
{
	const struct symloc *loc = symbolizer__kernel(s, addr, ret);

	if (loc)
		for (uint32_t i = 0; i < loc->nr; i++)
			printf("#   %s %s:%u%s\n", loc->f[i].name,
			       loc->f[i].file ? base_name(loc->f[i].file) : "-",
			       loc->f[i].line,
			       loc->f[i].kind == FRAME_KERNEL ? " [k]" : "");
	return loc;
}

static struct symbolizer *new_symbolizer(const char *kallsyms, const char *const *roots,
					 bool lines, bool inlines)
{
	return symbolizer__new(NULL,
			       &(struct symbol_opts){
				       .lines = lines,
				       .inlines = inlines,
				       .debug_dirs = (const char **)roots,
			       },
			       kallsyms);
}

/* The symbolizer finds the "running kernel's" vmlinux under a debug root. */
static void test_symbolizer(const char *vml, const char *src, struct probe pr)
{
	const char *fx_hex = env("FIXTURE_KVMLINUX_BUILDID");
	uint8_t kid[BUILD_ID_MAX], fid[BUILD_ID_MAX], got[BUILD_ID_MAX];
	char root[4096], empty[4096], path[8192], ksyms[4096], text[1024];
	const char *roots[] = { root, NULL }, *no_roots[] = { empty, NULL };
	uint64_t stext, outer, size, rt, chain = pr.chain;
	struct a2l_frame a[CHAIN_MAX];
	const struct symloc *loc;
	struct symbolizer *s;
	struct utsname u;
	size_t flen;
	int klen, fd;

	klen = kvmlinux__kernel_build_id("/sys/kernel/notes", kid, sizeof(kid));
	flen = fx_hex ? hex_to_id(fx_hex, fid) : 0;
	if (klen != (int)flen || !flen || uname(&u) || !chain) {
		CHECK(1, "symbolizer with a vmlinux # SKIP no 20-byte kernel build-id");
		return;
	}
	nm_sym(vml, "_stext", &stext, &size);
	nm_sym(vml, "kfx_outer", &outer, &size);
	rt = STEXT_RUNTIME - stext; /* runtime = ELF address + rt */

	snprintf(root, sizeof(root), "%s/debug", tmp);
	snprintf(empty, sizeof(empty), "%s/empty", tmp);
	mkdir(empty, 0700);
	snprintf(path, sizeof(path), "%s/boot/vmlinux-%s", root, u.release);
	CHECK(!copy_file(vml, path, fid, kid, flen),
	      "a copy of the fixture with the kernel's build-id");
	fd = open(path, O_RDONLY);
	CHECK(buildid__read_fd(fd, got, sizeof(got)) == klen && !memcmp(got, kid, flen),
	      "the copy's build-id is the running kernel's");
	close(fd);

	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", tmp);
	snprintf(text, sizeof(text),
		 "%016" PRIx64 " T _stext\n"
		 "%016" PRIx64 " T kfx_outer_by_kallsyms\n"
		 "%016" PRIx64 " T _etext\n"
		 "ffffffffc0001000 t kfx_module_func\t[kfxmod]\n",
		 stext + rt, outer + rt, outer + size + rt);
	write_file(ksyms, text, strlen(text));

	/* lines and inlines */
	s = new_symbolizer(ksyms, roots, true, true);
	loc = s ? ksym(s, chain + rt, false) : NULL;
	addr2line(vml, chain, a, CHAIN_MAX);
	CHECK(loc && loc->nr == 2, "an inlined call: two frames");
	if (loc && loc->nr == 2) {
		CHECK_STR(loc->f[0].name, "kfx_outer_by_kallsyms",
			  "the function named by kallsyms");
		CHECK(loc->f[0].kind == FRAME_KERNEL && loc->f[1].kind == FRAME_KERNEL,
		      "both FRAME_KERNEL");
		CHECK(loc->f[0].line == marker_line(src, "KFX_CALL") &&
			      !strcmp(base_name(loc->f[0].file), "kvmlinux-fixture.c"),
		      "the function's frame: file and the call site's line");
		CHECK_STR(loc->f[1].name, "kfx_leaf",
			  "the inlined call named from DWARF, innermost last");
		CHECK(loc->f[1].line == a[0].line, "its line is addr2line's (%u)",
		      a[0].line);
	}
	if (pr.after) {
		loc = ksym(s, pr.after + rt, true);
		CHECK(loc && loc->nr == 2 && !strcmp(loc->f[1].name, "kfx_leaf"),
		      "a return address is looked up one byte back (in kfx_leaf)");
		loc = ksym(s, pr.after + rt, false);
		CHECK(loc && loc->nr == 1,
		      "the same address not returned to: after kfx_leaf");
	} else {
		CHECK(1,
		      "return addresses # SKIP no address right after the inlined call");
	}
	addr2line(vml, pr.plain, a, CHAIN_MAX);
	loc = s && pr.plain ? ksym(s, pr.plain + rt, false) : NULL;
	CHECK(loc && loc->nr == 1 && loc->f[0].line == a[0].line &&
		      !strcmp(loc->f[0].name, "kfx_outer_by_kallsyms"),
	      "outside the inlined call: one frame, addr2line's line (%u)", a[0].line);
	loc = s ? ksym(s, 0xffffffffc0001010ull, false) : NULL;
	CHECK(loc && loc->nr == 1 && !loc->f[0].file &&
		      !strcmp(loc->f[0].name, "kfx_module_func [kfxmod]"),
	      "a module function: no line");
	symbolizer__free(s);

	/* lines alone: one frame, the line table's line */
	addr2line(vml, chain, a, CHAIN_MAX);
	s = new_symbolizer(ksyms, roots, true, false);
	loc = s ? ksym(s, chain + rt, false) : NULL;
	CHECK(loc && loc->nr == 1 && loc->f[0].line == a[0].line && loc->f[0].file &&
		      !strcmp(loc->f[0].name, "kfx_outer_by_kallsyms"),
	      "--no-inline --lines: the function at the line table's line (%u)",
	      a[0].line);
	symbolizer__free(s);

	/* neither: the vmlinux is not read */
	s = new_symbolizer(ksyms, roots, false, false);
	loc = s ? ksym(s, chain + rt, false) : NULL;
	CHECK(loc && loc->nr == 1 && !loc->f[0].file && !loc->f[0].line,
	      "no lines, no inlines: no DWARF read");
	symbolizer__free(s);

	/* no vmlinux found: names as before */
	s = new_symbolizer(ksyms, no_roots, true, true);
	loc = s ? ksym(s, chain + rt, false) : NULL;
	CHECK(loc && loc->nr == 1 && !loc->f[0].file &&
		      !strcmp(loc->f[0].name, "kfx_outer_by_kallsyms"),
	      "no vmlinux: the kallsyms name alone");
	symbolizer__free(s);

	/* a vmlinux for another kernel is not taken */
	copy_file(vml, path, NULL, NULL, 0);
	s = new_symbolizer(ksyms, roots, true, true);
	loc = s ? ksym(s, chain + rt, false) : NULL;
	CHECK(loc && loc->nr == 1 && !loc->f[0].file,
	      "a vmlinux with another build-id gives no lines");
	symbolizer__free(s);
}

int main(void)
{
	const char *vml = env("FIXTURE_KVMLINUX"), *src = env("FIXTURE_KVMLINUX_SRC");
	char cmd[256];
	struct probe pr;

	if (!vml || !src || !mkdtemp(tmp)) {
		printf("Bail out! fixtures missing (run through meson test)\n");
		return 1;
	}
	test_kernel_build_id();
	test_find();
	test_symbol(vml, src);
	pr = test_lookup(vml, src);
	test_symbolizer(vml, src, pr);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		printf("# cannot remove %s\n", tmp);
	return check_done();
}
