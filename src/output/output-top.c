// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A flat table of functions, as perf report and pprof -top show them: a
 * header line of totals, then one row per function with its self samples
 * (the stacks whose leaf it is) and total samples (the stacks that hold it
 * at least once: a recursive function counts once a stack), each with its
 * percentage of all samples, sorted by self, then total, then name
 * (toptable.c, which the live `bpfprof top` shares); with --limit N only
 * the first N rows. A function is a frame's text as the
 * folded file writes it ("_[k]", "_[i]", "_[j]" after kernel, inlined and
 * JIT frames; control bytes and invalid UTF-8 as "\xHH", escape.c; with
 * --lines "name file.c:42", a row per line), so frames that read alike
 * are one row. Marks ("[truncated]", "[no stack]"...) are rows as they
 * are frames of the folded file; processes are not rows. A profile of
 * several events: the header gives each event's samples, self and total
 * are the first event's (the order), then a self column for each other
 * event, headed by its name, its percentage of that event's samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "output.h"
#include "toptable.h"

/* The width of event @e's self column: its name or its samples, whichever is wider. */
static int output_top__event_width(const struct top_table *t, const struct profile *p, size_t e)
{
	int width = snprintf(NULL, 0, "%" PRIu64, t->event_samples[e]);
	int name = (int)strlen(p->events[e].name);

	return name > width ? name : width;
}

static void output_top__put_row(FILE *f, const struct top_table *t, const struct profile *p,
				size_t i, int width)
{
	const struct top_table_row *row = &t->rows[i];
	size_t len;
	const char *name = top_table__name(t, i, &len);

	fprintf(f, "  %*" PRIu64 " %6.2f%%  %*" PRIu64 " %6.2f%%  ", width, row->self,
		top_table__percent(row->self, t->samples), width, row->total,
		top_table__percent(row->total, t->samples));
	/* several events: each other event's self samples */
	for (size_t e = 1; e < t->nr_events; e++) {
		uint64_t self = top_table__event_self(t, i, e);

		fprintf(f, "%*" PRIu64 " %6.2f%%  ", output_top__event_width(t, p, e), self,
			top_table__percent(self, t->event_samples[e]));
	}
	fwrite(name, 1, len, f);
	fputc('\n', f);
}

static void output_top__put(FILE *f, const struct top_table *t, const struct profile *p,
			    const struct output_opts *o)
{
	size_t n = t->nr, shown = n;
	int width = snprintf(NULL, 0, "%" PRIu64, t->samples);

	if (o->limit && o->limit < n)
		shown = o->limit;
	if (width < 5)
		width = 5; /* "total" */
	if (t->nr_events) {
		/* several events: each one's samples; self and total are the first's */
		fputs("#", f);
		for (size_t e = 0; e < t->nr_events; e++) {
			fprintf(f, "%s %" PRIu64 " ", e ? "," : "", t->event_samples[e]);
			frame_text__put_escaped(f, p->events[e].name);
			fputs(" samples", f);
		}
		fprintf(f, ", %" PRIu64 " lost, %.2f s", profile__lost(p), p->duration);
	} else {
		fprintf(f, "# %" PRIu64 " samples, %" PRIu64 " lost, %.2f s", t->samples,
			profile__lost(p), p->duration);
	}
	/* a saved profile read back (report) does not say how many */
	if (p->ncpus)
		fprintf(f, ", %u CPU%s", p->ncpus, p->ncpus == 1 ? "" : "s");
	fprintf(f, "; %zu function%s", n, n == 1 ? "" : "s");
	if (shown < n)
		fprintf(f, ", the first %zu shown (--limit)", shown);
	fprintf(f, "\n# %*s %7s  %*s %7s  ", width, "self", "self%", width, "total", "total%");
	for (size_t e = 1; e < t->nr_events; e++) {
		int w = output_top__event_width(t, p, e), len = (int)strlen(p->events[e].name);

		fprintf(f, "%*s", w - len, "");
		frame_text__put_escaped(f, p->events[e].name);
		fprintf(f, " %7s  ", "self%");
	}
	fputs("function\n", f);
	for (size_t i = 0; i < shown; i++)
		output_top__put_row(f, t, p, i, width);
}

static int output_top__write(FILE *f, const struct profile *p, const struct output_opts *o,
			     size_t *rows)
{
	struct top_table t;
	int err = top_table__build(&t, p, o);

	if (!err) {
		output_top__put(f, &t, p, o);
		if (ferror(f))
			err = -EIO;
	}
	/* the summary's unique stacks: those of the profile, as for pprof */
	if (!err && rows)
		*rows = p->nr;
	top_table__free(&t);
	return err;
}

const struct output_format output_top = {
	.name = "top",
	.ext = ".top",
	.default_file = "bpfprof.top",
	.takes = OUTPUT_PROFILE,
	.write_profile = output_top__write,
};
