/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The sampling events: perf events opened per CPU, each with the BPF
 * program as its handler through a BPF link whose cookie is the event's
 * index (the program reads it with bpf_get_attach_cookie; the first
 * event's 0 is what an event attached without a link reads).
 */
#ifndef BPFPROF_EVENTS_H
#define BPFPROF_EVENTS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <linux/types.h>

struct events;

/* An empty set; NULL + errno. */
struct events *events__new(void);
/*
 * Open @attr (disabled) system-wide on CPU @cpu and attach the BPF program
 * @prog_fd to it with attach cookie @cookie (a BPF link; cookie 0 needs
 * none: PERF_EVENT_IOC_SET_BPF, one descriptor instead of two). 0, or -errno from the open
 * (ev unchanged) or from the attach (the event closed again); @opened
 * (or NULL) tells which: false when perf_event_open failed.
 */
int events__add(struct events *ev, const struct perf_event_attr *attr, int cpu, int prog_fd,
		__u64 cookie, bool *opened);
/* Enable, disable every event; NULL (no events) is harmless. */
int events__enable(struct events *ev);
int events__disable(struct events *ev);
void events__free(struct events *ev);

/* perf_event_open(2) without a libc wrapper. */
int events__open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
		 unsigned long flags);

#endif /* BPFPROF_EVENTS_H */
