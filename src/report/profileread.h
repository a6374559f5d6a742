/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A saved profile read back (bpfprof report, diff): a pprof profile
 * (pprofread.c) or folded stacks (foldedread.c), told apart by their
 * bytes: gzip, or binary data (a protobuf's empty string is a NUL byte),
 * is pprof; text is folded stacks. Files are read whole, at most
 * PROFILEREAD_MAX_FILE bytes, through infile.c (regular files only).
 */
#ifndef BPFPROF_PROFILEREAD_H
#define BPFPROF_PROFILEREAD_H

#include <stddef.h>
#include <stdint.h>

#include "pprofread.h"
#include "profile.h"

#define PROFILEREAD_MAX_FILE (1ull << 30)

enum profileread_format {
	PROFILEREAD_PPROF,
	PROFILEREAD_FOLDED,
};

struct profileread_info {
	enum profileread_format format;
	struct pprofread_info pprof; /* a pprof's labels and period */
};

/* "pprof" or "folded". */
const char *profileread__format_name(enum profileread_format f);

/*
 * Add the stacks of the saved profile in the @len bytes at @buf to @p
 * (@value: pprof's sample type, NULL: the first; @max_inflated: the most
 * gzip may inflate to, 0: pprofread's default bound). 0, or -EBADMSG,
 * -EINVAL (an empty buffer, a bad folded line), -EFBIG with why in @why;
 * -ENOMEM, -E2BIG.
 */
int profileread__mem(struct profile *p, const void *buf, size_t len, const char *value,
		     uint64_t max_inflated, struct profileread_info *info, char *why,
		     size_t size);
/* The same for the file at @path; @why then names it. */
int profileread__file(struct profile *p, const char *path, const char *value,
		      uint64_t max_inflated, struct profileread_info *info, char *why,
		      size_t size);

#endif /* BPFPROF_PROFILEREAD_H */
