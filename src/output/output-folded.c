// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Folded stacks, as flamegraph.pl, inferno and speedscope read them: one
 * line per unique stack, root first, ';' between frames, one space, an
 * integer count; lines sorted and aggregated. The first frame is the
 * process. Kernel frames end in "_[k]", inlined calls in "_[i]", JIT frames
 * in "_[j]"; with --lines a frame whose source line is known reads
 * "name file.c:42" (the file's base name, as perf shows it). Names come
 * from outside: control bytes and invalid UTF-8 are written "\xHH" and a
 * backslash "\\" (escape.c); the format has no escape for ';', so a ';'
 * in a name becomes ':'. A profile read back without processes (no_procs)
 * starts each line with its first frame. A profile of several events
 * starts each line with the event's name (cpu-clock;comm;main;...). A differential profile (diff)
 * writes each line's base count before its count: "stack BASE NEW".
 * The process frame is "comm", "comm-PID" (--per-pid) or "comm-PID/TID"
 * (--per-thread), as frame-text.c writes it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "frame-text.h"
#include "output.h"

static void fold__put_name(FILE *f, const char *name)
{
	for (;;) {
		size_t n = strcspn(name, ";");

		escape__write(f, name, n);
		if (!name[n])
			return;
		fputc(':', f);
		name += n + 1;
	}
}

/*
 * The text of every distinct frame (with the ';' before it) and process,
 * each written once (frame-text.c): a line is its process's text and its
 * frames' texts one after the other, so lines are compared and written
 * without ever being built.
 */
struct fold_text {
	struct frame_text tx;
	const struct profile *p;
};

/*
 * A place in a stack's line: piece 0 is the process, piece 1 + i frame i;
 * with several events the event's name and a ';' come first (next: where
 * the line goes on after each).
 */
struct fold_cursor {
	const struct fold_text *t;
	const struct profile_stack *st;
	uint32_t piece;
	const char *at, *end;
	const char *next[2][2]; /* pieces still to come before the process's end, the last first */
	int nr_next;
};

static void fold_cursor__init(struct fold_cursor *c, const struct fold_text *t, uint32_t stack)
{
	c->t = t;
	c->st = &t->p->stacks[stack];
	c->piece = 0;
	c->at = t->tx.buf + t->tx.proc[c->st->proc];
	c->end = t->tx.buf + t->tx.proc[c->st->proc + 1];
	if (t->p->no_procs && c->st->nr) {
		/* no process: the line starts at the first frame, without its ';' */
		uint32_t id = t->p->ids[c->st->at];

		c->piece = 1;
		c->at = t->tx.buf + t->tx.frame[id] + (t->p->nr_events > 1 ? 0 : 1);
		c->end = t->tx.buf + t->tx.frame[id + 1];
	}
	c->nr_next = 0;
	if (t->p->nr_events > 1) {
		static const char sep[] = ";";

		/* taken from the end: the ';' before a process, then what began the line */
		c->next[0][0] = c->at;
		c->next[0][1] = c->end;
		c->nr_next = 1;
		if (!t->p->no_procs) {
			c->next[1][0] = sep;
			c->next[1][1] = sep + 1;
			c->nr_next = 2;
		}
		c->at = t->tx.buf + t->tx.event[c->st->event];
		c->end = t->tx.buf + t->tx.event[c->st->event + 1];
	}
}

/* Bytes left in the current piece, moving on to the next one; 0: the line ended. */
static size_t fold_cursor__left(struct fold_cursor *c)
{
	while (c->at == c->end) {
		uint32_t id;

		if (c->nr_next) {
			c->nr_next--;
			c->at = c->next[c->nr_next][0];
			c->end = c->next[c->nr_next][1];
			continue;
		}
		if (c->piece == c->st->nr)
			return 0;
		id = c->t->p->ids[c->st->at + c->piece++];
		c->at = c->t->tx.buf + c->t->tx.frame[id];
		c->end = c->t->tx.buf + c->t->tx.frame[id + 1];
	}
	return c->end - c->at;
}

/* strcmp() of two stacks' lines. */
static int fold__cmp(const void *a, const void *b, void *ctx)
{
	struct fold_cursor x, y;

	fold_cursor__init(&x, ctx, *(const uint32_t *)a);
	fold_cursor__init(&y, ctx, *(const uint32_t *)b);
	for (;;) {
		size_t nx = fold_cursor__left(&x), ny = fold_cursor__left(&y);
		size_t n = nx < ny ? nx : ny;
		int c;

		if (!n)
			return nx ? 1 : ny ? -1 : 0;
		c = memcmp(x.at, y.at, n);
		if (c)
			return c;
		x.at += n;
		y.at += n;
	}
}

static void fold__put_line(FILE *f, const struct fold_text *t, uint32_t stack)
{
	struct fold_cursor c;
	size_t n;

	fold_cursor__init(&c, t, stack);
	while ((n = fold_cursor__left(&c))) {
		fwrite(c.at, 1, n, f);
		c.at += n;
	}
}

static int fold__write(FILE *f, const struct profile *p, const struct output_opts *o,
		       size_t *rows)
{
	uint32_t *order = malloc((p->nr ? p->nr : 1) * sizeof(*order));
	struct fold_text t = { .p = p };
	int err = order ? frame_text__build(&t.tx, p, o, fold__put_name, ";") : -ENOMEM;
	size_t lines = 0;

	if (err)
		goto out;
	for (size_t i = 0; i < p->nr; i++)
		order[i] = i;
	qsort_r(order, p->nr, sizeof(*order), fold__cmp, &t);
	for (size_t i = 0; i < p->nr;) {
		uint64_t count = p->stacks[order[i]].count;
		uint64_t base = p->base ? p->base[order[i]] : 0;
		size_t j = i + 1;

		for (; j < p->nr && !fold__cmp(&order[j], &order[i], &t); j++) {
			count += p->stacks[order[j]].count;
			base += p->base ? p->base[order[j]] : 0;
		}
		fold__put_line(f, &t, order[i]);
		if (p->base && fprintf(f, " %" PRIu64, base) < 0) {
			err = -EIO;
			goto out;
		}
		if (fprintf(f, " %" PRIu64 "\n", count) < 0) {
			err = -EIO;
			goto out;
		}
		lines++;
		i = j;
	}
	if (rows)
		*rows = lines;
out:
	frame_text__free(&t.tx);
	free(order);
	return err;
}

const struct output_format output_folded = {
	.name = "folded",
	.ext = ".folded",
	.default_file = "bpfprof.folded",
	.takes = OUTPUT_PROFILE,
	.write_profile = fold__write,
};
