// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The catalog as text or JSON (listprint.h). Columns are aligned within
 * each group (consecutive events of one kind and PMU); a status column is
 * there only when some event of the group does not open.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json.h"
#include "listprint.h"

/* Descriptions are wrapped onto their own lines when fewer columns are left. */
#define LISTPRINT_MIN_DESC 30
#define LISTPRINT_DESC_INDENT 8

/* One event's columns, escaped. */
struct listprint_row {
	char *name, *kind, *status, *desc;
};

/* Columns of @s as a terminal shows it: its bytes but UTF-8 continuations. */
static size_t listprint__width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static const char *listprint__state(enum catalog_state state)
{
	switch (state) {
	case CATALOG_AVAILABLE:
		return "";
	case CATALOG_UNSUPPORTED:
		return "not supported";
	case CATALOG_NOT_PERMITTED:
		return "not permitted";
	case CATALOG_NOT_HERE:
		return "not on this machine";
	case CATALOG_UNUSABLE:
		break;
	}
	return "cannot open";
}

static void listprint__free_row(struct listprint_row *r)
{
	free(r->name);
	free(r->kind);
	free(r->status);
	free(r->desc);
}

/*
 * @ev's columns. The why is ours (evprobe.c's texts, libpfm4's errors) or
 * evspec.c's error, which quotes sysfs names as they are: escaped too.
 */
static int listprint__row(const struct catalog_event *ev, struct listprint_row *r)
{
	const char *state = listprint__state(ev->state);
	char *why = NULL;
	int n;

	memset(r, 0, sizeof(*r));
	r->name = escape__dup(ev->name);
	r->desc = escape__dup(ev->desc ? ev->desc : "");
	if (asprintf(&r->kind, "[%s]", catalog__kind_name(ev->kind)) < 0)
		r->kind = NULL;
	if (ev->state == CATALOG_AVAILABLE || ev->state == CATALOG_NOT_HERE || !ev->why)
		n = asprintf(&r->status, "%s", state);
	else if ((why = escape__dup(ev->why)))
		n = asprintf(&r->status, "%s: %s", state, why);
	else
		n = -1;
	free(why);
	if (n < 0)
		r->status = NULL;
	if (!r->name || !r->desc || !r->kind || !r->status) {
		listprint__free_row(r);
		return -ENOMEM;
	}
	return 0;
}

/* The heading of the group that @ev starts. */
static void listprint__heading(FILE *f, const struct catalog_event *ev, bool first)
{
	static const char *const headings[] = {
		[CATALOG_SOFTWARE] = "Software events",
		[CATALOG_HARDWARE] = "Hardware events",
		[CATALOG_CACHE] = "Hardware cache events",
		[CATALOG_RAW] = "Raw events",
		[CATALOG_BREAKPOINT] = "Hardware breakpoints",
	};

	if (!first)
		fputc('\n', f);
	if (ev->kind == CATALOG_PMU || ev->kind == CATALOG_LIBPFM) {
		fputs("PMU ", f);
		escape__write(f, ev->pmu, strlen(ev->pmu));
		fprintf(f, " (%s):\n", ev->kind == CATALOG_PMU ? "sysfs" : "libpfm4");
	} else {
		fprintf(f, "%s:\n", headings[ev->kind]);
	}
}

static bool listprint__same_group(const struct catalog_event *a,
				  const struct catalog_event *b)
{
	return a->kind == b->kind &&
	       (!a->pmu || !b->pmu ? a->pmu == b->pmu : !strcmp(a->pmu, b->pmu));
}

/*
 * @desc after two spaces from column @col on, wrapped at @width (0: not
 * wrapped); on a line of its own when it does not fit and fewer than
 * LISTPRINT_MIN_DESC columns are left.
 */
