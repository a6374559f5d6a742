// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The annotated listing of `bpfprof range`, as text: per range a header,
 * one row per instruction (address, function+offset, samples, percent of
 * the range, source line, instruction; '>' before rows with at least
 * HOT_PERCENT of the range's samples), the hottest source lines; then the
 * totals of the run. Names, paths and instruction text are escaped
 * (escape.c): they come from the binaries and the targets.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "output.h"

#define HOT_PERCENT 5.0
#define HOT_LINES 10     /* source lines in the summary */
#define FUNC_WIDTH_MAX 40

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static int digits(uint64_t v, int base)
{
	int n = 1;

	while (v >= (uint64_t)base) {
		v /= base;
		n++;
	}
	return n;
}

/* Column widths of one range's rows. */
struct widths {
	int addr, func, count, src;
};

/* @s escaped into @buf: its whole length, and in *@at where what follows goes. */
static int row__name(char *buf, size_t size, const char *s, size_t *at)
{
	size_t n = escape__str(buf, size, s);

	*at = n < size ? n : size - 1;
	return n;
}

static int row__func(const struct listing_row *row, char *buf, size_t size)
{
	size_t at;
	int n;

	if (!row->func)
		return snprintf(buf, size, "(no symbol)"); /* padding, stripped or anonymous code */
	n = row__name(buf, size, row->func, &at);
	return n + snprintf(buf + at, size - at, "+0x%" PRIx64, row->func_off);
}

static int row__src(const struct listing_row *row, char *buf, size_t size)
{
	size_t at;
	int n;

	if (!row->file || !row->line)
		return snprintf(buf, size, "?");
	n = row__name(buf, size, row->file, &at);
	return n + snprintf(buf + at, size - at, ":%" PRIu32, row->line);
}

/* @s from outside, escaped. */
static void output_listing__put(FILE *f, const char *s)
{
	escape__write(f, s, strlen(s));
}

static void widths__measure(struct widths *w, const struct listing_range *lr)
{
	char buf[512];

	*w = (struct widths){
		.addr = 2 + digits(lr->end > lr->start ? lr->end - 1 : lr->start, 16),
		.func = strlen("function+offset"),
		.count = strlen("samples"),
		.src = strlen("source"),
	};
	if (w->addr < (int)strlen("address"))
		w->addr = strlen("address");
	for (size_t i = 0; i < lr->nr_rows; i++) {
		const struct listing_row *row = &lr->rows[i];
		int n = row__func(row, buf, sizeof(buf));

		if (n > w->func)
			w->func = n < FUNC_WIDTH_MAX ? n : FUNC_WIDTH_MAX;
		if (digits(row->count, 10) > w->count)
			w->count = digits(row->count, 10);
		n = row__src(row, buf, sizeof(buf));
		if (n > w->src)
			w->src = n;
	}
}

static void output_listing__range_header(FILE *f, const struct listing_range *lr, size_t i,
				 uint64_t targets)
{
	fprintf(f, "range %zu: ", i + 1);
	output_listing__put(f, lr->arg);
	fprintf(f, " (%s)\n", lr->kind);
	if (lr->binary) {
		fputs("  binary: ", f);
		output_listing__put(f, lr->binary);
		fputc('\n', f);
	}
	if (lr->end > lr->start) {
		fprintf(f, "  %s: ", lr->binary ? "symbol" : "kernel");
		output_listing__put(f, lr->symbol ? lr->symbol : "(no symbol)");
		if (lr->impl) {
			fputs(" (an IFUNC; here it selects ", f);
			output_listing__put(f, lr->impl);
			fputc(')', f);
		}
		fprintf(f, ", 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " bytes)\n", lr->start,
			lr->end, lr->end - lr->start);
	}
	if (lr->other) {
		fputs("  note: targets also map another file of that name, ", f);
		output_listing__put(f, lr->other);
		fputs(": not counted\n", f);
	}
	if (lr->not_counted) {
		fputs("  not counted: ", f);
		output_listing__put(f, lr->not_counted);
		fputc('\n', f);
	} else if (lr->unmapped) {
		fprintf(f, "  not counted: no target process mapped it\n");
	}
	if (lr->nr_insts > 1 || (lr->nr_procs && lr->procs[0].tgid)) {
		fprintf(f, "  counted in %zu process%s", lr->nr_insts,
			lr->nr_insts == 1 ? "" : "es");
		for (size_t j = 0; j < lr->nr_procs; j++) {
			fprintf(f, "%s %d ", j ? "," : ":", lr->procs[j].tgid);
			output_listing__put(f, lr->procs[j].comm ? lr->procs[j].comm : "?");
			fprintf(f, " %" PRIu64, lr->procs[j].count);
		}
		if (lr->nr_procs < lr->nr_insts)
			fprintf(f, "%s %zu without samples", lr->nr_procs ? "," : ":",
				lr->nr_insts - lr->nr_procs);
		fputc('\n', f);
	}
	fprintf(f, "  %" PRIu64 " samples, %.1f%% of the targets' %" PRIu64 "\n", lr->samples,
		percent(lr->samples, targets), targets);
	if (lr->no_code) {
		fputs("  no disassembly: ", f);
		output_listing__put(f, lr->no_code);
		fputc('\n', f);
	}
	if (lr->no_source && lr->nr_rows) {
		fputs("  no source lines: ", f);
		output_listing__put(f, lr->no_source);
		fputc('\n', f);
	}
}

