/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An output file that appears complete or not at all: written unnamed
 * (O_TMPFILE) in the target's directory and given its name only when
 * committed, so no failure, signal or SIGKILL leaves a partial file.
 * "-" or NULL is standard output, committed by flushing it.
 *
 * The path is checked whole when opened, so a name that can never be
 * written fails before any work: an empty name, a component longer than
 * NAME_MAX, a missing directory. The name's directory is opened once
 * (O_PATH) and everything after goes through that descriptor: its owner
 * and mode by fstat, the last name by fstatat without following it, the
 * new file made and renamed in it. What the name is decides how it is
 * written (bpfprof runs as root, the name may be another user's):
 * - a regular file (or nothing) is replaced, keeping an existing file's
 *   permission bits and owner; a new file gets 0666 & ~umask;
 * - a FIFO or file another user may have planted in a sticky
 *   world-writable directory (owned by neither us nor the directory's
 *   owner: the kernel's fs.protected_fifos and protected_regular) is
 *   replaced by a new file, its owner and mode not kept;
 * - a symlink is followed only in a directory root (or our euid) owns and
 *   no one else can write, or in a sticky one of ours when the link is
 *   ours too: fs.protected_symlinks in every directory. Another user's
 *   link in a sticky directory of ours is replaced (not followed); one in
 *   a directory another user owns or can write is refused (-ELOOP, why
 *   names the link's owner). A followed link's target is looked at in its
 *   own directory by the same rules (a regular file there is replaced);
 *   only the last directory of each is checked, not those above it;
 * - a character device (/dev/null) is written in place, and so is
 *   what /dev/stdout, /dev/fd/N and /proc/self/fd/N name (in append mode);
 * - a FIFO is opened without blocking: no reader is an error;
 * - block devices, sockets and directories are refused.
 * A write, flush, fsync or close error (ENOSPC, EDQUOT) is kept as it
 * came, never turned into EIO.
 */
#ifndef BPFPROF_OUTFILE_H
#define BPFPROF_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct outfile;

/* Room for any reason outfile__open gives: it may quote a symlink's target. */
#define OUTFILE_WHY_MAX (PATH_MAX + 256)

/*
 * Open now, so a path that cannot be written fails before any work. NULL
 * and errno on failure, with why in @why ("no reader on the FIFO", or
 * strerror) when @why is not NULL.
 */
struct outfile *outfile__open(const char *path, char *why, size_t size);
FILE *outfile__stream(struct outfile *of);
/* "'PATH'", or "standard output": for messages. */
const char *outfile__name(const struct outfile *of);
/*
 * The first error writing the stream met (-ENOSPC...), else 0: what a
 * writer's -EIO from a failed fprintf really was.
 */
int outfile__error(const struct outfile *of);
/* Flush and give the file its name (replacing an old one). 0 or -errno. */
int outfile__commit(struct outfile *of);
/* Discard what was written, if not committed; free. Takes NULL. */
void outfile__free(struct outfile *of);

#endif /* BPFPROF_OUTFILE_H */
