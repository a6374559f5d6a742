// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The text of each distinct frame and process, as the profile writers show them. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "frame-text.h"

static void frame_text__put_process(FILE *f, const struct profile_proc *pr,
				    const struct output_opts *o,
				    void (*put_name)(FILE *f, const char *name))
{
	put_name(f, pr->comm[0] ? pr->comm : "[unknown comm]");
	if (o->per_thread)
		fprintf(f, "-%" PRIu32 "/%" PRIu32, pr->tgid, pr->tid);
	else if (o->per_pid)
		fprintf(f, "-%" PRIu32, pr->tgid);
}

static void frame_text__put_frame(FILE *f, const struct frame *fr, const struct output_opts *o,
				  void (*put_name)(FILE *f, const char *name))
{
	put_name(f, fr->name);
	if (o->lines && fr->file && fr->line) {
		const char *base = strrchr(fr->file, '/');

		fputc(' ', f);
		put_name(f, base ? base + 1 : fr->file);
		fprintf(f, ":%" PRIu32, fr->line);
	}
	if (fr->kind == FRAME_KERNEL)
		fputs("_[k]", f);
	else if (fr->kind == FRAME_INLINE)
		fputs("_[i]", f);
	else if (fr->kind == FRAME_JIT)
		fputs("_[j]", f);
}

int frame_text__build(struct frame_text *t, const struct profile *p, const struct output_opts *o,
		      void (*put_name)(FILE *f, const char *name), const char *sep)
{
	FILE *f = open_memstream(&t->buf, &t->len);
	int err = 0;

	t->frame = malloc((p->nr_frames + 1) * sizeof(*t->frame));
	t->proc = malloc((p->nr_procs + 1) * sizeof(*t->proc));
	if (!f || !t->frame || !t->proc) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nr_frames; i++) {
		t->frame[i] = ftello(f);
		fputs(sep, f);
		frame_text__put_frame(f, &p->frames[i], o, put_name);
	}
	t->frame[p->nr_frames] = ftello(f);
	for (size_t i = 0; i < p->nr_procs; i++) {
		t->proc[i] = ftello(f);
		frame_text__put_process(f, &p->procs[i], o, put_name);
	}
	t->proc[p->nr_procs] = ftello(f);
	if (ferror(f))
		err = -ENOMEM;
	if (fclose(f))
		err = -ENOMEM;
	return err;
}

void frame_text__free(struct frame_text *t)
{
	free(t->buf);
	free(t->frame);
	free(t->proc);
}
