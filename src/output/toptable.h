/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The table of functions of a profile, as perf report and pprof -top show
 * them: one row per function with its self samples (the stacks whose leaf
 * it is) and total samples (the stacks that hold it at least once: a
 * recursive function counts once a stack), sorted by self, then total,
 * then name; a profile of several events is sorted by its first event's,
 * with each event's self samples beside. A function is a frame's text as the folded file writes it
 * (frame-text.c: kind suffixes, escaped), so frames that read alike are
 * one row. Shared by the top format (output-top.c) and the live `bpfprof
 * top` (src/top/).
 */
#ifndef BPFPROF_TOPTABLE_H
#define BPFPROF_TOPTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "frame-text.h"
#include "output.h"

struct top_table_row {
	uint64_t self, total;
	uint32_t rank; /* of its text: ranks are in name order */
};

struct top_table {
	struct frame_text text;
	struct frame_rank rank;
	struct top_table_row *rows; /* nr, in the table's order */
	size_t nr;
	uint64_t samples; /* of the whole profile (of its first event, with several) */
	/*
	 * a profile of several events: the rows' self and total are the first
	 * event's (the table's order); each event's self per row and samples
	 */
	size_t nr_events;
	uint64_t *event_self; /* [rank * nr_events + event] */
	uint64_t *event_samples;
};

/* The table of @p as @o shows its frames; 0 or -ENOMEM (free it either way). */
int top_table__build(struct top_table *t, const struct profile *p,
		    const struct output_opts *o);
/* Row @i's function, escaped (never a control byte), @len bytes, not NUL-terminated. */
const char *top_table__name(const struct top_table *t, size_t i, size_t *len);
/* Row @i's self samples of event @event (a profile of several events). */
uint64_t top_table__event_self(const struct top_table *t, size_t i, size_t event);
/* @part of @whole in percent; 0 of nothing. */
double top_table__percent(uint64_t part, uint64_t whole);
void top_table__free(struct top_table *t);

#endif /* BPFPROF_TOPTABLE_H */
