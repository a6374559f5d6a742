// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

struct outfile {
	FILE *stream;
	char *path;     /* NULL for stdout */
	char *tmpname;  /* mkstemp fallback name, else NULL (O_TMPFILE) */
	bool direct;    /* not a regular file (/dev/null, a FIFO): written in place */
	bool committed;
};

static char *outfile__dir(const char *path)
{
	char *copy = strdup(path), *dir;

	if (!copy)
		return NULL;
	dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

/* Unnamed file in @dir; filesystems without O_TMPFILE get a hidden name. */
static int outfile__create(struct outfile *of, const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd >= 0 ? fd : -errno;
	if (asprintf(&of->tmpname, "%s/.bpfprof-XXXXXX", dir) < 0) {
		of->tmpname = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(of->tmpname, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fchmod(fd, 0644);
	return fd;
}

struct outfile *outfile__open(const char *path)
{
	struct outfile *of = calloc(1, sizeof(*of));
	struct stat st;
	char *dir = NULL;
	int fd, err;

	if (!of)
		return NULL;
	if (!path || !strcmp(path, "-")) {
		of->stream = stdout;
		return of;
	}
	err = -ENOMEM;
	of->path = strdup(path);
	dir = outfile__dir(path);
	if (!of->path || !dir)
		goto fail;
	err = -EISDIR;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		goto fail;
	/* a device or a FIFO is written to, never renamed over */
	of->direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	if (of->direct) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	} else {
		fd = outfile__create(of, dir);
	}
	err = fd;
	if (fd < 0)
		goto fail;
	of->stream = fdopen(fd, "w");
	if (!of->stream) {
		err = -errno;
		close(fd);
		goto fail;
	}
	free(dir);
	return of;
fail:
	free(dir);
	outfile__free(of);
	errno = -err;
	return NULL;
}

FILE *outfile__stream(struct outfile *of)
{
	return of->stream;
}

static int outfile__link(struct outfile *of)
{
	char proc[64], *tmp;
	int err = 0;

	if (of->tmpname)
		return rename(of->tmpname, of->path) ? -errno : 0;
	/* Name the O_TMPFILE, then move the name over the target atomically. */
	if (asprintf(&tmp, "%s.bpfprof-%d", of->path, getpid()) < 0)
		return -ENOMEM;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(of->stream));
	unlink(tmp);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
		err = -errno;
	else if (rename(tmp, of->path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

int outfile__commit(struct outfile *of)
{
	int err;

	if (fflush(of->stream) || ferror(of->stream))
		return errno ? -errno : -EIO;
	if (!of->path || of->direct) {
		of->committed = true;
		return 0;
	}
	if (fsync(fileno(of->stream)) && errno != EINVAL)
		return -errno;
	err = outfile__link(of);
	if (!err)
		of->committed = true;
	return err;
}

void outfile__free(struct outfile *of)
{
	if (!of)
		return;
	if (of->stream && of->stream != stdout)
		fclose(of->stream);
	if (of->tmpname && !of->committed)
		unlink(of->tmpname);
	free(of->tmpname);
	free(of->path);
	free(of);
}
