// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Separate debug files: the CRC-32 check value, .gnu_debuglink parsing,
 * the build-id directory and the debuglink search, and names that only the
 * debug file has. Expected addresses come from nm, not from our ELF code.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"
#include "check.h"
#include "debugfile.h"
#include "elfsymtab.h"

static int copy_file(const char *from, const char *to, int corrupt)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	if (system(cmd))
		return -1;
	if (corrupt) {
		int fd = open(to, O_WRONLY);

		if (fd < 0 || pwrite(fd, "XXXX", 4, 64) != 4)
			return -1;
		close(fd);
	}
	return 0;
}

/* Address of @sym in @path, from nm. */
static uint64_t nm_addr(const char *path, const char *sym)
{
	char cmd[8192], line[512], name[256], type;
	unsigned long long addr = 0, a;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm '%s'", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, sym))
			addr = a;
	pclose(p);
	return addr;
}

/* debugfile__open on our side of @roots, for the binary at @fd mapped from @path */
static int debug_open(int fd, const char *path, const uint8_t *id, size_t len,
		      const char *const *roots)
{
	struct debugfile_where w = { .path = path, .root_fd = -1, .roots = roots };

	return debugfile__open(fd, id, len, &w);
}

static int open_env(const char *var)
{
	const char *path = getenv(var);

	return path ? open(path, O_RDONLY) : -1;
}

