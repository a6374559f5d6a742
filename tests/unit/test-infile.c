// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Files read from outside: a FIFO, a device, a directory are refused
 * without blocking, a symlink inside a root stays inside it, a read that
 * would pass its bound fails.
 */
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array.h"
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

/*
 * infile__open_in(@root, @path) in a child where openat2 fails with ENOSYS,
 * as on a kernel before 5.6 (a seccomp filter): its result.
 */
static int open_in_without_openat2(int root, const char *path)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(f), .filter = f };
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(100);
		_exit(-infile__open_in(root, path, &fd));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return -WEXITSTATUS(status);
}

int main(void)
{
	char *buf = NULL, cmd[256];
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
	CHECK(open_in_without_openat2(root, "/etc/inside") == -ENOSYS,
	      "without openat2 (Linux < 5.6): -ENOSYS, no unsafe fallback");
	close(root);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		return 1;
	return check_done();
}
