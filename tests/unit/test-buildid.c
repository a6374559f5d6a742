/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * buildid against ids known independently: linked in with
 * --build-id=0x..., written by hand in an assembler note, or printed by
 * binutils' readelf for the system libc; raw notes (the kernel's
 * /sys/kernel/notes format) built here byte by byte.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "buildid.h"
#include "check.h"

static int read_path(const char *path, uint8_t *id, size_t size)
{
	int fd, ret;

	if (!path) {
		printf("# fixture path not set: run through meson test\n");
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = buildid__read_fd(fd, id, size);
	close(fd);
	return ret;
}

static void test_hex(void)
{
	static const uint8_t id[] = { 0x01, 0xab, 0xff, 0x00, 0x9c };
	char buf[2 * sizeof(id) + 1];

	memset(buf, 'x', sizeof(buf));
	buildid__hex(id, sizeof(id), buf);
	CHECK_STR(buf, "01abff009c", "hex of 5 bytes");
	buildid__hex(id, 0, buf);
	CHECK_STR(buf, "", "hex of nothing");
}

static void test_linked(void)
{
	const char *want = getenv("FIXTURE_BUILDID");
	uint8_t id[BUILD_ID_MAX], small[8];
	char hex[2 * BUILD_ID_MAX + 1];
	int n;

	n = read_path(getenv("FIXTURE_EXE_BUILDID"), id, sizeof(id));
	CHECK(n == 20, "--build-id=0x...: 20 bytes (got %d)", n);
	if (n > 0) {
		buildid__hex(id, n, hex);
		CHECK_STR(hex, want, "--build-id=0x...: the id given to the linker");
	}
	n = read_path(getenv("FIXTURE_EXE_BUILDID"), small, sizeof(small));
	CHECK(n == 8, "a smaller buffer gets a truncated id (got %d)", n);
	if (n == 8) {
		buildid__hex(small, n, hex);
		CHECK(want && !strncmp(hex, want, 16), "truncated id is the id's prefix");
	}
	n = read_path(getenv("FIXTURE_EXE_NOBUILDID"), id, sizeof(id));
	CHECK(n == -ENOENT, "--build-id=none: -ENOENT (got %d)", n);
}

/*
 * A copy of @src in /tmp with @len bytes at @off replaced by @bytes; its path
 * (until the next copy), or NULL with nothing left behind.
 */
static char *copy_patched(const char *src, uint64_t off, const void *bytes, size_t len)
{
	static char path[64];
	char buf[1 << 16];
	ssize_t n = -1;
	int in, out;

	snprintf(path, sizeof(path), "/tmp/bpfprof-test-buildid-XXXXXX");
	in = src ? open(src, O_RDONLY | O_CLOEXEC) : -1;
	out = in >= 0 ? mkstemp(path) : -1;
	if (out >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0 && write(out, buf, n) == n)
			;
		if (!n && pwrite(out, bytes, len, off) != (ssize_t)len)
			n = -1;
		close(out);
		if (n)
			unlink(path);
	}
	if (in >= 0)
		close(in);
	return n ? NULL : path; /* n: 0 at the end of a whole copy */
}