int main(void)
{
	const char *exe = getenv("FIXTURE_EXE_BUILDID"), *dbg = getenv("FIXTURE_DEBUG");
	const char *dl = getenv("FIXTURE_DEBUGLINK"), *hex = getenv("FIXTURE_BUILDID");
	const char *nowhere[] = { "/nonexistent", NULL };
	char tmp[] = "/tmp/bpfprof-debugfile-XXXXXX", path[4096], name[12288];
	uint8_t id[BUILD_ID_MAX], got[BUILD_ID_MAX];
	int fd, dfd, n, len = 0;
	uint32_t crc, want;
	struct elf_symtab *tab, *dtab;
	uint64_t vaddr;

	if (!exe || !dbg || !dl || !hex || !mkdtemp(tmp)) {
		printf("Bail out! fixtures missing (run through meson test)\n");
		return 1;
	}
	for (; hex[2 * len] && len < BUILD_ID_MAX; len++)
		sscanf(hex + 2 * len, "%2hhx", &id[len]);

	/* CRC-32's standard check value */
	snprintf(path, sizeof(path), "%s/check", tmp);
	fd = open(path, O_CREAT | O_RDWR, 0600);
	CHECK(fd >= 0 && write(fd, "123456789", 9) == 9, "write the check input");
	CHECK(!debugfile__crc(fd, &crc) && crc == 0xcbf43926u, "crc32(\"123456789\") = 0xcbf43926");
	close(fd);

	/* .gnu_debuglink names the debug file and carries its CRC */
	fd = open(dl, O_RDONLY);
	dfd = open(dbg, O_RDONLY);
	CHECK(!debugfile__link(fd, name, sizeof(name), &crc), "the stripped copy has a debuglink");
	CHECK_STR(name, "elf-fixture-buildid.debug", "the debuglink names the debug file");
	CHECK(!debugfile__crc(dfd, &want) && crc == want, "its CRC is the debug file's CRC-32");
	CHECK(debugfile__link(dfd, name, sizeof(name), &crc) == -ENOENT,
	      "a file without a debuglink says so");
	close(dfd);

	/* found through the debuglink, next to the binary */
	dfd = debug_open(fd, dl, NULL, 0, nowhere);
	n = dfd >= 0 ? buildid__read_fd(dfd, got, sizeof(got)) : -1;
	CHECK(dfd >= 0 && n == len && !memcmp(got, id, len),
	      "the debuglink leads to the debug file beside the binary");
	if (dfd >= 0)
		close(dfd);
	close(fd);

	/* a debug file whose CRC does not match is refused */
	snprintf(path, sizeof(path), "%s/bin", tmp);
	copy_file(dl, path, 0);
	snprintf(name, sizeof(name), "%s/elf-fixture-buildid.debug", tmp);
	copy_file(dbg, name, 1);
	fd = open(path, O_RDONLY);
	CHECK(debug_open(fd, path, NULL, 0, nowhere) == -ENOENT,
	      "a debug file with the wrong CRC is not taken");
	close(fd);
	/* ... and .debug/ beside the binary is searched */
	snprintf(name, sizeof(name), "%s/.debug", tmp);
	mkdir(name, 0700);
	snprintf(name, sizeof(name), "%s/.debug/elf-fixture-buildid.debug", tmp);
	copy_file(dbg, name, 0);
	fd = open(path, O_RDONLY);
	dfd = debug_open(fd, path, NULL, 0, nowhere);
	CHECK(dfd >= 0, "the .debug/ directory beside the binary is searched");
	if (dfd >= 0)
		close(dfd);
	close(fd);

	/* the build-id directory under a debug root */
	const char *root[] = { tmp, NULL };
	snprintf(name, sizeof(name), "%s/.build-id", tmp);
	mkdir(name, 0700);
	snprintf(name, sizeof(name), "%s/.build-id/%.2s", tmp, hex);
	mkdir(name, 0700);
	snprintf(name, sizeof(name), "%s/.build-id/%.2s/%s.debug", tmp, hex, hex + 2);
	copy_file(getenv("FIXTURE_EXE"), name, 0);
	fd = open_env("FIXTURE_EXE_BUILDID");
	CHECK(debug_open(fd, NULL, id, len, root) == -ENOENT,
	      "a build-id path holding another build-id is not taken");
	copy_file(dbg, name, 0);
	dfd = debug_open(fd, NULL, id, len, root);
	CHECK(dfd >= 0, "ROOT/.build-id/xx/rest.debug is found by build-id");

	/* names only the debug file has; translation through the binary */
	close(fd);
	fd = open(dl, O_RDONLY);
	tab = elf_symtab__load_fd(fd);
	dtab = dfd >= 0 ? elf_symtab__load_fd(dfd) : NULL;
	vaddr = nm_addr(exe, "fx_after");
	CHECK(vaddr != 0, "nm finds fx_after in the unstripped fixture");
	CHECK(tab && !elf_symtab__lookup(tab, vaddr, NULL),
	      "the stripped binary alone has no name for it");
	CHECK_STR(dtab ? elf_symtab__lookup(dtab, vaddr + 1, NULL) : NULL, "fx_after",
		  "the debug file names it");
	elf_symtab__free(tab);
	elf_symtab__free(dtab);
	if (dfd >= 0)
		close(dfd);
	close(fd);

	/* MiniDebugInfo: .gnu_debugdata holds an xz-compressed ELF with the symbols */
	void *image = NULL;
	size_t size = 0;

	fd = open_env("FIXTURE_MINIDEBUG");
	tab = elf_symtab__load_fd(fd);
	CHECK(tab && !elf_symtab__lookup(tab, vaddr, NULL),
	      "the MiniDebugInfo fixture itself is stripped");
	elf_symtab__free(tab);
	CHECK(debugfile__minidebuginfo(fd, &image, &size) == 0 && size > 64 &&
	      !memcmp(image, "\177ELF", 4), ".gnu_debugdata decompresses to an ELF image");
	dtab = image ? elf_symtab__load_mem(image, size) : NULL;
	free(image);
	CHECK_STR(dtab ? elf_symtab__lookup(dtab, vaddr + 1, NULL) : NULL, "fx_after",
		  "its symbol table names what the stripped binary cannot");
	elf_symtab__free(dtab);
	close(fd);
	fd = open(dl, O_RDONLY);
	CHECK(debugfile__minidebuginfo(fd, &image, &size) == -ENOENT,
	      "a binary without .gnu_debugdata: -ENOENT");
	close(fd);
	snprintf(path, sizeof(path), "%s/junk.xz", tmp);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0 && write(fd, "not xz at all", 13) == 13, "write a bogus section");
	close(fd);
	snprintf(name, sizeof(name),
		 "objcopy --add-section .gnu_debugdata='%s' '%s' '%s/junkbin'", path, dl, tmp);
	CHECK(system(name) == 0, "embed it as .gnu_debugdata");
	snprintf(path, sizeof(path), "%s/junkbin", tmp);
	fd = open(path, O_RDONLY);
	CHECK(debugfile__minidebuginfo(fd, &image, &size) == -EINVAL,
	      "a .gnu_debugdata that is not xz: -EINVAL");
	close(fd);

	/* debuginfod: never a client without DEBUGINFOD_URLS (nothing in its cache) */
	snprintf(path, sizeof(path), "%s/dcache", tmp);
	setenv("DEBUGINFOD_CACHE_PATH", path, 1);
	unsetenv("DEBUGINFOD_URLS");
	CHECK(debugfile__debuginfod(id, len, NULL) == -ENOENT,
	      "debuginfod, DEBUGINFOD_URLS unset: -ENOENT");
	setenv("DEBUGINFOD_URLS", "", 1);
	CHECK(debugfile__debuginfod(id, len, NULL) == -ENOENT,
	      "debuginfod, DEBUGINFOD_URLS empty: -ENOENT");
	CHECK(access(path, F_OK) && errno == ENOENT, "no server asked, no cache made");
	/* port 1 on loopback: nothing listens, refused at once */
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:1", 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	setenv("DEBUGINFOD_RETRY_LIMIT", "0", 1);
	n = debugfile__debuginfod(id, len, NULL);
	CHECK(n < 0, "debuginfod, no server listening: an error, not an fd (%d)", n);
	unsetenv("DEBUGINFOD_URLS");

	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path))
		return 1;
	return check_done();
}
