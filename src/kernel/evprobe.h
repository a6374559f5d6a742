/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Whether an event opens on this machine, and why not: the one
 * classification of open failures that `bpfprof list` shows for every event
 * and the capture core words for the event it samples (no hardware PMU, a
 * PMU without the event or that cannot sample it, permissions).
 */
#ifndef BPFPROF_EVPROBE_H
#define BPFPROF_EVPROBE_H

#include <stdbool.h>
#include <linux/perf_event.h>

enum evprobe_why {
	EVPROBE_OK,
	EVPROBE_NO_PMU,      /* a hardware, cache or raw event, and no core PMU */
	EVPROBE_PMU_LACKS,   /* its PMU has no such event, or cannot sample it */
	EVPROBE_NO_SAMPLING, /* it counts, but cannot be sampled (evprobe__try only) */
	EVPROBE_PERM,        /* not permitted */
	EVPROBE_OTHER,       /* any other errno */
};

/*
 * Why @attr did not open with the (positive) errno @err, on a machine
 * with (@core_pmu) or without a core PMU. Pure.
 */
enum evprobe_why evprobe__classify(const struct perf_event_attr *attr, int err,
				   bool core_pmu);

/* Does the machine have a core PMU (cpu, or a hybrid machine's cpu_core)? */
bool evprobe__core_pmu(void);

/*
 * Open @attr as bpfprof samples it (system-wide on @cpu) and close it
 * again: counting first, then sampling. EVPROBE_OK, or why not with the
 * errno in *@err. An open that is not permitted system-wide is tried on
 * this process alone, user space only: when that opens, the event exists
 * and the answer is EVPROBE_PERM; else that error is classified.
 */
enum evprobe_why evprobe__try(const struct perf_event_attr *attr, int cpu, bool core_pmu,
			      int *err);

/* A short reason for @why ("no hardware PMU"); @err's text for EVPROBE_OTHER. */
const char *evprobe__text(enum evprobe_why why, int err);

#endif /* BPFPROF_EVPROBE_H */
