/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every event bpfprof can name, as `bpfprof list` shows them, in groups:
 * perf's software and hardware events, the cache events, the raw syntax,
 * each sysfs PMU's named events, each libpfm4 PMU's events (with their
 * descriptions), the breakpoint syntax. Each says whether it opens on this
 * machine and, if not, why (kernel/evprobe.c).
 */
#ifndef BPFPROF_CATALOG_H
#define BPFPROF_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

enum catalog_kind {
	CATALOG_SOFTWARE,
	CATALOG_HARDWARE,
	CATALOG_CACHE,
	CATALOG_RAW,
	CATALOG_PMU,     /* a named event of a sysfs PMU: PMU/EVENT/ */
	CATALOG_LIBPFM,  /* an event of a PMU libpfm4 detects: PMU::EVENT */
	CATALOG_BREAKPOINT,
};

enum catalog_state {
	CATALOG_AVAILABLE,
	CATALOG_UNSUPPORTED,   /* no PMU, its PMU lacks it or cannot sample it */
	CATALOG_NOT_PERMITTED,
	CATALOG_NOT_HERE,      /* described by a sysfs root of another machine */
	CATALOG_UNUSABLE,      /* cannot be opened or named alone: why says */
};

struct catalog_event {
	char *name; /* as -e takes it */
	enum catalog_kind kind;
	char *pmu;  /* a named event's PMU (sysfs's or libpfm4's name), else NULL */
	char *desc; /* NULL: none */
	bool core;  /* needs a core PMU */
	struct perf_event_attr *attrs; /* what a probe opens (none: not probed) */
	size_t nr_attrs;
	enum catalog_state state;
	char *why; /* NULL when available */
};

struct catalog {
	struct catalog_event *events;
	size_t nr, cap;
};

/*
 * Every event into @cat, not probed yet (each CATALOG_UNUSABLE "not
 * probed"). @root: the sysfs PMU root; NULL for this machine's, else its
 * PMUs' events are CATALOG_NOT_HERE. 0, or -errno with why in @why.
 */
int catalog__load(struct catalog *cat, const char *root, char *why, size_t size);

/* Probe every event on @cpu: its state and why. 0 or -ENOMEM. */
int catalog__probe(struct catalog *cat, int cpu);

/*
 * Does @ev match @pattern? A glob (*, ?, [) matches the whole name; other
 * text a part of the name, or the kind or PMU whole; case ignored. Pure.
 */
bool catalog__matches(const struct catalog_event *ev, const char *pattern);

/* Does @ev match any of the @nr @patterns (none: every event does)? */
bool catalog__wanted(const struct catalog_event *ev, char *const *patterns, size_t nr);

/* Keep the events catalog__wanted and, with @available, open here. */
void catalog__filter(struct catalog *cat, char *const *patterns, size_t nr, bool available);

/* "software", "hardware", "cache", "raw", "pmu", "libpfm4", "breakpoint". */
const char *catalog__kind_name(enum catalog_kind kind);

void catalog__free(struct catalog *cat);

#endif /* BPFPROF_CATALOG_H */
