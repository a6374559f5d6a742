// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Output files (outfile.h): an O_TMPFILE in the target's directory,
 * fsynced, linked under a short temporary name and renamed over the target
 * once complete. A FIFO is opened O_NONBLOCK (no reader: an error), then
 * made blocking; whatever is written in place has its type checked again
 * on the opened fd. The stream is an fopencookie over the fd that keeps the
 * first write error, so a full disk is reported as ENOSPC, not as the
 * writer's EIO; standard output is named "standard output" in messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* How the name is written. */
enum outfile_kind {
	OUTFILE_STDOUT,  /* standard output, flushed */
	OUTFILE_REPLACE, /* a new file renamed over the name when complete */
	OUTFILE_DIRECT,  /* written in place: a character device, a FIFO, an fd link */
};

struct outfile {
	FILE *stream;
	enum outfile_kind kind;
	char *name;      /* for messages: "'PATH'" or "standard output" */
	int fd;          /* under the stream */
	int dirfd;       /* OUTFILE_REPLACE: the directory, O_PATH */
	char *base;      /* OUTFILE_REPLACE: the name in it */
	char tmp[64];    /* OUTFILE_REPLACE: the temporary name, when one was made */
	bool named_tmp;  /* no O_TMPFILE here: tmp exists from the start */
	int err;         /* the first write error, -errno */
	bool committed;
};

static unsigned int outfile__seq;

static int outfile__fail(char *why, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && size) {
		va_start(ap, fmt);
		vsnprintf(why, size, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int outfile__fail_errno(char *why, size_t size, int err)
{
	return outfile__fail(why, size, err, "%s", strerror(-err));
}

/* ---- the stream: every write error kept as it came ---- */

static ssize_t outfile__write(void *cookie, const char *buf, size_t len)
{
	struct outfile *of = cookie;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(of->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!of->err)
				of->err = n < 0 ? -errno : -EIO;
			errno = -of->err;
			return 0;
		}
		done += n;
	}
	return done;
}

static int outfile__close_fd(void *cookie)
{
	struct outfile *of = cookie;
	int fd = of->fd;

	of->fd = -1;
	if (fd < 0 || fd == STDOUT_FILENO)
		return 0;
	if (close(fd) && errno != EINTR) {
		if (!of->err)
			of->err = -errno;
		return -1;
	}
	return 0;
}

static int outfile__stream_open(struct outfile *of)
{
	cookie_io_functions_t io = { .write = outfile__write, .close = outfile__close_fd };

	of->stream = fopencookie(of, "w", io);
	return of->stream ? 0 : -errno;
}

/* ---- the checks ---- */

/* An empty name, a path or a component too long: before anything is opened. */
static int outfile__check_name(const char *path, char *why, size_t size)
{
	const char *p = path, *end;

	if (!*path)
		return outfile__fail(why, size, -ENOENT, "the file name is empty");
	if (strlen(path) >= PATH_MAX)
		return outfile__fail(why, size, -ENAMETOOLONG,
				     "the path is %zu bytes long; the limit is %d (PATH_MAX)",
				     strlen(path), PATH_MAX - 1);
	for (; *p; p = end) {
		while (*p == '/')
			p++;
		end = strchrnul(p, '/');
		if (end - p > NAME_MAX)
			return outfile__fail(why, size, -ENAMETOOLONG,
					     "a name in the path is %td bytes long; the limit "
					     "is %d (NAME_MAX)",
					     end - p, NAME_MAX);
	}
	return 0;
}

/*
 * The kernel's fs.protected_symlinks rule (fs/namei.c, may_follow_link),
 * which protected_fifos and protected_regular follow too: what is in a
 * sticky world-writable directory is trusted only when we own it, or the
 * directory's owner does. Another user may have planted it there.
 */
static bool outfile__trusted(const struct stat *dir, const struct stat *st)
{
	if (st->st_uid == geteuid())
		return true;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return dir->st_uid == st->st_uid;
}

/* @path's directory is a process's fd directory (/proc/PID/fd, /dev/fd). */
static bool outfile__in_fd_dir(const char *path)
{
	char *copy = strdup(path), *real = NULL;
	bool in = false;

	if (copy)
		real = realpath(dirname(copy), NULL);
	if (real)
		in = !fnmatch("/proc/*/fd", real, FNM_PATHNAME) ||
		     !fnmatch("/proc/*/task/*/fd", real, FNM_PATHNAME);
	free(real);
	free(copy);
	return in;
}

/*
 * @path is, or leads through symlinks to, a file descriptor's link
 * (/dev/stdout, /dev/fd/1, /proc/self/fd/1): what the shell opened.
 */