/* @src's ELF header into @eh; false if it does not read. */
static bool read_ehdr(const char *src, Elf64_Ehdr *eh)
{
	int fd = src ? open(src, O_RDONLY | O_CLOEXEC) : -1;
	bool ok = fd >= 0 && pread(fd, eh, sizeof(*eh), 0) == sizeof(*eh);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A copy of @src with no section headers, in /tmp; returns its path or NULL. */
static char *copy_without_sections(const char *src)
{
	Elf64_Ehdr eh;

	if (!read_ehdr(src, &eh))
		return NULL;
	eh.e_shoff = 0;
	eh.e_shnum = 0;
	eh.e_shstrndx = 0;
	return copy_patched(src, 0, &eh, sizeof(eh));
}

/* The build-id of @path is @len bytes, @want in hex; @what names the case. */
static void check_id(const char *path, int len, const char *want, const char *what)
{
	char hex[2 * BUILD_ID_MAX + 1];
	uint8_t id[BUILD_ID_MAX];
	int n = read_path(path, id, sizeof(id));

	CHECK(n == len, "%s: %d bytes (got %d)", what, len, n);
	if (n > 0) {
		buildid__hex(id, n, hex);
		CHECK_STR(hex, want, "%s: the right id", what);
	}
}

static void test_segments_only(void)
{
	char *path = copy_without_sections(getenv("FIXTURE_EXE_BUILDID"));

	CHECK(path != NULL, "copy the fixture without section headers");
	if (!path)
		return;
	check_id(path, 20, getenv("FIXTURE_BUILDID"), "no section headers: from PT_NOTE");
	unlink(path);
}

static void test_section_only(void)
{
	/* the GNU note, not the decoy before it */
	check_id(getenv("FIXTURE_NOTE_OBJ"), 8, "feedface00112233",
		 "object without program headers: from SHT_NOTE");
}

/* A copy of @src whose ELF header names no section name table, in /tmp. */
static char *copy_without_names(const char *src)
{
	Elf64_Ehdr eh;

	if (!read_ehdr(src, &eh))
		return NULL;
	eh.e_shstrndx = SHN_UNDEF;
	return copy_patched(src, 0, &eh, sizeof(eh));
}

static void test_section_without_names(void)
{
	char *path = copy_without_names(getenv("FIXTURE_NOTE_OBJ"));

	CHECK(path != NULL, "copy the object without a section name table");
	if (!path)
		return;
	check_id(path, 8, "feedface00112233", "no section names: SHT_NOTE by its type");
	unlink(path);
}

/*
 * A copy of @src whose build-id note (in its first 4 KiB) says its descriptor
 * runs far past the end of its segment and section, in /tmp; its path or NULL.
 */
static char *copy_with_hostile_note(const char *src)
{
	static const uint8_t head[] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	static const uint32_t descsz = 0xfffffff0u;
	uint8_t buf[4096];
	int fd = src ? open(src, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n = fd >= 0 ? pread(fd, buf, sizeof(buf), 0) : -1;

	if (fd >= 0)
		close(fd);
	for (ssize_t i = 0; i + (ssize_t)sizeof(head) <= n; i += 4) {
		if (!memcmp(buf + i, head, sizeof(head)))
			return copy_patched(src, i + 4, &descsz, sizeof(descsz));
	}
	return NULL;
}

static void test_hostile_note(void)
{
	char *path = copy_with_hostile_note(getenv("FIXTURE_EXE_BUILDID"));
	uint8_t id[BUILD_ID_MAX];
	int n;

	CHECK(path != NULL, "copy the fixture with a build-id note too long");
	if (!path)
		return;
	n = read_path(path, id, sizeof(id));
	CHECK(n == -ENOENT, "a descriptor past its segment and section: -ENOENT (got %d)", n);
	unlink(path);
}

/* "Build ID: HEX" from binutils' readelf -n, or "" if it cannot be run. */
static void readelf_build_id(const char *path, char hex[2 * BUILD_ID_MAX + 1])
{
	char cmd[4096], line[1024];
	FILE *f;

	hex[0] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "Build ID: ");

		if (p && !hex[0])
			sscanf(p + strlen("Build ID: "), "%40s", hex);
	}
	pclose(f);
}

static void test_system_libc(void)
{
	static const char *const paths[] = { "/lib/x86_64-linux-gnu/libc.so.6",
					     "/lib64/libc.so.6", "/usr/lib/libc.so.6" };
	char want[2 * BUILD_ID_MAX + 1], got[2 * BUILD_ID_MAX + 1];
	const char *path = NULL;
	uint8_t id[BUILD_ID_MAX];
	size_t i;
	int n;

	for (i = 0; !path && i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (!access(paths[i], R_OK))
			path = paths[i];
	}
	if (path)
		readelf_build_id(path, want);
	if (!path || !want[0]) {
		CHECK(1, "system libc # SKIP no libc or no readelf");
		return;
	}
	n = read_path(path, id, sizeof(id));
	CHECK(n > 0, "%s: has a build-id (got %d)", path, n);
	if (n > 0) {
		buildid__hex(id, n, got);
		CHECK_STR(got, want, "%s: same build-id as readelf -n", path);
	}
}

