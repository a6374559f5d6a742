/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libpfm4's vendor event names (-Dlibpfm, Debian libpfm4-dev): the events
 * of the PMUs libpfm4 detects on this machine, with its descriptions, and
 * its spelling (PMU::EVENT[:UMASK...][:MOD=VAL...], or EVENT alone) turned
 * into a perf_event_attr. libpfm4's own tables of perf's generic events
 * are left out, from the list and from the spelling: evspec.c names those.
 * Without libpfm4 built in there are no such events and no such spelling.
 */
#ifndef BPFPROF_PFMEVENTS_H
#define BPFPROF_PFMEVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

/* One event as libpfm4 describes it; the strings are libpfm4's. */
struct pfmevents_event {
	const char *pmu;  /* libpfm4's name of its PMU: "amd64_fam19h_zen3" */
	const char *name; /* "RETIRED_INSTRUCTIONS" */
	const char *desc;
	bool core; /* of a core PMU (else uncore, or another) */
};

/* Is libpfm4 built in? */
bool pfmevents__enabled(void);

/*
 * Call @fn for every event of every PMU libpfm4 detects here, PMU by PMU.
 * 0 (nothing without libpfm4), -errno with why in @why when libpfm4 does
 * not initialise, or the first non-zero return of @fn.
 */
int pfmevents__each(int (*fn)(const struct pfmevents_event *ev, void *ctx), void *ctx,
		    char *why, size_t size);

/*
 * @event in libpfm4's spelling into *@attr (type, config, config1/2,
 * exclusions; user and kernel counted unless its modifiers say). 0;
 * -ENOENT when libpfm4 does not know the name (or is not built in), or
 * names one of perf's generic events (those are evspec's, and libpfm4
 * would take CPU-CLOCK, any case, for cpu-clock);
 * -EINVAL with libpfm4's reason in @why when it knows the name but not
 * the rest (a missing unit mask, a bad modifier).
 */
int pfmevents__parse(const char *event, struct perf_event_attr *attr, char *why,
		     size_t size);

#endif /* BPFPROF_PFMEVENTS_H */
