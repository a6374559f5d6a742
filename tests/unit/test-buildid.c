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

/* A copy of @src with no section headers, in /tmp; returns its path or NULL. */
static char *copy_without_sections(const char *src)
{
	static char path[] = "/tmp/bpfprof-test-buildid-XXXXXX";
	char buf[1 << 16];
	Elf64_Ehdr eh;
	int in, out;
	ssize_t n;

	in = src ? open(src, O_RDONLY | O_CLOEXEC) : -1;
	out = in >= 0 ? mkstemp(path) : -1;
	if (out < 0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n)
			goto fail;
	}
	if (pread(out, &eh, sizeof(eh), 0) != sizeof(eh))
		goto fail;
	eh.e_shoff = 0;
	eh.e_shnum = 0;
	eh.e_shstrndx = 0;
	if (pwrite(out, &eh, sizeof(eh), 0) != sizeof(eh))
		goto fail;
	close(in);
	close(out);
	return path;
fail:
	if (in >= 0)
		close(in);
	if (out >= 0) {
		close(out);
		unlink(path);
	}
	return NULL;
}

static void test_segments_only(void)
{
	char *path = copy_without_sections(getenv("FIXTURE_EXE_BUILDID"));
	char hex[2 * BUILD_ID_MAX + 1];
	uint8_t id[BUILD_ID_MAX];
	int n;

	CHECK(path != NULL, "copy the fixture without section headers");
	if (!path)
		return;
	n = read_path(path, id, sizeof(id));
	CHECK(n == 20, "no section headers: id from PT_NOTE (got %d)", n);
	if (n > 0) {
		buildid__hex(id, n, hex);
		CHECK_STR(hex, getenv("FIXTURE_BUILDID"), "no section headers: right id");
	}
	unlink(path);
}

static void test_section_only(void)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	int n;

	n = read_path(getenv("FIXTURE_NOTE_OBJ"), id, sizeof(id));
	CHECK(n == 8, "object without program headers: 8-byte id from SHT_NOTE (got %d)",
	      n);
	if (n > 0) {
		buildid__hex(id, n, hex);
		CHECK_STR(hex, "feedface00112233",
			  "the GNU note, not the decoy before it");
	}
}

/* A copy of @src whose ELF header names no section name table, in /tmp. */
static char *copy_without_names(const char *src)
{
	static char path[] = "/tmp/bpfprof-test-buildid-XXXXXX";
	char cmd[8192];
	Elf64_Ehdr eh;
	int fd = src ? mkstemp(path) : -1, ok = 0;

	if (fd < 0)
		return NULL;
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, path);
	fd = system(cmd) ? -1 : open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && pread(fd, &eh, sizeof(eh), 0) == sizeof(eh)) {
		eh.e_shstrndx = SHN_UNDEF;
		ok = pwrite(fd, &eh, sizeof(eh), 0) == sizeof(eh);
	}
	if (fd >= 0)
		close(fd);
	if (!ok) {
		unlink(path);
		return NULL;
	}
	return path;
}

static void test_section_without_names(void)
{
	char *path = copy_without_names(getenv("FIXTURE_NOTE_OBJ"));
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	int n;

	CHECK(path != NULL, "copy the object without a section name table");
	if (!path)
		return;
	n = read_path(path, id, sizeof(id));
	CHECK(n == 8, "no section names: the SHT_NOTE found by its type (got %d)", n);
	if (n > 0) {
		buildid__hex(id, n, hex);
		CHECK_STR(hex, "feedface00112233", "no section names: right id");
	}
	unlink(path);
}

/*
 * A copy of @src whose build-id note says its descriptor runs far past the end
 * of its segment and section, in /tmp; its path or NULL.
 */
static char *copy_with_hostile_note(const char *src)
{
	static const uint8_t head[] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	static char path[] = "/tmp/bpfprof-test-buildid-XXXXXX";
	uint8_t buf[4096];
	char cmd[8192];
	int fd = src ? mkstemp(path) : -1, ok = 0;
	ssize_t n;

	if (fd < 0)
		return NULL;
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, path);
	fd = system(cmd) ? -1 : open(path, O_RDWR | O_CLOEXEC);
	n = fd >= 0 ? pread(fd, buf, sizeof(buf), 0) : -1;
	for (ssize_t i = 0; !ok && i + (ssize_t)sizeof(head) <= n; i += 4) {
		if (!memcmp(buf + i, head, sizeof(head)))
			ok = pwrite(fd, &(uint32_t){ 0xfffffff0u }, 4, i + 4) == 4;
	}
	if (fd >= 0)
		close(fd);
	if (!ok) {
		unlink(path);
		return NULL;
	}
	return path;
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
