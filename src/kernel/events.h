/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* One sampling event per CPU, each with the BPF program as its handler. */
#ifndef BPFPROF_EVENTS_H
#define BPFPROF_EVENTS_H

#include <linux/perf_event.h>

#include "idlist.h"

struct events;

/*
 * Open @attr (disabled) on every CPU of @cpus system-wide and attach the
 * BPF program @prog_fd to each. On failure returns NULL, sets errno and,
 * if @failed_cpu, the CPU whose open failed (-1 if none did).
 */
struct events *events__open(const struct perf_event_attr *attr, const struct idlist *cpus,
			    int prog_fd, int *failed_cpu);
/* Enable, disable every event; NULL (no events) is harmless. */
int events__enable(struct events *ev);
int events__disable(struct events *ev);
void events__free(struct events *ev);

/* perf_event_open(2) without a libc wrapper. */
int perf_event__open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
		     unsigned long flags);

#endif /* BPFPROF_EVENTS_H */