static bool outfile__is_fd_link(const char *path)
{
	char cur[PATH_MAX], target[PATH_MAX], *copy;
	ssize_t n;

	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return false;
	for (int hop = 0; hop < 40; hop++) {
		if (outfile__in_fd_dir(cur))
			return true;
		n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0)
			return false;
		target[n] = '\0';
		if (target[0] == '/') {
			memcpy(cur, target, n + 1);
			continue;
		}
		copy = strdup(cur);
		if (!copy)
			return false;
		n = snprintf(cur, sizeof(cur), "%s/%s", dirname(copy), target);
		free(copy);
		if (n >= (ssize_t)sizeof(cur))
			return false;
	}
	return false;
}

static int outfile__refuse_type(mode_t mode, char *why, size_t size)
{
	if (S_ISDIR(mode))
		return outfile__fail_errno(why, size, -EISDIR);
	if (S_ISBLK(mode) || S_ISSOCK(mode))
		return outfile__fail(why, size, -EINVAL,
				     "it is a %s; expected a regular file, a character "
				     "device or a FIFO",
				     S_ISBLK(mode) ? "block device" : "socket");
	return 0;
}

/* ---- opening ---- */

/*
 * Write in place: a character device, a FIFO (opened without blocking: no
 * reader is an error, not a hang), a file descriptor's link (appended to).
 * The type is checked again on what was opened.
 */
static int outfile__open_direct(struct outfile *of, const char *path, bool follow,
				char *why, size_t size)
{
	int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat st;
	int err;

	of->kind = OUTFILE_DIRECT;
	of->fd = open(path, flags | (follow ? O_APPEND : O_NOFOLLOW));
	if (of->fd < 0 && errno == ENXIO)
		return outfile__fail(why, size, -ENXIO,
				     "no reader on the FIFO (start the reader first)");
	if (of->fd < 0)
		return outfile__fail_errno(why, size, -errno);
	if (fstat(of->fd, &st))
		return outfile__fail_errno(why, size, -errno);
	err = outfile__refuse_type(st.st_mode, why, size);
	if (err)
		return err;
	if (S_ISREG(st.st_mode) && !follow)
		return outfile__fail(why, size, -EAGAIN, "it changed while being opened");
	if (fcntl(of->fd, F_SETFL, fcntl(of->fd, F_GETFL) & ~O_NONBLOCK))
		return outfile__fail_errno(why, size, -errno);
	return 0;
}

/*
 * An unnamed file in the directory, given @old's permission bits and
 * owner when it replaces a file, else 0666 & ~umask (the kernel applies
 * the umask). Filesystems without O_TMPFILE get a hidden temporary name.
 */
