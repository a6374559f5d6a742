// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Files read from outside: a FIFO, a device, a directory are refused
 * without blocking, a symlink inside a root stays inside it, a read that
 * would pass its bound fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "infile.h"

static char dir[] = "/tmp/test-infile-XXXXXX";

static const char *at(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	int fd = -1, root = -1, err;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	write_file(at("plain"), "hello\n");
	mkfifo(at("fifo"), 0600);
	if (symlink("/dev/zero", at("zero")) || symlink(at("plain"), at("link")))
		return 1;

	err = infile__open(at("plain"), &fd);
	CHECK(!err && fd >= 0, "a regular file opens");
	CHECK(!err && !(fcntl(fd, F_GETFL) & O_NONBLOCK), "and reads blocking");
	err = err ?: infile__read_all(fd, 100, &buf, &len);
	CHECK(!err && len == 6 && !strcmp(buf, "hello\n"), "and is read whole");
	free(buf);
	buf = NULL;
	CHECK(infile__read_all(fd, 100, &buf, &len) == 0 && len == 0, "from where it is");
	free(buf);
	buf = NULL;
	lseek(fd, 0, SEEK_SET);
	CHECK(infile__read_all(fd, 5, &buf, &len) == -EFBIG && !buf, "a file past the bound: -EFBIG");
	lseek(fd, 0, SEEK_SET);
	CHECK(infile__read_all(fd, 6, &buf, &len) == 0 && len == 6, "a file at the bound is read");
	free(buf);
	close(fd);

	CHECK(infile__open(at("fifo"), &fd) == -INFILE_ENOTREG, "a FIFO: refused, not waited on");
	CHECK(infile__open(at("zero"), &fd) == -INFILE_ENOTREG, "a symlink to /dev/zero: refused");
	CHECK(infile__open(dir, &fd) == -INFILE_ENOTREG, "a directory: refused");
	CHECK(infile__open(at("none"), &fd) == -ENOENT, "a missing file: -ENOENT");
	CHECK_STR(infile__strerror(-INFILE_ENOTREG), "not a regular file", "its message");
	CHECK(infile__open(at("link"), &fd) == 0, "a symlink to a regular file opens");
	close(fd);

	/* a root: /abs inside it, an absolute symlink and ".." stay below it */
	mkdir(at("root"), 0700);
	mkdir(at("root/etc"), 0700);
	write_file(at("root/etc/inside"), "in root\n");
	if (symlink("/etc/passwd", at("root/escape")) || symlink("../../plain", at("root/up")) ||
	    symlink("/etc/inside", at("root/abs")) || symlink("/proc/self/root/etc/passwd", at("root/magic")))
		return 1;
	CHECK(infile__open_root(at("root"), &root) == 0, "a root opens");
	err = infile__open_in(root, "/etc/inside", &fd);
	CHECK(!err, "an absolute path inside the root opens");
	if (!err)
		close(fd);
	err = infile__open_in(root, "/abs", &fd);
	CHECK(!err, "an absolute symlink resolves inside the root");
	if (!err) {
		CHECK(infile__read_all(fd, 100, &buf, &len) == 0 && !strcmp(buf, "in root\n"),
		      "to the root's file");
		free(buf);
		buf = NULL;
		close(fd);
	}
	CHECK(infile__open_in(root, "/escape", &fd) == -ENOENT,
	      "a symlink to a host file stays inside the root (no /etc/passwd there)");
	CHECK(infile__open_in(root, "/up", &fd) == -ENOENT, "\"..\" stays inside the root");
	CHECK(infile__open_in(root, "/magic", &fd) < 0, "no magic link is followed");
	close(root);
	return check_done();
}
