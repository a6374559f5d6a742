/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The text of each distinct frame and process of a profile as the profile
 * writers show them, each written once into one buffer: a frame's name
 * ("name file.c:42" with --lines, the file's base name), "_[k]", "_[i]"
 * or "_[j]" after kernel, inlined and JIT frames; a process's "comm",
 * "comm-PID" (--per-pid) or "comm-PID/TID" (--per-thread). The writer
 * says how a name from outside is written (escaped by escape.c, and what
 * its format cannot hold replaced) and what goes before each frame.
 */
#ifndef BPFPROF_FRAME_TEXT_H
#define BPFPROF_FRAME_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "output.h"

struct frame_text {
	char *buf;
	size_t len;
	size_t *frame; /* frame i: buf[frame[i], frame[i + 1]) */
	size_t *proc;  /* process i: buf[proc[i], proc[i + 1]) */
};

/*
 * The texts of @p's frames and processes into @t, names written by
 * @put_name, @sep before each frame ("" or the folded file's ";").
 * 0 or -ENOMEM; free @t either way.
 */
int frame_text__build(struct frame_text *t, const struct profile *p, const struct output_opts *o,
		      void (*put_name)(FILE *f, const char *name), const char *sep);
void frame_text__free(struct frame_text *t);

#endif /* BPFPROF_FRAME_TEXT_H */
