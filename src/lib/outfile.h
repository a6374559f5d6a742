/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An output file that appears complete or not at all: written unnamed
 * (O_TMPFILE) in the target's directory and given its name only when
 * committed, so no failure, signal or SIGKILL leaves a partial file.
 * "-" or NULL is standard output, committed by flushing it. A path that
 * is not a regular file (/dev/null, a FIFO) is opened and written in
 * place: renaming over it would replace the device.
 */
#ifndef BPFPROF_OUTFILE_H
#define BPFPROF_OUTFILE_H

#include <stdio.h>

struct outfile;

/* Open now, so an unwritable path fails before any work. NULL + errno. */
struct outfile *outfile__open(const char *path);
FILE *outfile__stream(struct outfile *of);
/* Flush and give the file its name (replacing an old one). 0 or -errno. */
int outfile__commit(struct outfile *of);
/* Discard what was written, if not committed; free. Takes NULL. */
void outfile__free(struct outfile *of);

#endif /* BPFPROF_OUTFILE_H */
