// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A saved profile read back: pprof or folded stacks, told apart by their bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "foldedread.h"
#include "infile.h"
#include "pprofread.h"
#include "profileread.h"

const char *profileread__format_name(enum profileread_format f)
{
	return f == PROFILEREAD_PPROF ? "pprof" : "folded";
}

int profileread__mem(struct profile *p, const void *buf, size_t len, const char *value,
		     uint64_t max_inflated, struct profileread_info *info, char *why,
		     size_t size)
{
	*info = (struct profileread_info){ 0 };
	if (!len) {
		snprintf(why, size, "an empty file: expected a pprof profile or folded stacks");
		return -EINVAL;
	}
	if (pprofread__gzip(buf, len) || memchr(buf, '\0', len)) {
		info->format = PROFILEREAD_PPROF;
		return pprofread__parse(p, buf, len, value, max_inflated, &info->pprof, why,
					size);
	}
	info->format = PROFILEREAD_FOLDED;
	return foldedread__parse(p, buf, len, why, size);
}

int profileread__file(struct profile *p, const char *path, const char *value,
		      uint64_t max_inflated, struct profileread_info *info, char *why,
		      size_t size)
{
	char reason[512];
	size_t len = 0;
	char *buf = NULL;
	int fd, err;

	err = infile__open(path, &fd);
	if (err) {
		snprintf(why, size, "cannot open '%s': %s", path, infile__strerror(err));
		return err;
	}
	err = infile__read_all(fd, PROFILEREAD_MAX_FILE, &buf, &len);
	close(fd);
	if (err == -EFBIG) {
		snprintf(why, size, "'%s' is larger than %llu MiB: expected a saved profile of "
			 "at most that", path, PROFILEREAD_MAX_FILE >> 20);
		return err;
	}
	if (err) {
		snprintf(why, size, "cannot read '%s': %s", path, strerror(-err));
		return err;
	}
	reason[0] = '\0';
	err = profileread__mem(p, buf, len, value, max_inflated, info, reason, sizeof(reason));
	free(buf);
	if (err)
		snprintf(why, size, "'%s': %s", path,
			 err == -ENOMEM ? strerror(ENOMEM) : reason[0] ? reason : strerror(-err));
	return err;
}
