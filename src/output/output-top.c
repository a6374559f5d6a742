// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A flat table of functions, as perf report and pprof -top show them: a
 * header line of totals, then one row per function with its self samples
 * (the stacks whose leaf it is) and total samples (the stacks that hold it
 * at least once: a recursive function counts once a stack), each with its
 * percentage of all samples, sorted by self, then total, then name; with
 * --limit N only the first N rows. A function is a frame's text as the
 * folded file writes it ("_[k]", "_[i]", "_[j]" after kernel, inlined and
 * JIT frames; control bytes and invalid UTF-8 as "\xHH", escape.c; with
 * --lines "name file.c:42", a row per line), so frames that read alike
 * are one row. Marks ("[truncated]", "[no stack]"...) are rows as they
 * are frames of the folded file; processes are not rows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "frame-text.h"
#include "output.h"

struct top_row {
	uint64_t self, total;
	uint32_t rank; /* of its text: ranks are in name order */
};

struct top {
	const struct profile *p;
	struct frame_text text;
	struct frame_rank rank;
	struct top_row *rows; /* one per rank */
	uint64_t samples;
};

static int top__cmp(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Each row's self and total samples, and all samples. 0 or -ENOMEM. */
static int top__count(struct top *t)
{
	const struct profile *p = t->p;
	uint32_t n = t->rank.nr_ranks;
	/* per row: 1 + the last stack that counted it in the row's total */
	size_t *seen = calloc(n ? n : 1, sizeof(*seen));

	t->rows = calloc(n ? n : 1, sizeof(*t->rows));
	if (!seen || !t->rows) {
		free(seen);
		return -ENOMEM;
	}
	for (uint32_t r = 0; r < n; r++)
		t->rows[r].rank = r;
	for (size_t s = 0; s < p->nr; s++) {
		const struct profile_stack *st = &p->stacks[s];

		for (uint32_t i = 0; i < st->nr; i++) {
			uint32_t r = t->rank.id[p->ids[st->at + i]];

			if (seen[r] != s + 1) {
				seen[r] = s + 1;
				t->rows[r].total += st->count;
			}
		}
		if (st->nr)
			t->rows[t->rank.id[p->ids[st->at + st->nr - 1]]].self += st->count;
		t->samples += st->count;
	}
	free(seen);
	qsort(t->rows, n, sizeof(*t->rows), top__cmp);
	return 0;
}

static double top__percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void top__put_row(FILE *f, const struct top *t, const struct top_row *row, int width)
{
	uint32_t i = t->rank.rep[row->rank];

	fprintf(f, "  %*" PRIu64 " %6.2f%%  %*" PRIu64 " %6.2f%%  ", width, row->self,
		top__percent(row->self, t->samples), width, row->total,
		top__percent(row->total, t->samples));
	fwrite(t->text.buf + t->text.frame[i], 1, t->text.frame[i + 1] - t->text.frame[i], f);
	fputc('\n', f);
}

static void top__put(FILE *f, const struct top *t, const struct output_opts *o)
{
	const struct profile *p = t->p;
	size_t n = t->rank.nr_ranks, shown = n;
	int width = snprintf(NULL, 0, "%" PRIu64, t->samples);

	if (o->limit && o->limit < n)
		shown = o->limit;
	if (width < 5)
		width = 5; /* "total" */
	fprintf(f, "# %" PRIu64 " samples, %" PRIu64 " lost, %.2f s, %u CPU%s; %zu function%s",
		t->samples, profile__lost(p), p->duration, p->ncpus, p->ncpus == 1 ? "" : "s", n,
		n == 1 ? "" : "s");
	if (shown < n)
		fprintf(f, ", the first %zu shown (--limit)", shown);
	fprintf(f, "\n# %*s %7s  %*s %7s  %s\n", width, "self", "self%", width, "total", "total%",
		"function");
	for (size_t i = 0; i < shown; i++)
		top__put_row(f, t, &t->rows[i], width);
}

static int top__write(FILE *f, const struct profile *p, const struct output_opts *o,
		      size_t *rows)
{
	struct top t = { .p = p };
	int err = frame_text__build(&t.text, p, o, frame_text__put_escaped, "");

	err = err ?: frame_text__rank(&t.rank, &t.text, p, false);
	err = err ?: top__count(&t);
	if (!err) {
		top__put(f, &t, o);
		if (ferror(f))
			err = -EIO;
	}
	/* the summary's unique stacks: those of the profile, as for pprof */
	if (!err && rows)
		*rows = p->nr;
	frame_text__free(&t.text);
	frame_text__free_rank(&t.rank);
	free(t.rows);
	return err;
}

const struct output_format output_top = {
	.name = "top",
	.ext = ".top",
	.default_file = "bpfprof.top",
	.takes = OUTPUT_PROFILE,
	.write_profile = top__write,
};
