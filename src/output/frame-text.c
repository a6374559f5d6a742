// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The text of each distinct frame and process, as the profile writers show
 * them, and those texts ranked.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
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
	t->event = malloc((p->nr_events + 1) * sizeof(*t->event));
	if (!f || !t->frame || !t->proc || !t->event) {
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
		if (!p->no_procs)
			frame_text__put_process(f, &p->procs[i], o, put_name);
	}
	t->proc[p->nr_procs] = ftello(f);
	for (size_t i = 0; i < p->nr_events; i++) {
		t->event[i] = ftello(f);
		put_name(f, p->events[i].name);
	}
	t->event[p->nr_events] = ftello(f);
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
	free(t->event);
}

void frame_text__put_escaped(FILE *f, const char *name)
{
	escape__write(f, name, strlen(name));
}

uint32_t frame_text__kind(const struct frame_rank *r, uint32_t i)
{
	return r->frames ? r->frames[i].kind : FRAME_USER;
}

static int frame_text__rank_cmp(const void *a, const void *b, void *ctx)
{
	const struct frame_rank *r = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t nx = r->at[x + 1] - r->at[x], ny = r->at[y + 1] - r->at[y];
	int c = memcmp(r->buf + r->at[x], r->buf + r->at[y], nx < ny ? nx : ny);
	uint32_t kx = frame_text__kind(r, x), ky = frame_text__kind(r, y);

	if (c)
		return c;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return kx < ky ? -1 : kx > ky;
}

int frame_text__rank(struct frame_rank *r, const struct frame_text *t, const struct profile *p,
		     bool procs)
{
	size_t nr = procs ? p->nr_procs : p->nr_frames;
	uint32_t rank = 0;

	*r = (struct frame_rank){ .buf = t->buf, .at = procs ? t->proc : t->frame,
				  .frames = procs ? NULL : p->frames, .nr = nr };
	r->id = malloc((nr ? nr : 1) * sizeof(*r->id));
	r->rep = malloc((nr ? nr : 1) * sizeof(*r->rep));
	if (!r->id || !r->rep)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		r->rep[i] = i;
	qsort_r(r->rep, nr, sizeof(*r->rep), frame_text__rank_cmp, r);
	for (size_t i = 0; i < nr; i++) {
		if (i && frame_text__rank_cmp(&r->rep[i - 1], &r->rep[i], r))
			rank++;
		r->id[r->rep[i]] = rank;
		r->rep[rank] = r->rep[i]; /* rank <= i: what is overwritten was compared */
	}
	r->nr_ranks = nr ? rank + 1 : 0;
	return 0;
}

void frame_text__free_rank(struct frame_rank *r)
{
	free(r->id);
	free(r->rep);
}
