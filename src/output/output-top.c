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
 * are frames of the folded file; processes are not rows.
 */
#include <errno.h>
#include <inttypes.h>

#include "output.h"
#include "toptable.h"

static void top__put_row(FILE *f, const struct top_table *t, size_t i, int width)
{
	const struct top_table_row *row = &t->rows[i];
	size_t len;
	const char *name = top_table__name(t, i, &len);

	fprintf(f, "  %*" PRIu64 " %6.2f%%  %*" PRIu64 " %6.2f%%  ", width, row->self,
		top_table__percent(row->self, t->samples), width, row->total,
		top_table__percent(row->total, t->samples));
	fwrite(name, 1, len, f);
	fputc('\n', f);
}

static void top__put(FILE *f, const struct top_table *t, const struct profile *p,
		     const struct output_opts *o)
{
	size_t n = t->nr, shown = n;
	int width = snprintf(NULL, 0, "%" PRIu64, t->samples);

	if (o->limit && o->limit < n)
		shown = o->limit;
	if (width < 5)
		width = 5; /* "total" */
	fprintf(f, "# %" PRIu64 " samples, %" PRIu64 " lost, %.2f s", t->samples,
		profile__lost(p), p->duration);
	/* a saved profile read back (report) does not say how many */
	if (p->ncpus)
		fprintf(f, ", %u CPU%s", p->ncpus, p->ncpus == 1 ? "" : "s");
	fprintf(f, "; %zu function%s", n, n == 1 ? "" : "s");
	if (shown < n)
		fprintf(f, ", the first %zu shown (--limit)", shown);
	fprintf(f, "\n# %*s %7s  %*s %7s  %s\n", width, "self", "self%", width, "total", "total%",
		"function");
	for (size_t i = 0; i < shown; i++)
		top__put_row(f, t, i, width);
}

static int top__write(FILE *f, const struct profile *p, const struct output_opts *o,
		      size_t *rows)
{
	struct top_table t;
	int err = top_table__build(&t, p, o);

	if (!err) {
		top__put(f, &t, p, o);
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
	.write_profile = top__write,
};