static void row__write(FILE *f, const struct listing_row *row, const struct widths *w,
		       uint64_t samples, const struct output_opts *o, bool source)
{
	double pct = percent(row->count, samples);
	char addr[32], func[512], src[512];

	snprintf(addr, sizeof(addr), "0x%" PRIx64, row->addr);
	row__func(row, func, sizeof(func));
	row__src(row, src, sizeof(src));
	fprintf(f, "%c %*s  %-*s  %*" PRIu64 " %5.1f%%", pct >= HOT_PERCENT ? '>' : ' ',
		w->addr, addr, w->func, func, w->count, row->count, pct);
	if (source)
		fprintf(f, "  %-*s", o->disasm && row->text ? w->src : 0, src);
	if (o->disasm && row->text) {
		fputs("  ", f);
		output_listing__put(f, row->text);
	}
	fputc('\n', f);
}

static int output_listing__range_rows(FILE *f, const struct listing_range *lr,
				      const struct output_opts *o)
{
	bool source = o->source && !lr->no_source;
	const struct listing_row **rows;
	struct widths w;

	if (!lr->nr_rows)
		return 0;
	rows = listing__range_rows(lr, o->sort);
	if (!rows)
		return -ENOMEM;
	widths__measure(&w, lr);
	fprintf(f, "\n  %*s  %-*s  %*s      %%", w.addr, "address", w.func, "function+offset",
		w.count, "samples");
	if (source)
		fprintf(f, "  %-*s", o->disasm && lr->rows[0].text ? w.src : 0, "source");
	if (o->disasm && lr->rows[0].text)
		fprintf(f, "  instruction");
	fputc('\n', f);
	for (size_t i = 0; i < lr->nr_rows; i++)
		row__write(f, rows[i], &w, lr->samples, o, source);
	free(rows);
	return 0;
}

static void output_listing__range_lines(FILE *f, const struct listing_range *lr)
{
	size_t n = lr->nr_srcs < HOT_LINES ? lr->nr_srcs : HOT_LINES;

	if (!n)
		return;
	fprintf(f, "\n  hottest source lines:\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "  %5.1f%%  %*" PRIu64 "  ", percent(lr->srcs[i].count, lr->samples),
			digits(lr->srcs[0].count, 10), lr->srcs[i].count);
		output_listing__put(f, lr->srcs[i].file);
		fprintf(f, ":%" PRIu32 "\n", lr->srcs[i].line);
	}
	if (lr->nr_srcs > n)
		fprintf(f, "  (%zu more lines)\n", lr->nr_srcs - n);
}

static void output_listing__write_totals(FILE *f, const struct listing *ls, uint64_t targets)
{
	const uint64_t *st = ls->stats;
	uint64_t in = st[STAT_KEPT];

	fprintf(f, "total: %" PRIu64 " samples in the ranges of %" PRIu64
		   " seen (%.1f%%), of the targets' %" PRIu64 " (%.1f%%); %" PRIu64
		   " outside every range, %" PRIu64 " lost\n",
		in, st[STAT_SEEN], percent(in, st[STAT_SEEN]), targets, percent(in, targets),
		st[STAT_OUT_OF_RANGE], st[STAT_DROP_COUNTS_FULL]);
}

static int output_listing__write(FILE *f, const struct listing *ls, const struct output_opts *o)
{
	uint64_t targets = listing__target_samples(ls);
	int err = 0;

	for (size_t i = 0; i < ls->nr && !err; i++) {
		const struct listing_range *lr = &ls->ranges[i];

		output_listing__range_header(f, lr, i, targets);
		err = output_listing__range_rows(f, lr, o);
		if (o->source)
			output_listing__range_lines(f, lr);
		fputc('\n', f);
	}
	if (!err)
		output_listing__write_totals(f, ls, targets);
	if (!err && ferror(f))
		err = -EIO;
	return err;
}

const struct output_format output_listing_text = {
	.name = "text",
	.default_file = "bpfprof-range.txt",
	.takes = OUTPUT_LISTING,
	.write_listing = output_listing__write,
};
