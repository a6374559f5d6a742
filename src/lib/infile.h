/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Files read from outside, as root: binaries, debug files, JIT maps,
 * /proc and /sys files, cache entries. Whoever can write a path that
 * bpfprof reads can put a FIFO, a device or a symlink there, so every
 * such file is opened here: first as O_PATH (nothing is opened: no FIFO
 * blocks, no device wakes up), accepted only if it is a regular file,
 * then reopened for reading through /proc/self/fd (O_NONBLOCK, O_NOCTTY).
 * A path inside a process's root (a container) is resolved by the
 * kernel inside that root (openat2 RESOLVE_IN_ROOT, no magic links), so
 * neither an absolute symlink nor ".." leaves it.
 */
#ifndef BPFPROF_INFILE_H
#define BPFPROF_INFILE_H

#include <errno.h>
#include <stddef.h>

/* The error of a path that is not a regular file (a FIFO, a device, a directory). */
#define INFILE_ENOTREG EMEDIUMTYPE

/* Open @path (as the process sees it) for reading into *@fd. 0 or -errno (-INFILE_ENOTREG). */
int infile__open(const char *path, int *fd);

/*
 * Open @path inside the directory @root_fd as if it were "/": every
 * symlink and ".." stays below it. -ENOSYS on kernels before 5.6 (no
 * openat2): then nothing inside a root is read, there is no safe way.
 */
int infile__open_in(int root_fd, const char *path, int *fd);
/* The same with @flags: O_NOFOLLOW refuses a symlink as the last component. */
int infile__open_in_flags(int root_fd, const char *path, int flags, int *fd);

/* O_PATH|O_DIRECTORY fd of @path (e.g. /proc/PID/root) into *@fd, for infile__open_in. */
int infile__open_root(const char *path, int *fd);

/*
 * Read the file at @fd from its start to its end (files of /proc report
 * size 0) into a malloc'd, NUL-terminated *@buf of *@len bytes (the NUL not
 * counted). -EFBIG when it holds more than @max bytes: a file that never
 * ends is not read forever.
 */
int infile__read_all(int fd, size_t max, char **buf, size_t *len);

/* strerror(-@err), "not a regular file" for -INFILE_ENOTREG. */
const char *infile__strerror(int err);

#endif /* BPFPROF_INFILE_H */
