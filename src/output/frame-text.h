/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The text of each distinct frame and process of a profile as the profile
 * writers show them, each written once into one buffer: a frame's name
 * ("name file.c:42" with --lines, the file's base name), "_[k]", "_[i]"
 * or "_[j]" after kernel, inlined and JIT frames; a process's "comm",
 * "comm-PID" (--per-pid) or "comm-PID/TID" (--per-thread); none in a
 * profile with no_procs (read back from folded stacks); an event's name
 * (a profile of several events). The writer
 * says how a name from outside is written (escaped by escape.c, and what
 * its format cannot hold replaced) and what goes before each frame. The
 * texts ranked, for the writers that merge frames that read alike (svg's
 * tree, top's rows).
 */
#ifndef BPFPROF_FRAME_TEXT_H
#define BPFPROF_FRAME_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"

struct frame_text {
	char *buf;
	size_t len;
	size_t *frame; /* frame i: buf[frame[i], frame[i + 1]) */
	size_t *proc;  /* process i: buf[proc[i], proc[i + 1]) */
	size_t *event; /* event i (profile.events): buf[event[i], event[i + 1]) */
};

/*
 * The texts of @p's frames, processes and events into @t, names written by
 * @put_name, @sep before each frame ("" or the folded file's ";").
 * 0 or -ENOMEM; free @t either way.
 */
int frame_text__build(struct frame_text *t, const struct profile *p, const struct output_opts *o,
		      void (*put_name)(FILE *f, const char *name), const char *sep);
void frame_text__free(struct frame_text *t);
/* A name from outside written escaped (escape.c): a @put_name for formats that hold any text. */
void frame_text__put_escaped(FILE *f, const char *name);

/*
 * The frames' (or processes') texts ranked, for writers that show one item
 * per text however many frames read so (other lines of one function):
 * texts that read alike, of the same kind, share a rank; ranks are in
 * name order (bytewise, then kind).
 */
struct frame_rank {
	const char *buf;
	const size_t *at;           /* text i: buf[at[i], at[i + 1]) */
	const struct frame *frames; /* text i's kind: frames[i].kind; NULL: processes */
	size_t nr;
	uint32_t *id;      /* text i -> its rank */
	uint32_t *rep;     /* rank -> a text of that rank */
	uint32_t nr_ranks; /* the distinct texts */
};

/*
 * Rank the texts of @p's frames in @t (@procs: of its processes) into @r.
 * 0 or -ENOMEM; free @r either way.
 */
int frame_text__rank(struct frame_rank *r, const struct frame_text *t, const struct profile *p,
		     bool procs);
/* The kind of text @i of @r (FRAME_USER for processes). */
uint32_t frame_text__kind(const struct frame_rank *r, uint32_t i);
void frame_text__free_rank(struct frame_rank *r);

#endif /* BPFPROF_FRAME_TEXT_H */
