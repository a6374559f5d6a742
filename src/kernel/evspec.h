/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Event strings (-e) -> struct perf_event_attr, in perf's spelling. Pure:
 * opens no events; what it knows of the machine's PMUs comes in a struct
 * pmu_db (pmudb.c: sysfs, or a fixture directory). The grammar:
 *
 *   LIST   := EVENT[,EVENT...]            (commas inside pmu/.../ are terms)
 *   EVENT  := NAME[/TERMS/][:MODS]        generic, software, cache events
 *           | rHEX[:MODS]                 raw event of the core PMU
 *           | PMU/TERMS/[[:]MODS]         TERMS: term[=value], named events
 *           | ALIAS[:MODS]                a named event of some PMU
 *           | mem:ADDR[/LEN][:rwx][:MODS] breakpoint
 *   MODS   := u k p pp ppp                exclusions and precise_ip
 *   TERMS  also take period=N, freq=N, name=NAME (and config, config1, config2)
 *
 * On a hybrid machine (several core PMUs) a hardware, cache or raw event
 * is one attr per core PMU (the PMU type in config's top 32 bits for
 * hardware and cache events, in attr.type for raw ones).
 */
#ifndef BPFPROF_EVSPEC_H
#define BPFPROF_EVSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

struct pmu_db;

/* One event as written: its attrs (several on a hybrid machine). */
struct evspec_event {
	char *name; /* the name= term, else the event as written */
	struct perf_event_attr *attrs;
	size_t nr_attrs;
	bool period_set; /* a period= or freq= term (a breakpoint's own 1 is not one) */
	double scale;    /* a named event's .scale, else 1 */
	char *unit;      /* a named event's .unit, else NULL */
};

struct evspec_list {
	struct evspec_event *events;
	size_t nr;
};

/*
 * Parse @spec (a comma list) and append its events to @list. @db may be
 * NULL (no PMU described). 0, or -EINVAL with one line in @why naming
 * the wrong part and what was expected (nearest names for unknown ones),
 * or -ENOMEM; @list then holds what it held before. @why quotes @spec and
 * sysfs files as they are: its printer escapes it.
 */
int evspec__parse(const char *spec, const struct pmu_db *db, struct evspec_list *list,
		  char *why, size_t size);

/*
 * Another spelling's parser, for the events of a list that evspec rejects
 * (pfmevents.c's libpfm4 names): @event into *@attr, 0; -ENOENT when it
 * does not know the name either (evspec's error stands); -EINVAL with
 * why in @why when it knows the name but not the rest.
 */
typedef int (*evspec_other_fn)(const char *event, struct perf_event_attr *attr, char *why,
			       size_t size);

/*
 * evspec__parse, an event it rejects then given to @other (NULL: none):
 * that parser's attr (the event named as written, no period of its own),
 * or, when it fails too, evspec's error; its own only when evspec did not
 * know the name and it did.
 */
int evspec__parse_with(const char *spec, const struct pmu_db *db, evspec_other_fn other,
		       struct evspec_list *list, char *why, size_t size);
void evspec__free(struct evspec_list *list);

/* The canonical name of a generic type/config pair ("cpu-clock"), or NULL. */
const char *evspec__name(__u32 type, __u64 config);

/* True for generic hardware, cache and raw events (they need a CPU PMU). */
bool evspec__is_hardware(const struct perf_event_attr *attr);

/*
 * Iterate over the generic names for --help, completions and error hints:
 * returns the i-th canonical name, or NULL past the end.
 */
const char *evspec__known(unsigned int i);

#endif /* BPFPROF_EVSPEC_H */
