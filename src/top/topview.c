// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One refresh of the live top as text (topview.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "topview.h"

/* "\033[H\033[2J": the cursor home, the screen cleared */
#define TOP_VIEW_CLEAR "\033[H\033[2J"

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

/* Several events: the header's first line gives each one's samples. */
static void top_view__events(FILE *f, const struct top_table *t, const struct top_view *v)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "bpfprof top:");

	for (size_t e = 0; e < t->nr_events && n < (int)sizeof(buf) - 1; e++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s %" PRIu64 " %s", e ? "," : "",
			      t->event_samples[e], v->events[e].name);
	if (n < (int)sizeof(buf) - 1)
		snprintf(buf + n, sizeof(buf) - n, " samples, %" PRIu64 " lost in %.2f s; %s "
			 "requested", v->lost, v->seconds, v->rate);
	top_view__printf(f, v->cols, "%s", buf);
}

/*
 * The column names; with several events a self% column per other event
 * after total%, headed by the event's name cut to the column (the header's
 * first line names them whole).
 */
static void top_view__columns(FILE *f, const struct top_table *t, const struct top_view *v)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "%7s %10s %7s  ", "self%", "self", "total%");

	for (size_t e = 1; e < t->nr_events && n < (int)sizeof(buf) - 10; e++)
		n += snprintf(buf + n, sizeof(buf) - n, "%7.7s  ", v->events[e].name);
	top_view__printf(f, v->cols, "%sfunction", buf);
}

int top_view__put(FILE *f, const struct top_table *t, const struct top_view *v)
{
	/* the header's two lines and the column names; full screen, a line
	   spare: a newline on the last line would scroll the header away */
	size_t shown = t->nr, head = v->screen ? 4 : 3;

	if (v->limit && v->limit < shown)
		shown = v->limit;
	if (v->rows && v->rows > head && v->rows - head < shown)
		shown = v->rows - head;
	else if (v->rows && v->rows <= head)
		shown = 0;
	if (v->screen)
		fputs(TOP_VIEW_CLEAR, f);
	if (t->nr_events)
		top_view__events(f, t, v);
	else
		top_view__printf(f, v->cols,
				 "bpfprof top: %" PRIu64 " samples, %" PRIu64 " lost in %.2f s; "
				 "%s %s requested, %.1f Hz effective on the busiest CPU",
				 t->samples, v->lost, v->seconds, v->event, v->rate, v->hz);
	top_view__printf(f, v->cols, "%s; %zu function%s%s", v->target, t->nr,
			 t->nr == 1 ? "" : "s", v->screen ? "; q quits" : "");
	top_view__columns(f, t, v);
	for (size_t i = 0; i < shown; i++) {
		const struct top_table_row *row = &t->rows[i];
		char num[256];
		size_t len, n;
		const char *name = top_table__name(t, i, &len);

		n = snprintf(num, sizeof(num), "%6.2f%% %10" PRIu64 " %6.2f%%  ",
			     top_table__percent(row->self, t->samples), row->self,
			     top_table__percent(row->total, t->samples));
		/* several events: each other event's self share, 7 columns each */
		for (size_t e = 1; e < t->nr_events && n < sizeof(num) - 10; e++)
			n += snprintf(num + n, sizeof(num) - n, "%6.2f%%  ",
				      top_table__percent(top_table__event_self(t, i, e),
							 t->event_samples[e]));
		if (v->cols && n >= v->cols) {
			top_view__line(f, num, n, v->cols);
			continue;
		}
		fwrite(num, 1, n, f);
		top_view__line(f, name, len, v->cols ? v->cols - n : 0);
	}
	if (!v->screen)
		fputc('\n', f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