static int outfile__open_replace(struct outfile *of, const struct stat *old, char *why,
				 size_t size)
{
	of->kind = OUTFILE_REPLACE;
	of->fd = openat(of->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	while (of->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL ||
			      (of->named_tmp && errno == EEXIST))) {
		of->named_tmp = true;
		snprintf(of->tmp, sizeof(of->tmp), ".bpfprof-%d-%u", getpid(),
			 __atomic_fetch_add(&outfile__seq, 1, __ATOMIC_RELAXED));
		of->fd = openat(of->dirfd, of->tmp,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	}
	if (of->fd < 0) {
		of->named_tmp = false;
		return outfile__fail_errno(why, size, -errno);
	}
	if (!old)
		return 0;
	/* without CAP_CHOWN another user's file cannot stay theirs: it is ours then */
	if (fchown(of->fd, old->st_uid, old->st_gid) && errno != EPERM)
		return outfile__fail_errno(why, size, -errno);
	if (fchmod(of->fd, old->st_mode & 0777))
		return outfile__fail_errno(why, size, -errno);
	return 0;
}

static int outfile__open_dir(struct outfile *of, const char *path, char *why, size_t size)
{
	char *copy = strdup(path), *copy2 = strdup(path);
	int err = 0;

	if (!copy || !copy2) {
		err = outfile__fail_errno(why, size, -ENOMEM);
		goto out;
	}
	of->base = strdup(basename(copy));
	of->dirfd = open(dirname(copy2), O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!of->base)
		err = outfile__fail_errno(why, size, -ENOMEM);
	else if (of->dirfd < 0)
		err = outfile__fail_errno(why, size, -errno);
out:
	free(copy);
	free(copy2);
	return err;
}

/* @path after its name was checked: see outfile.h for what each kind gets. */
static int outfile__open_path(struct outfile *of, const char *path, int depth, char *why,
			      size_t size)
{
	struct stat st, dir, target;
	bool trusted;
	char *real;
	int err;

	err = outfile__open_dir(of, path, why, size);
	if (err)
		return err;
	if (fstatat(of->dirfd, of->base, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? outfile__open_replace(of, NULL, why, size) :
					 outfile__fail_errno(why, size, -errno);
	if (fstat(of->dirfd, &dir))
		return outfile__fail_errno(why, size, -errno);
	trusted = outfile__trusted(&dir, &st);
	/* a planted file or FIFO: replaced by a new file of ours, nothing kept */
	if (S_ISREG(st.st_mode) || (S_ISFIFO(st.st_mode) && !trusted))
		return outfile__open_replace(of, trusted ? &st : NULL, why, size);
	if (!S_ISLNK(st.st_mode)) {
		err = outfile__refuse_type(st.st_mode, why, size);
		return err ?: outfile__open_direct(of, path, false, why, size);
	}
	if (outfile__is_fd_link(path))
		return outfile__open_direct(of, path, true, why, size);
	/* a symlink root must not follow, or one to nothing: replaced */
	if (!trusted || (stat(path, &target) && errno == ENOENT))
		return outfile__open_replace(of, NULL, why, size);
	if (stat(path, &target))
		return outfile__fail_errno(why, size, -errno);
	if (!S_ISREG(target.st_mode)) {
		err = outfile__refuse_type(target.st_mode, why, size);
		return err ?: outfile__open_direct(of, path, true, why, size);
	}
	/* a regular file: replaced where the symlink leads */
	real = depth ? NULL : realpath(path, NULL);
	if (!real)
		return outfile__fail_errno(why, size, depth ? -ELOOP : -errno);
	close(of->dirfd);
	of->dirfd = -1;
	free(of->base);
	of->base = NULL;
	err = outfile__open_path(of, real, depth + 1, why, size);
	free(real);
	return err;
}

struct outfile *outfile__open(const char *path, char *why, size_t size)
{
	struct outfile *of = calloc(1, sizeof(*of));
	int err;

	if (!of)
		return NULL;
	of->fd = -1;
	of->dirfd = -1;
	if (!path || !strcmp(path, "-")) {
		of->kind = OUTFILE_STDOUT;
		of->fd = STDOUT_FILENO;
		of->name = strdup("standard output");
	} else if (asprintf(&of->name, "'%s'", path) < 0) {
		of->name = NULL;
	}
	err = of->name ? 0 : outfile__fail_errno(why, size, -ENOMEM);
	if (!err && path && strcmp(path, "-")) {
		err = outfile__check_name(path, why, size);
		err = err ?: outfile__open_path(of, path, 0, why, size);
	}
	err = err ?: outfile__stream_open(of);
	if (!err)
		return of;
	outfile__free(of);
	errno = -err;
	return NULL;
}

FILE *outfile__stream(struct outfile *of)
{
	return of->stream;
}

const char *outfile__name(const struct outfile *of)
{
	return of->name;
}

int outfile__error(const struct outfile *of)
{
	return of->err;
}

/* Name the O_TMPFILE (or the hidden file), then move it over the name at once. */
static int outfile__link(struct outfile *of)
{
	char proc[64];

	if (!of->named_tmp) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", of->fd);
		for (;;) {
			snprintf(of->tmp, sizeof(of->tmp), ".bpfprof-%d-%u", getpid(),
				 __atomic_fetch_add(&outfile__seq, 1, __ATOMIC_RELAXED));
			if (!linkat(AT_FDCWD, proc, of->dirfd, of->tmp, AT_SYMLINK_FOLLOW))
				break;
			if (errno != EEXIST)
				return -errno;
		}
		of->named_tmp = true;
	}
	if (renameat(of->dirfd, of->tmp, of->dirfd, of->base))
		return -errno;
	of->named_tmp = false;
	return 0;
}

int outfile__commit(struct outfile *of)
{
	int err;

	if (fflush(of->stream) && !of->err)
		of->err = errno ? -errno : -EIO;
	if (of->err)
		return of->err;
	if (of->kind == OUTFILE_REPLACE && fsync(of->fd))
		return -errno;
	if (of->kind == OUTFILE_REPLACE) {
		err = outfile__link(of);
		if (err)
			return err;
	}
	/* a FIFO or device reports its last error at close */
	err = fclose(of->stream);
	of->stream = NULL;
	if (err && !of->err)
		of->err = errno ? -errno : -EIO;
	if (of->err)
		return of->err;
	of->committed = true;
	return 0;
}

void outfile__free(struct outfile *of)
{
	if (!of)
		return;
	if (of->stream)
		fclose(of->stream);
	else
		outfile__close_fd(of);
	if (of->named_tmp)
		unlinkat(of->dirfd, of->tmp, 0);
	if (of->dirfd >= 0)
		close(of->dirfd);
	free(of->base);
	free(of->name);
	free(of);
}
