// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every event bpfprof can name (catalog.h): the names come from where -e
 * looks them up (evspec.c's generic names, evcache.c's cache events,
 * pmudb.c's sysfs PMUs, pfmevents.c's libpfm4 tables), each parsed the
 * way -e parses it into what a probe opens.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "array.h"
#include "catalog.h"
#include "evcache.h"
#include "evprobe.h"
#include "evspec.h"
#include "pfmevents.h"
#include "pmudb.h"

/* Where the kernel describes its PMUs. */
#define CATALOG_ROOT "/sys/bus/event_source/devices"

/* What perf's generic events count, as perf's documentation says it. */
static const struct {
	const char *name, *desc;
} catalog_descs[] = {
	{ "cpu-clock", "a high-resolution timer per CPU: time on CPU (the default)" },
	{ "task-clock", "a high-resolution timer per task: time the task runs" },
	{ "page-faults", "page faults" },
	{ "context-switches", "context switches" },
	{ "cpu-migrations", "migrations of a task to another CPU" },
	{ "minor-faults", "page faults served without I/O" },
	{ "major-faults", "page faults that needed I/O" },
	{ "alignment-faults", "unaligned accesses the kernel fixed up" },
	{ "emulation-faults", "instructions the kernel emulated" },
	{ "cycles", "CPU cycles" },
	{ "instructions", "instructions retired" },
	{ "cache-references", "cache accesses (usually the last level cache)" },
	{ "cache-misses", "cache misses (usually the last level cache)" },
	{ "branches", "branch instructions retired" },
	{ "branch-misses", "mispredicted branches" },
	{ "bus-cycles", "bus cycles" },
	{ "stalled-cycles-frontend", "cycles the front end issued nothing" },
	{ "stalled-cycles-backend", "cycles the back end retired nothing" },
	{ "ref-cycles", "reference cycles, not scaled by frequency changes" },
};

/* A breakpoint probe watches this. */
static long catalog_watched;

static const char *catalog__desc(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(catalog_descs); i++)
		if (!strcmp(catalog_descs[i].name, name))
			return catalog_descs[i].desc;
	return NULL;
}

/* A new event of @cat, its @name taken; NULL on ENOMEM (@name freed). */
static struct catalog_event *catalog__add(struct catalog *cat, char *name,
					  enum catalog_kind kind, const char *pmu,
					  const char *desc)
{
	struct catalog_event *ev;

	if (!name || array__grow((void **)&cat->events, &cat->cap, cat->nr + 1,
				 sizeof(*cat->events))) {
		free(name);
		return NULL;
	}
	ev = &cat->events[cat->nr++];
	memset(ev, 0, sizeof(*ev));
	ev->name = name;
	ev->kind = kind;
	ev->state = CATALOG_UNUSABLE;
	ev->core = kind == CATALOG_HARDWARE || kind == CATALOG_CACHE || kind == CATALOG_RAW;
	if ((pmu && !(ev->pmu = strdup(pmu))) || (desc && !(ev->desc = strdup(desc))) ||
	    !(ev->why = strdup("not probed")))
		return NULL;
	return ev;
}

/* @ev's attrs as -e gives them for its name; why it cannot be named if not. */
static int catalog__parse(struct catalog_event *ev, const struct pmu_db *db)
{
	struct evspec_list list = { 0 };
	char why[512];
	int err = evspec__parse(ev->name, db, &list, why, sizeof(why));

	if (err == -ENOMEM)
		return err;
	if (err) {
		free(ev->why);
		ev->why = strdup(why);
		return ev->why ? 0 : -ENOMEM;
	}
	ev->attrs = list.events[0].attrs;
	ev->nr_attrs = list.events[0].nr_attrs;
	list.events[0].attrs = NULL;
	evspec__free(&list);
	return 0;
}

