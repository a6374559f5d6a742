// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpfprof list (list.h): the catalog loaded and probed on the first online
 * CPU, filtered, written to standard output; on a terminal under headings
 * and wrapped to its width, to anything else one line per event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "catalog.h"
#include "idlist.h"
#include "list.h"
#include "listprint.h"
#include "nearest.h"
#include "procfs.h"

/* suggestions for a pattern that matches nothing */
#define LIST_NEAREST 3

/* The terminal's width, or 0 when standard output is no terminal. */
static unsigned int list__width(void)
{
	struct winsize ws;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col;
}

/* The first online CPU, where the probes open their events (0 if unknown). */
static int list__cpu(void)
{
	struct idlist cpus = { 0 };
	int cpu = 0;

	if (!procfs__online_cpus(&cpus, NULL) && cpus.nr)
		cpu = cpus.ids[0];
	idlist__free(&cpus);
	return cpu;
}

/* Why nothing is listed: no match (with the nearest names), or none opens. */
static int list__none(const struct list_opts *o, const struct catalog *cat,
		      size_t matched, char *why, size_t size)
{
	const char *p = o->nr_patterns ? o->patterns[0] : NULL;
	const char *more = o->nr_patterns > 1 ? " or the other patterns" : "";
	struct nearest n = { 0 };
	size_t len;

	if (!p) {
		snprintf(why, size, "no event opens on this machine (run without "
			 "--available to see why)");
		return -ENOENT;
	}
	if (matched) {
		snprintf(why, size, "no event matching '%s'%s opens on this machine (%zu "
			 "match%s: run without --available to see why)", p, more, matched,
			 matched == 1 ? "" : "es");
		return -ENOENT;
	}
	len = (size_t)snprintf(why, size, "no event matches '%s'%s", p, more);
	if (len < size && !nearest__init(&n, p, LIST_NEAREST)) {
		for (size_t i = 0; i < cat->nr; i++)
			nearest__offer(&n, cat->events[i].name);
		for (size_t i = 0; i < n.nr && len < size; i++)
			len += (size_t)snprintf(why + len, size - len, "%s%s",
						i ? ", " : " (did you mean: ", n.names[i]);
		if (n.nr && len < size)
			len += (size_t)snprintf(why + len, size - len, "?)");
	}
	nearest__free(&n);
	if (len < size)
		snprintf(why + len, size - len, "; expected a part of a name, a glob such "
			 "as 'cpu-*', a kind (software, hardware, cache, raw, pmu, libpfm4, "
			 "breakpoint) or a PMU");
	return -ENOENT;
}

int list__run(const struct list_opts *o, char *why, size_t size)
{
	size_t matched = 0, kept = 0;
	struct catalog cat;
	int err;

	err = catalog__load(&cat, o->root, why, size);
	if (err)
		return err;
	err = catalog__probe(&cat, list__cpu());
	if (err) {
		snprintf(why, size, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cat.nr; i++) {
		const struct catalog_event *ev = &cat.events[i];

		if (!catalog__wanted(ev, o->patterns, o->nr_patterns))
			continue;
		matched++;
		kept += !o->available || ev->state == CATALOG_AVAILABLE;
	}
	if (!kept) {
		err = list__none(o, &cat, matched, why, size);
		goto out;
	}
	catalog__filter(&cat, o->patterns, o->nr_patterns, o->available);
	err = o->json ? listprint__json(stdout, &cat) :
			listprint__text(stdout, &cat, list__width());
	if (err)
		snprintf(why, size, "cannot write the list: %s", strerror(-err));
out:
	catalog__free(&cat);
	return err;
}
