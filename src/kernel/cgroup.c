/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cgroup v2 paths: where the hierarchy is mounted, and -G arguments in it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup.h"

/* Undo the octal escapes of mountinfo ("\040" for a space) in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/*
 * One mountinfo line: "id parent maj:min root MOUNTPOINT opts [optional...]
 * - FSTYPE source superopts". Returns the mount point if FSTYPE is cgroup2.
 */
static char *mountinfo_cgroup2(char *line)
{
	char *save = NULL, *field, *mnt = NULL;
	int i = 0;

	for (field = strtok_r(line, " \n", &save); field;
	     field = strtok_r(NULL, " \n", &save), i++) {
		if (i == 4)
			mnt = field;
		if (i > 5 && strcmp(field, "-") == 0) {
			field = strtok_r(NULL, " \n", &save);
			return field && mnt && strcmp(field, "cgroup2") == 0 ? mnt : NULL;
		}
	}
	return NULL;
}

static int copy_path(char *buf, size_t size, const char *path)
{
	size_t len = strlen(path);

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	return 0;
}

int cgroup__mount(char *buf, size_t size)
{
	char *line = NULL, *mnt;
	size_t cap = 0;
	int err = -ENOENT;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		mnt = mountinfo_cgroup2(line);
		if (mnt) {
			unescape(mnt);
			err = copy_path(buf, size, mnt);
			break;
		}
	}
	free(line);
	fclose(f);
	return err;
}

/* Is @path @dir itself or below it? */
static int path_is_below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

/* @arg inside @mnt: as is when already below it, else relative to it. */
static char *cgroup__join(const char *mnt, const char *arg)
{
	char *path;

	if (arg[0] == '/' && path_is_below(arg, mnt))
		return strdup(arg);
	while (*arg == '/')
		arg++;
	if (asprintf(&path, "%s/%s", mnt, arg) < 0)
		return NULL;
	return path;
}

/* Canonicalize @path into @buf; it must stay a directory inside @mnt. */
static int cgroup__check(const char *path, const char *mnt, char *buf, size_t size)
{
	struct stat st;
	char *real;
	int err;

	real = realpath(path, NULL);
	if (!real)
		return -errno;
	if (!path_is_below(real, mnt))
		err = -ENOENT;
	else if (stat(real, &st))
		err = -errno;
	else if (!S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	else
		err = copy_path(buf, size, real);
	free(real);
	return err;
}

int cgroup__resolve(const char *arg, char *buf, size_t size)
{
	char mnt[PATH_MAX];
	char *path, *real;
	int err;

	if (!arg || !*arg)
		return -ENOENT;
	err = cgroup__mount(mnt, sizeof(mnt));
	if (err)
		return err;
	real = realpath(mnt, NULL); /* the mount point itself may sit behind a link */
	if (real) {
		err = copy_path(mnt, sizeof(mnt), real);
		free(real);
		if (err)
			return err;
	}
	path = cgroup__join(mnt, arg);
	if (!path)
		return -ENOMEM;
	err = cgroup__check(path, mnt, buf, size);
	free(path);
	return err;
}
