// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The listing of `bpfprof range` as one JSON document (-f json): the run's
 * totals, then per range what the text listing's header says, one object
 * per instruction with the fields of its row, and the samples per source
 * line. The numbers are those of the text listing (output-listing.c);
 * percentages have two decimals, addresses are hex strings, unknowns null.
 * man/bpfprof-range.1 (JSON OUTPUT) documents every field; a change of a
 * field's meaning or a removal increments JSON_VERSION.
 */
#include <errno.h>
#include <stdlib.h>

#include "json.h"
#include "output.h"

#define JSON_VERSION 1
#define JSON_INDENT 2
/* members on lines of their own down to the instructions, each on one line */
#define JSON_LEVELS 4
#define PERCENT_DECIMALS 2

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void samples__write(struct json_writer *w, const struct listing *ls)
{
	const uint64_t *st = ls->stats;

	json__key(w, "samples");
	json__begin_object(w);
	json__field_u64(w, "seen", st[STAT_SEEN]);
	json__field_u64(w, "idle", st[STAT_IDLE]);
	json__field_u64(w, "filtered", st[STAT_FILTERED]);
	json__field_u64(w, "targets", listing__target_samples(ls));
	json__field_u64(w, "in_ranges", st[STAT_KEPT]);
	json__field_u64(w, "outside", st[STAT_OUT_OF_RANGE]);
	json__key(w, "lost");
	json__begin_object(w);
	json__field_u64(w, "counts_full", st[STAT_DROP_COUNTS_FULL]);
	json__end_object(w);
	json__end_object(w);
}

static void procs__write(struct json_writer *w, const struct listing_range *lr)
{
	json__field_u64(w, "counted_in", lr->nr_insts);
	json__key(w, "processes");
	json__begin_array(w);
	for (size_t i = 0; i < lr->nr_procs; i++) {
		json__begin_object(w);
		json__field_i64(w, "pid", lr->procs[i].tgid);
		json__field_string(w, "comm", lr->procs[i].comm);
		json__field_u64(w, "samples", lr->procs[i].count);
		json__end_object(w);
	}
	json__end_array(w);
}

static void listing_json__range_header(struct json_writer *w, const struct listing_range *lr,
				       uint64_t targets)
{
	bool resolved = lr->end > lr->start;

	json__field_string(w, "arg", lr->arg);
	json__field_string(w, "kind", lr->kind);
	json__field_string(w, "binary", lr->binary);
	json__field_string(w, "other_binary", lr->other);
	json__field_string(w, "symbol", lr->symbol);
	json__field_string(w, "impl", lr->impl);
	if (resolved) {
		json__field_hex(w, "start", lr->start);
		json__field_hex(w, "end", lr->end);
		json__field_u64(w, "bytes", lr->end - lr->start);
	} else {
		json__field_null(w, "start");
		json__field_null(w, "end");
		json__field_null(w, "bytes");
	}
	json__field_bool(w, "unmapped", lr->unmapped);
	json__field_u64(w, "samples", lr->samples);
	json__field_double(w, "percent_of_targets", percent(lr->samples, targets),
			   PERCENT_DECIMALS);
	procs__write(w, lr);
	json__field_string(w, "no_code", lr->no_code);
	/* as in the text: a range without rows has no source column to miss */
	json__field_string(w, "no_source", lr->nr_rows ? lr->no_source : NULL);
}

static void row__write(struct json_writer *w, const struct listing_row *row, uint64_t samples,
		       const struct output_opts *o)
{
	json__begin_object(w);
	json__field_hex(w, "address", row->addr);
	json__field_string(w, "function", row->func);
	json__field_u64_if(w, "offset", row->func, row->func_off);
	json__field_u64(w, "samples", row->count);
	json__field_double(w, "percent", percent(row->count, samples), PERCENT_DECIMALS);
	if (o->source) {
		bool known = row->file && row->line;

		json__field_string(w, "file", known ? row->file : NULL);
		json__field_u64_if(w, "line", known, row->line);
	}
	if (o->disasm)
		json__field_string(w, "disasm", row->text);
	json__end_object(w);
}

/* The instructions, in the order of --sort. */
static int listing_json__range_rows(struct json_writer *w, const struct listing_range *lr,
				    const struct output_opts *o)
{
	const struct listing_row **rows = listing__range_rows(lr, o->sort);

	if (!rows)
		return -ENOMEM;
	json__key(w, "instructions");
	json__begin_array(w);
	for (size_t i = 0; i < lr->nr_rows; i++)
		row__write(w, rows[i], lr->samples, o);
	json__end_array(w);
	free(rows);
	return 0;
}

/* Every source line with samples, hottest first (the text lists ten). */
static void listing_json__range_lines(struct json_writer *w, const struct listing_range *lr)
{
	json__key(w, "source_lines");
	json__begin_array(w);
	for (size_t i = 0; i < lr->nr_srcs; i++) {
		json__begin_object(w);
		json__field_string(w, "file", lr->srcs[i].file);
		json__field_u64(w, "line", lr->srcs[i].line);
		json__field_u64(w, "samples", lr->srcs[i].count);
		json__field_double(w, "percent", percent(lr->srcs[i].count, lr->samples),
				   PERCENT_DECIMALS);
		json__end_object(w);
	}
	json__end_array(w);
}

static int listing_json__write(FILE *f, const struct listing *ls, const struct output_opts *o)
{
	uint64_t targets = listing__target_samples(ls);
	struct json_writer w;
	int err = 0;

	json__init(&w, f, JSON_INDENT, JSON_LEVELS);
	json__begin_object(&w);
	json__field_u64(&w, "version", JSON_VERSION);
	json__field_double(&w, "duration_s", ls->duration, 3);
	samples__write(&w, ls);
	json__key(&w, "ranges");
	json__begin_array(&w);
	for (size_t i = 0; i < ls->nr && !err; i++) {
		const struct listing_range *lr = &ls->ranges[i];

		json__begin_object(&w);
		listing_json__range_header(&w, lr, targets);
		err = listing_json__range_rows(&w, lr, o);
		if (o->source)
			listing_json__range_lines(&w, lr);
		json__end_object(&w);
	}
	json__end_array(&w);
	json__end_object(&w);
	return err ?: json__finish(&w);
}

const struct output_format output_listing_json = {
	.name = "json",
	.ext = ".json",
	.default_file = "bpfprof-range.json",
	.takes = OUTPUT_LISTING,
	.write_listing = listing_json__write,
};