/* perf's generic events (software, then hardware) and the cache events. */
static int catalog__generic(struct catalog *cat)
{
	struct catalog_event *ev;
	const char *name;

	for (unsigned int i = 0; (name = evspec__known(i)); i++) {
		ev = catalog__add(cat, strdup(name), CATALOG_SOFTWARE, NULL,
				  catalog__desc(name));
		if (!ev || catalog__parse(ev, NULL))
			return -ENOMEM;
		if (ev->nr_attrs && evspec__is_hardware(&ev->attrs[0])) {
			ev->kind = CATALOG_HARDWARE;
			ev->core = true;
		}
	}
	for (unsigned int i = 0; (name = evcache__known(i)); i++) {
		ev = catalog__add(cat, strdup(name), CATALOG_CACHE, NULL, NULL);
		if (!ev || catalog__parse(ev, NULL))
			return -ENOMEM;
	}
	ev = catalog__add(cat, strdup("rNNNN"), CATALOG_RAW, NULL,
			  "a raw event of the core PMU: its config in hexadecimal (r01b7)");
	return ev ? 0 : -ENOMEM;
}

/* Each sysfs PMU's named events, PMU/EVENT/; a PMU whose files do not parse, once. */
static int catalog__pmus(struct catalog *cat, const struct pmu_db *db, bool here)
{
	struct catalog_event *ev;
	char *name, *desc;

	for (size_t i = 0; i < db->nr; i++) {
		const struct pmu *pmu = &db->pmus[i];

		if (pmu->error) {
			ev = catalog__add(cat, strdup(pmu->name), CATALOG_PMU, pmu->name,
					  pmu->error);
			if (!ev)
				return -ENOMEM;
			free(ev->why);
			if (!(ev->why = strdup("its sysfs files do not parse")))
				return -ENOMEM;
			continue;
		}
		for (size_t j = 0; j < pmu->nr_aliases; j++) {
			const struct pmu_alias *a = &pmu->aliases[j];

			if (asprintf(&name, "%s/%s/", pmu->name, a->name) < 0)
				return -ENOMEM;
			if (!a->unit)
				desc = strdup(a->terms);
			else if (asprintf(&desc, "%s (in %s)", a->terms, a->unit) < 0)
				desc = NULL;
			ev = desc ? catalog__add(cat, name, CATALOG_PMU, pmu->name, desc) :
				    NULL;
			free(desc);
			if (!ev || catalog__parse(ev, db))
				return -ENOMEM;
			ev->core = pmu->core;
			if (!here) {
				ev->state = CATALOG_NOT_HERE;
				free(ev->why);
				if (!(ev->why = strdup("not on this machine")))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/* One libpfm4 event: PMU::EVENT, its attr as -e would give it. */
static int catalog__pfm_event(const struct pfmevents_event *pe, void *arg)
{
	struct catalog *cat = arg;
	struct perf_event_attr attr;
	struct catalog_event *ev;
	char *name, why[256];
	int err;

	if (asprintf(&name, "%s::%s", pe->pmu, pe->name) < 0)
		return -ENOMEM;
	ev = catalog__add(cat, name, CATALOG_LIBPFM, pe->pmu, pe->desc);
	if (!ev)
		return -ENOMEM;
	ev->core = pe->core;
	err = pfmevents__parse(ev->name, &attr, why, sizeof(why));
	if (err == -ENOMEM)
		return err;
	if (err) {
		free(ev->why);
		ev->why = strdup(err == -EINVAL ? why : strerror(-err));
		return ev->why ? 0 : -ENOMEM;
	}
	ev->attrs = malloc(sizeof(*ev->attrs));
	if (!ev->attrs)
		return -ENOMEM;
	ev->attrs[0] = attr;
	ev->nr_attrs = 1;
	return 0;
}

static int catalog__breakpoint(struct catalog *cat)
{
	struct catalog_event *ev;

	ev = catalog__add(cat, strdup("mem:ADDR[/LEN][:rwx]"), CATALOG_BREAKPOINT, NULL,
			  "a hardware breakpoint: each access to ADDR (see bpfprof watch)");
	if (!ev || !(ev->attrs = calloc(1, sizeof(*ev->attrs))))
		return -ENOMEM;
	ev->nr_attrs = 1;
	ev->attrs->type = PERF_TYPE_BREAKPOINT;
	ev->attrs->bp_type = HW_BREAKPOINT_W;
	ev->attrs->bp_addr = (uintptr_t)&catalog_watched;
	ev->attrs->bp_len = HW_BREAKPOINT_LEN_8;
	return 0;
}

int catalog__load(struct catalog *cat, const char *root, char *why, size_t size)
{
	struct pmu_db db;
	int err;

	memset(cat, 0, sizeof(*cat));
	err = pmudb__load(&db, root ? root : CATALOG_ROOT, why, size);
	if (err)
		return err;
	err = catalog__generic(cat);
	err = err ?: catalog__pmus(cat, &db, !root);
	pmudb__free(&db);
	if (!err) {
		err = pfmevents__each(catalog__pfm_event, cat, why, size);
		if (err && err != -ENOMEM) {
			/* libpfm4 that does not initialise names nothing: the rest stands */
			err = 0;
		}
	}
	err = err ?: catalog__breakpoint(cat);
	if (err) {
		catalog__free(cat);
		snprintf(why, size, "out of memory");
	}
	return err;
}

/* Probe @ev: any of its attrs that opens makes it available. */
static int catalog__probe_one(struct catalog_event *ev, int cpu, bool core_pmu)
{
	enum evprobe_why w = EVPROBE_NO_PMU;
	int err = 0;

	if (ev->state == CATALOG_NOT_HERE)
		return 0;
	if (ev->core && !core_pmu) {
		w = EVPROBE_NO_PMU;
	} else if (ev->kind == CATALOG_RAW) {
		w = EVPROBE_OK;
	} else if (!ev->nr_attrs) {
		return 0; /* cannot be named alone: why says */
	} else {
		for (size_t i = 0; i < ev->nr_attrs; i++) {
			w = evprobe__try(&ev->attrs[i], cpu, core_pmu, &err);
			if (w == EVPROBE_OK)
				break;
		}
	}
	free(ev->why);
	ev->why = NULL;
	switch (w) {
	case EVPROBE_OK:
		ev->state = CATALOG_AVAILABLE;
		return 0;
	case EVPROBE_PERM:
		ev->state = CATALOG_NOT_PERMITTED;
		break;
	case EVPROBE_OTHER:
		ev->state = CATALOG_UNUSABLE;
		break;
	default:
		ev->state = CATALOG_UNSUPPORTED;
		break;
	}
	ev->why = strdup(evprobe__text(w, err));
	return ev->why ? 0 : -ENOMEM;
}

int catalog__probe(struct catalog *cat, int cpu)
{
	bool core_pmu = evprobe__core_pmu();
	int err = 0;

	for (size_t i = 0; !err && i < cat->nr; i++)
		err = catalog__probe_one(&cat->events[i], cpu, core_pmu);
	return err;
}

bool catalog__matches(const struct catalog_event *ev, const char *pattern)
{
	if (strpbrk(pattern, "*?["))
		return !fnmatch(pattern, ev->name, FNM_CASEFOLD);
	return strcasestr(ev->name, pattern) ||
	       !strcasecmp(pattern, catalog__kind_name(ev->kind)) ||
	       (ev->pmu && !strcasecmp(pattern, ev->pmu));
}

static void catalog__free_event(struct catalog_event *ev)
{
	free(ev->name);
	free(ev->pmu);
	free(ev->desc);
	free(ev->attrs);
	free(ev->why);
}

bool catalog__wanted(const struct catalog_event *ev, char *const *patterns, size_t nr)
{
	bool want = !nr;

	for (size_t i = 0; !want && i < nr; i++)
		want = catalog__matches(ev, patterns[i]);
	return want;
}

void catalog__filter(struct catalog *cat, char *const *patterns, size_t nr, bool available)
{
	size_t kept = 0;

	for (size_t i = 0; i < cat->nr; i++) {
		struct catalog_event *ev = &cat->events[i];

		if (catalog__wanted(ev, patterns, nr) &&
		    (!available || ev->state == CATALOG_AVAILABLE))
			cat->events[kept++] = *ev;
		else
			catalog__free_event(ev);
	}
	cat->nr = kept;
}

const char *catalog__kind_name(enum catalog_kind kind)
{
	static const char *const names[] = {
		[CATALOG_SOFTWARE] = "software", [CATALOG_HARDWARE] = "hardware",
		[CATALOG_CACHE] = "cache",       [CATALOG_RAW] = "raw",
		[CATALOG_PMU] = "pmu",           [CATALOG_LIBPFM] = "libpfm4",
		[CATALOG_BREAKPOINT] = "breakpoint",
	};

	return names[kind];
}

void catalog__free(struct catalog *cat)
{
	if (!cat)
		return;
	for (size_t i = 0; i < cat->nr; i++)
		catalog__free_event(&cat->events[i]);
	free(cat->events);
	memset(cat, 0, sizeof(*cat));
}