/* Append a 4-byte-aligned note to @buf at *@off. */
static void note_put(uint8_t *buf, size_t *off, uint32_t type, const char *owner, size_t nlen,
		     const void *desc, uint32_t dlen)
{
	uint32_t h[3] = { nlen, dlen, type };

	memcpy(buf + *off, h, sizeof(h));
	*off += sizeof(h);
	memset(buf + *off, 0, (nlen + 3) & ~3u);
	memcpy(buf + *off, owner, nlen);
	*off += (nlen + 3) & ~3u;
	memset(buf + *off, 0, (dlen + 3) & ~3u);
	memcpy(buf + *off, desc, dlen);
	*off += (dlen + 3) & ~3u;
}

static void test_raw_notes(void)
{
	static const uint8_t want[] = { 0x48, 0xdc, 0x54, 0x0c, 0x8b, 0x76, 0x39 };
	uint8_t buf[256], id[BUILD_ID_MAX];
	size_t len = 0, decoys, good;
	int n;

	/* decoys: another owner, an owner "GNU" is a prefix of, another type */
	note_put(buf, &len, NT_GNU_BUILD_ID, "Linux", 6, "6.18", 5);
	note_put(buf, &len, NT_GNU_BUILD_ID, "GNUX", 5, "\1\2\3\4", 4);
	note_put(buf, &len, NT_GNU_ABI_TAG, "GNU", 4, "\0\0\0\0", 4);
	decoys = len;
	note_put(buf, &len, NT_GNU_BUILD_ID, "GNU", 4, want, sizeof(want));
	good = len;
	note_put(buf, &len, 0x12, "Xen", 4, "\0\0\0\0\0\0\0\0", 8);
	n = buildid__from_notes(buf, len, id, sizeof(id));
	CHECK(n == (int)sizeof(want) && !memcmp(id, want, sizeof(want)),
	      "raw notes: the GNU build-id among decoys, unpadded length (got %d)", n);
	n = buildid__from_notes(buf, len, id, 4);
	CHECK(n == 4 && !memcmp(id, want, 4), "raw notes: truncated to the room given");
	CHECK(buildid__from_notes(buf, good - 4, id, sizeof(id)) == -EINVAL,
	      "raw notes: the build-id note cut short: -EINVAL");
	CHECK(buildid__from_notes(buf, decoys, id, sizeof(id)) == -ENOENT,
	      "raw notes: only decoys: -ENOENT");
	CHECK(buildid__from_notes(buf, 0, id, sizeof(id)) == -ENOENT, "raw notes: empty: -ENOENT");
	CHECK(buildid__from_notes(buf, 7, id, sizeof(id)) == -ENOENT,
	      "raw notes: less than a header: -ENOENT");
	len = 0;
	note_put(buf, &len, NT_GNU_BUILD_ID, "GNU", 4, want, sizeof(want));
	memcpy(buf, &(uint32_t){ 0xfffffff0u }, 4); /* n_namesz */
	CHECK(buildid__from_notes(buf, len, id, sizeof(id)) == -EINVAL,
	      "raw notes: a name size past the end: -EINVAL");
	len = 0;
	note_put(buf, &len, NT_GNU_BUILD_ID, "GNU", 4, want, sizeof(want));
	memcpy(buf + 4, &(uint32_t){ 0xfffffffcu }, 4); /* n_descsz */
	CHECK(buildid__from_notes(buf, len, id, sizeof(id)) == -EINVAL,
	      "raw notes: a descriptor size past the end: -EINVAL");
	CHECK(buildid__from_notes(buf, len, id, 0) == -EINVAL, "raw notes: no room: -EINVAL");
}

static void test_errors(void)
{
	uint8_t id[BUILD_ID_MAX];
	int n;

	n = read_path(getenv("FIXTURE_KALLSYMS"), id, sizeof(id));
	CHECK(n == -ENOEXEC, "a text file: -ENOEXEC (got %d)", n);
	CHECK(buildid__read_fd(-1, id, sizeof(id)) == -EBADF, "bad descriptor: -EBADF");
	n = read_path(getenv("FIXTURE_EXE_BUILDID"), id, 0);
	CHECK(n == -EINVAL, "no room: -EINVAL (got %d)", n);
}

int main(void)
{
	test_hex();
	test_linked();
	test_segments_only();
	test_section_only();
	test_section_without_names();
	test_hostile_note();
	test_system_libc();
	test_raw_notes();
	test_errors();
	return check_done();
}
