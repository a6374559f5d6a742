/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One refresh of the live top as text: a header (the window's length,
 * samples and samples lost, the rate asked and seen, the targets), the
 * column names, then the table's first rows: self%, self, total%, with
 * several events a self% per other event headed by its name (whole in
 * plain text; on a terminal as wide as leaves the function 20 characters),
 * the function (escaped by the table: never a control byte), each line cut to
 * the width on a character boundary. Full screen: the cursor home and the
 * screen cleared first, at most the screen's height; plain: a blank line
 * after.
 */
#ifndef BPFPROF_TOPVIEW_H
#define BPFPROF_TOPVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "toptable.h"

struct top_view {
	double seconds;     /* the window */
	uint64_t lost;      /* samples lost in it */
	double hz;          /* seen on its busiest CPU */
	const char *rate;   /* "99 Hz", "period 10000" */
	const char *event;  /* "cpu-clock" */
	const struct profile_event *events; /* with several events (top_table.nr_events) */
	const char *target; /* "the whole system", "pid 123" */
	unsigned int rows;  /* lines at most, the header's included; 0: no bound */
	unsigned int cols;  /* characters a line at most; 0: no bound */
	size_t limit;       /* table rows at most; 0: no bound */
	bool screen;        /* full screen (clear first), else plain */
};

/* Write @t as @v says; 0, -ENOMEM or -EIO. */
int top_view__put(FILE *f, const struct top_table *t, const struct top_view *v);

#endif /* BPFPROF_TOPVIEW_H */
