/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Event names -> struct perf_event_attr. Pure: reads no files and opens no
 * events. Today: generic hardware and software event names and aliases as
 * perf spells them; the full PMU grammar (pmu/term=val/, raw rNNNN, cache
 * events, modifiers, several events) slots in behind the same call.
 */
#ifndef BPFPROF_EVSPEC_H
#define BPFPROF_EVSPEC_H

#include <stdbool.h>
#include <linux/perf_event.h>

/*
 * Fill type and config of @attr from @spec ("cpu-clock", "cycles", "cs").
 * Other fields of @attr are left as they are. Returns 0 or -EINVAL for a
 * name it does not know.
 */
int evspec__parse(const char *spec, struct perf_event_attr *attr);

/* The canonical name of a type/config pair ("cpu-clock"), or NULL. */
const char *evspec__name(__u32 type, __u64 config);

/* True for events counted by a hardware PMU (cycles, instructions, ...). */
bool evspec__is_hardware(const struct perf_event_attr *attr);

/*
 * Iterate over the known names for --help, completions and error hints:
 * returns the i-th canonical name, or NULL past the end.
 */
const char *evspec__known(unsigned int i);

#endif /* BPFPROF_EVSPEC_H */