static void listprint__desc(FILE *f, const char *desc, size_t col, unsigned int width)
{
	size_t room, len;

	if (width && col + 2 + LISTPRINT_MIN_DESC > width &&
	    col + 2 + listprint__width(desc) > width) {
		fprintf(f, "\n%*s", LISTPRINT_DESC_INDENT, "");
		col = LISTPRINT_DESC_INDENT;
	} else {
		fputs("  ", f);
		col += 2;
	}
	room = width > col ? width - col : 0;
	while (width && listprint__width(desc) > room) {
		/* the last space that fits, else the first one */
		for (len = room; len && desc[len] != ' '; len--)
			;
		if (!len)
			len = strcspn(desc, " ");
		fprintf(f, "%.*s", (int)len, desc);
		desc += len;
		desc += strspn(desc, " ");
		if (!*desc)
			return;
		fprintf(f, "\n%*s", (int)col, "");
	}
	fputs(desc, f);
}

/* The group of @n rows at @rows. */
static void listprint__group(FILE *f, const struct listprint_row *rows, size_t n,
			     unsigned int width)
{
	size_t wname = 0, wkind = 0, wstatus = 0, indent = width ? 2 : 0;

	for (size_t i = 0; i < n; i++) {
		size_t w = listprint__width(rows[i].name);

		wname = w > wname ? w : wname;
		w = strlen(rows[i].kind);
		wkind = w > wkind ? w : wkind;
		w = listprint__width(rows[i].status);
		wstatus = w > wstatus ? w : wstatus;
	}
	for (size_t i = 0; i < n; i++) {
		const struct listprint_row *r = &rows[i];
		size_t col = indent + wname + 2 + wkind;

		bool more = (wstatus && *r->status) || *r->desc;

		fprintf(f, "%*s%s%*s  %-*s", (int)indent, "", r->name,
			(int)(wname - listprint__width(r->name)), "", more ? (int)wkind : 0,
			r->kind);
		if (wstatus && more) {
			fprintf(f, "  %s%*s", r->status, *r->desc ?
				(int)(wstatus - listprint__width(r->status)) : 0, "");
			col += 2 + wstatus;
		}
		if (*r->desc)
			listprint__desc(f, r->desc, col, width);
		fputc('\n', f);
	}
}

int listprint__text(FILE *f, const struct catalog *cat, unsigned int width)
{
	struct listprint_row *rows = calloc(cat->nr ? cat->nr : 1, sizeof(*rows));
	int err = rows ? 0 : -ENOMEM;
	size_t start = 0;

	for (size_t i = 0; !err && i < cat->nr; i++)
		err = listprint__row(&cat->events[i], &rows[i]);
	for (size_t i = 1; !err && i <= cat->nr; i++) {
		if (i < cat->nr &&
		    listprint__same_group(&cat->events[start], &cat->events[i]))
			continue;
		if (width)
			listprint__heading(f, &cat->events[start], !start);
		listprint__group(f, rows + start, i - start, width);
		start = i;
	}
	for (size_t i = 0; rows && i < cat->nr; i++)
		listprint__free_row(&rows[i]);
	free(rows);
	if (!err && (fflush(f) || ferror(f)))
		err = -EIO;
	return err;
}

int listprint__json(FILE *f, const struct catalog *cat)
{
	struct json_writer w;
	int err;

	json__init(&w, f, 2, 1);
	err = json__begin_array(&w);
	for (size_t i = 0; !err && i < cat->nr; i++) {
		const struct catalog_event *ev = &cat->events[i];
		bool available = ev->state == CATALOG_AVAILABLE;

		err = json__begin_object(&w);
		err = err ?: json__field_string(&w, "name", ev->name);
		err = err ?: json__field_string(&w, "kind", catalog__kind_name(ev->kind));
		err = err ?: json__field_string(&w, "pmu", ev->pmu);
		err = err ?: json__field_bool(&w, "available", available);
		err = err ?: json__field_string(&w, "why", available ? NULL : ev->why);
		err = err ?: json__field_string(&w, "description", ev->desc);
		err = err ?: json__end_object(&w);
	}
	err = err ?: json__end_array(&w);
	err = err ?: json__finish(&w);
	if (!err && fflush(f))
		err = -EIO;
	return err;
}
