// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One refresh of the live top as text (topview.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "topview.h"

/* "\033[H\033[2J": the cursor home, the screen cleared */
#define TOP_VIEW_CLEAR "\033[H\033[2J"
/* self%, self, total% and their spaces: "%7s %10s %7s  " */
#define TOP_VIEW_FIXED 28
/* on a terminal, the event columns leave the function this much at least */
#define TOP_VIEW_FUNCTION 20
/* a percentage: "100.00%" */
#define TOP_VIEW_PERCENT 7

/*
 * @s (@len bytes, valid UTF-8 or ASCII) as one line of at most @cols
 * characters (0: any), cut before a character, never inside one.
 */
static void top_view__line(FILE *f, const char *s, size_t len, unsigned int cols)
{
	size_t n = 0, chars = 0;

	for (; n < len; n++) {
		if (((unsigned char)s[n] & 0xc0) == 0x80)
			continue; /* a continuation byte: the same character */
		if (cols && chars == cols)
			break;
		chars++;
	}
	fwrite(s, 1, n, f);
	fputc('\n', f);
}

/* A formatted line, cut to the width. */
static void __attribute__((format(printf, 3, 4)))
top_view__printf(FILE *f, unsigned int cols, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	top_view__line(f, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1, cols);
}

/* Several events: the header's first line gives each one's samples, each name whole. */
static int top_view__events(FILE *f, const struct top_table *t, const struct top_view *v)
{
	size_t size = 128 + strlen(v->rate), n;
	char *buf;

	for (size_t e = 0; e < t->nr_events; e++)
		size += strlen(v->events[e].name) + 32;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	n = (size_t)snprintf(buf, size, "bpfprof top:");
	for (size_t e = 0; e < t->nr_events; e++)
		n += (size_t)snprintf(buf + n, size - n, "%s %" PRIu64 " %s", e ? "," : "",
				      t->event_samples[e], v->events[e].name);
	n += (size_t)snprintf(buf + n, size - n, " samples, %" PRIu64 " lost in %.2f s; %s "
			      "requested", v->lost, v->seconds, v->rate);
	top_view__line(f, buf, n < size ? n : size - 1, v->cols);
	free(buf);
	return 0;
}

/*
 * Several events: the width of event @e's self% column (@e > 0), its
 * name's, so that plain text names each whole; on a terminal at most an
 * even share of what leaves TOP_VIEW_FUNCTION characters to the function
 * (a longer name is cut there: the header's first line names it whole);
 * never less than a percentage's.
 */
static size_t top_view__width(const struct top_table *t, const struct top_view *v, size_t e)
{
	size_t w = strlen(v->events[e].name), cap;

	if (v->cols) {
		cap = v->cols > TOP_VIEW_FIXED + TOP_VIEW_FUNCTION ?
			      (v->cols - TOP_VIEW_FIXED - TOP_VIEW_FUNCTION) / (t->nr_events - 1) : 0;
		cap = cap > 2 ? cap - 2 : 0;
		if (w > cap)
			w = cap;
	}
	return w > TOP_VIEW_PERCENT ? w : TOP_VIEW_PERCENT;
}

/* The bytes a line's numbers take at most: the fixed columns and each event's. */
static size_t top_view__numbers_max(const struct top_table *t, const struct top_view *v)
{
	size_t n = TOP_VIEW_FIXED + 64;

	for (size_t e = 1; e < t->nr_events; e++)
		n += top_view__width(t, v, e) + 2;
	return n;
}

/*
 * The column names in @buf (top_view__numbers_max bytes); with several
 * events a self% column per other event after total%, headed by its name
 * (top_view__width).
 */
static void top_view__columns(FILE *f, const struct top_table *t, const struct top_view *v,
			      char *buf, size_t size)
{
	int n = snprintf(buf, size, "%7s %10s %7s  ", "self%", "self", "total%");

	for (size_t e = 1; e < t->nr_events; e++) {
		int w = (int)top_view__width(t, v, e);

		n += snprintf(buf + n, size - n, "%*.*s  ", w, w, v->events[e].name);
	}
	n += snprintf(buf + n, size - n, "function");
	top_view__line(f, buf, (size_t)n < size ? (size_t)n : size - 1, v->cols);
}

int top_view__put(FILE *f, const struct top_table *t, const struct top_view *v)
{
	/* the header's two lines and the column names; full screen, a line
	   spare: a newline on the last line would scroll the header away */
	size_t shown = t->nr, head = v->screen ? 4 : 3;
	size_t size = top_view__numbers_max(t, v);
	char *num = malloc(size);
	int err = 0;

	if (!num)
		return -ENOMEM;
	if (v->limit && v->limit < shown)
		shown = v->limit;
	if (v->rows && v->rows > head && v->rows - head < shown)
		shown = v->rows - head;
	else if (v->rows && v->rows <= head)
		shown = 0;
	if (v->screen)
		fputs(TOP_VIEW_CLEAR, f);
	if (t->nr_events)
		err = top_view__events(f, t, v);
	else
		top_view__printf(f, v->cols,
				 "bpfprof top: %" PRIu64 " samples, %" PRIu64 " lost in %.2f s; "
				 "%s %s requested, %.1f Hz effective on the busiest CPU",
				 t->samples, v->lost, v->seconds, v->event, v->rate, v->hz);
	if (err) {
		free(num);
		return err;
	}
	top_view__printf(f, v->cols, "%s; %zu function%s%s", v->target, t->nr,
			 t->nr == 1 ? "" : "s", v->screen ? "; q quits" : "");
	top_view__columns(f, t, v, num, size);
	for (size_t i = 0; i < shown; i++) {
		const struct top_table_row *row = &t->rows[i];
		size_t len, n;
		const char *name = top_table__name(t, i, &len);

		n = snprintf(num, size, "%6.2f%% %10" PRIu64 " %6.2f%%  ",
			     top_table__percent(row->self, t->samples), row->self,
			     top_table__percent(row->total, t->samples));
		/* several events: each other event's self share, under its name */
		for (size_t e = 1; e < t->nr_events; e++)
			n += snprintf(num + n, size - n, "%*.2f%%  ",
				      (int)top_view__width(t, v, e) - 1,
				      top_table__percent(top_table__event_self(t, i, e),
							 t->event_samples[e]));
		if (v->cols && n >= v->cols) {
			top_view__line(f, num, n, v->cols);
			continue;
		}
		fwrite(num, 1, n, f);
		top_view__line(f, name, len, v->cols ? v->cols - n : 0);
	}
	free(num);
	if (!v->screen)
		fputc('\n', f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
