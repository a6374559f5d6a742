// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Files from outside (infile.h): O_PATH, fstat, S_ISREG only (else
 * -INFILE_ENOTREG, "not a regular file"), then the same inode reopened
 * through /proc/self/fd/N with O_NONBLOCK|O_NOCTTY, O_NONBLOCK cleared
 * after. Without openat2 (before 5.6) infile__open_in fails with -ENOSYS
 * and nothing is read by a path inside a process's root: there is no safe
 * fallback. Whole-file reads take a bound from the caller (/proc/kallsyms:
 * 1 GiB); decompression is bounded by the compressed size where bpfprof
 * does it (MiniDebugInfo, debugfile.c; a saved pprof's gzip, pprofread.c,
 * counted before anything is held) and before libelf does it
 * (elf_scn__unpack_bounded).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "infile.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/*
 * Reopen the O_PATH fd @pfd (closed here) for reading if it is a regular
 * file. Through /proc/self/fd the very inode @pfd names is opened: the
 * path is not looked up again.
 */
static int infile__reopen(int pfd, int *fd)
{
	char self[64];
	struct stat a, b;
	int rfd, err = 0;

	if (fstat(pfd, &a)) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(a.st_mode)) {
		err = -INFILE_ENOTREG;
		goto out;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	rfd = open(self, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (rfd < 0) {
		err = -errno;
		goto out;
	}
	if (fstat(rfd, &b) || b.st_ino != a.st_ino || b.st_dev != a.st_dev) {
		close(rfd);
		err = -EAGAIN;
		goto out;
	}
	/* a regular file never blocks: plain reads from here on */
	fcntl(rfd, F_SETFL, fcntl(rfd, F_GETFL) & ~O_NONBLOCK);
	*fd = rfd;
out:
	close(pfd);
	return err;
}

int infile__open(const char *path, int *fd)
{
	int pfd = open(path, O_PATH | O_CLOEXEC);

	return pfd < 0 ? -errno : infile__reopen(pfd, fd);
}

int infile__open_in(int root_fd, const char *path, int *fd)
{
	return infile__open_in_flags(root_fd, path, 0, fd);
}

int infile__open_in_flags(int root_fd, const char *path, int flags, int *fd)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (flags & O_NOFOLLOW),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long pfd = syscall(SYS_openat2, root_fd, path, &how, sizeof(how));

	return pfd < 0 ? -errno : infile__reopen(pfd, fd);
}

int infile__open_root(const char *path, int *fd)
{
	int rfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (rfd < 0)
		return -errno;
	*fd = rfd;
	return 0;
}

int infile__read_all(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 0, n = 0;
	char *b = NULL;
	size_t want;
	ssize_t r;

	for (;;) {
		if (array__grow((void **)&b, &cap, n + 4097, 1)) {
			free(b);
			return -ENOMEM;
		}
		want = cap - n - 1;
		if (max - n < want) /* one byte past @max tells a larger file */
			want = max - n + 1;
		r = read(fd, b + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(b);
			return r;
		}
		if (!r)
			break;
		n += r;
		if (n > max) {
			free(b);
			return -EFBIG;
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

const char *infile__strerror(int err)
{
	return err == -INFILE_ENOTREG ? "not a regular file" : strerror(-err);
}
