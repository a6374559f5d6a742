// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Output files (outfile.h): the target's directory opened once (O_PATH),
 * its owner and mode and the last name checked through that descriptor; a
 * symlink there is followed only where no other user could have planted it
 * (a directory only root or our euid can write, or root's link in root's
 * sticky one), its target checked again the same way. Then an O_TMPFILE in
 * that directory,
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
#include <pwd.h>
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

/* Symlinks followed from the name to the file, as the kernel's MAXSYMLINKS. */
#define OUTFILE_MAX_LINKS 40

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

/* Root or bpfprof's own user: whoever else owns a file may have planted it. */
static bool outfile__ours(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * The kernel's fs.protected_fifos and protected_regular rule (fs/namei.c):
 * what is in a sticky world-writable directory is trusted only when we
 * own it, or the directory's owner does. Another user may have planted it
 * there.
 */
static bool outfile__trusted(const struct stat *dir, const struct stat *st)
{
	if (st->st_uid == geteuid())
		return true;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return dir->st_uid == st->st_uid;
}

/* What becomes of a symlink that is the name's last component. */
enum outfile_link {
	OUTFILE_FOLLOW,       /* no other user can have put it there or changed it */
	OUTFILE_REPLACE_LINK, /* another user's, in our sticky directory: replaced */
	OUTFILE_REFUSE,       /* in a directory another user can write */
};

/*
 * fs.protected_symlinks everywhere, not only in sticky directories: a
 * symlink is followed only in a directory that root (or we) owns and
 * nobody else can write (no group or other write bit; an ACL's mask shows
 * as the group's), or in a sticky one of ours when the link is ours too
 * (nobody else may rename or remove it there). Another user's link in a
 * sticky directory of ours is replaced (it goes, its target stays); in a
 * directory another user owns or can write, a link is refused.
 */
static enum outfile_link outfile__link_rule(const struct stat *dir, const struct stat *ln)
{
	if (!outfile__ours(dir->st_uid))
		return OUTFILE_REFUSE;
	if (!(dir->st_mode & (S_IWGRP | S_IWOTH)))
		return OUTFILE_FOLLOW;
	if (!(dir->st_mode & S_ISVTX))
		return OUTFILE_REFUSE;
	return outfile__ours(ln->st_uid) ? OUTFILE_FOLLOW : OUTFILE_REPLACE_LINK;
}

/* @via: the target of the link followed to it, NULL for the name itself. */
static int outfile__refuse_link(const struct stat *ln, const char *via, char *why,
				size_t size)
{
	char buf[1024], name[64] = "";
	struct passwd pw, *found = NULL;

	/* a user's name, when it is one that needs no escaping */
	if (!getpwuid_r(ln->st_uid, &pw, buf, sizeof(buf), &found) && found &&
	    strlen(found->pw_name) < sizeof(name) - 1 &&
	    strspn(found->pw_name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789._-") == strlen(found->pw_name))
		snprintf(name, sizeof(name), "%s ", found->pw_name);
	return outfile__fail(why, size, -ELOOP,
			     "%s%s%sa symbolic link owned by %s(uid %u) in a directory "
			     "other users can write; refusing to follow it",
			     via ? "it leads to '" : "it is ", via ?: "", via ? "', " : "",
			     name, (unsigned int)ln->st_uid);
}

/* @dirfd is a process's fd directory (/proc/PID/fd): its links are fds. */
static bool outfile__fd_dir(int dirfd)
{
	char proc[64], real[PATH_MAX];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dirfd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n < 0)
		return false;
	real[n] = '\0';
	return !fnmatch("/proc/*/fd", real, FNM_PATHNAME) ||
	       !fnmatch("/proc/*/task/*/fd", real, FNM_PATHNAME);
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
 * reader is an error, not a hang), a file descriptor's link (@fd_link:
 * followed, appended to). The type is checked again on what was opened.
 */
static int outfile__open_direct(struct outfile *of, bool fd_link, char *why, size_t size)
{
	int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat st;
	int err;

	of->kind = OUTFILE_DIRECT;
	of->fd = openat(of->dirfd, of->base, flags | (fd_link ? O_APPEND : O_NOFOLLOW));
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
	if (S_ISREG(st.st_mode) && !fd_link)
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

/*
 * @path (or a link's target, relative to the directory @at holds) as its
 * directory, O_PATH, and its last name in it.
 */
static int outfile__open_dir(struct outfile *of, int at, const char *path)
{
	char *copy = strdup(path), *copy2 = strdup(path);
	int err = 0, dirfd = -1;

	if (!copy || !copy2) {
		err = -ENOMEM;
		goto out;
	}
	dirfd = openat(at, dirname(copy2), O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		err = -errno;
		goto out;
	}
	free(of->base);
	of->base = strdup(basename(copy));
	if (of->dirfd >= 0)
		close(of->dirfd);
	of->dirfd = dirfd;
	if (!of->base)
		err = -ENOMEM;
out:
	free(copy);
	free(copy2);
	return err;
}

/*
 * The symlink @of->base in @of->dirfd: its target (into @target, PATH_MAX
 * bytes) and the target's directory and name instead.
 */
static int outfile__descend(struct outfile *of, char *target)
{
	ssize_t n = readlinkat(of->dirfd, of->base, target, PATH_MAX - 1);

	if (n < 0)
		return -errno;
	target[n] = '\0';
	return outfile__open_dir(of, of->dirfd, target);
}

/*
 * The name @of->base in the directory @of->dirfd, looked at through that
 * descriptor only (what is checked is what is used): see outfile.h for
 * what each kind gets. A followed symlink is looked at again in its
 * target's directory, by the same rules.
 */
static int outfile__open_at(struct outfile *of, char *why, size_t size)
{
	char via[PATH_MAX];
	struct stat st, dir, target;
	bool trusted;
	int err;

	for (int hop = 0;; hop++) {
		if (fstat(of->dirfd, &dir))
			return outfile__fail_errno(why, size, -errno);
		if (fstatat(of->dirfd, of->base, &st, AT_SYMLINK_NOFOLLOW))
			return errno == ENOENT ? outfile__open_replace(of, NULL, why, size) :
						 outfile__fail_errno(why, size, -errno);
		trusted = outfile__trusted(&dir, &st);
		/* a planted file or FIFO: replaced by a new file of ours, nothing kept */
		if (S_ISREG(st.st_mode) || (S_ISFIFO(st.st_mode) && !trusted))
			return outfile__open_replace(of, trusted ? &st : NULL, why, size);
		if (!S_ISLNK(st.st_mode)) {
			err = outfile__refuse_type(st.st_mode, why, size);
			return err ?: outfile__open_direct(of, false, why, size);
		}
		switch (outfile__link_rule(&dir, &st)) {
		case OUTFILE_REFUSE:
			return outfile__refuse_link(&st, hop ? via : NULL, why, size);
		case OUTFILE_REPLACE_LINK:
			return outfile__open_replace(of, NULL, why, size);
		case OUTFILE_FOLLOW:
			break;
		}
		/* /dev/stdout, /dev/fd/N: what the shell opened */
		if (outfile__fd_dir(of->dirfd))
			return outfile__open_direct(of, true, why, size);
		/* a link to nothing: replaced */
		if (fstatat(of->dirfd, of->base, &target, 0))
			return errno == ENOENT ? outfile__open_replace(of, NULL, why, size) :
						 outfile__fail_errno(why, size, -errno);
		if (hop >= OUTFILE_MAX_LINKS)
			return outfile__fail_errno(why, size, -ELOOP);
		err = outfile__descend(of, via);
		if (err)
			return outfile__fail_errno(why, size, err);
	}
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
		if (!err && (err = outfile__open_dir(of, AT_FDCWD, path)))
			outfile__fail_errno(why, size, err);
		err = err ?: outfile__open_at(of, why, size);
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
