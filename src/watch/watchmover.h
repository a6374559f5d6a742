/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch` with more locations than debug registers: the turns,
 * taken on a thread of their own. Every turn (a timerfd) each breakpoint
 * slot that changes location is moved on every event of that slot with
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES. The poll loop is no clock for this:
 * the drain symbolizing a binary there holds it for a fifth of a second,
 * and that location's turn would last as long, at the pace a workload
 * has without the moves (each one an IPI to the CPU running it), which
 * biases its estimate.
 */
#ifndef BPFPROF_WATCHMOVER_H
#define BPFPROF_WATCHMOVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "watchset.h"
#include "watchrotation.h"

/* A breakpoint event: its slot, the process whose addresses it takes, its attributes now. */
struct watch_fd {
	int fd;
	unsigned int slot;        /* without turns, the location's index */
	pid_t tgid;               /* 0: a CPU's (kernel data) */
	struct perf_event_attr attr;
};

struct watch_mover;

/*
 * Start the turns of @ws's locations on @nr_slots slots, slot i on
 * location i since @t0, one every @ms: the thread moves @fds (kept by
 * the caller, not changed until watch_mover__stop). 0 or -errno.
 */
int watch_mover__start(struct watch_mover **out, struct watch_fd *fds, size_t nr_fds,
		       const struct watch_set *ws, unsigned int nr_slots, unsigned int ms,
		       uint64_t t0);

/* Readable once a move failed (the turns stopped): watch_mover__error() says why. */
int watch_mover__fd(const struct watch_mover *m);
const char *watch_mover__error(const struct watch_mover *m);

/* The turns end at @now: the thread is joined, the watched times are final. */
void watch_mover__stop(struct watch_mover *m, uint64_t now);

/* After watch_mover__stop: the turns, and the events moved and the time that took (ns). */
const struct watch_rotation *watch_mover__rotation(const struct watch_mover *m);
void watch_mover__cost(const struct watch_mover *m, uint64_t *moves, uint64_t *ns);

/* Stops the turns if need be; NULL is harmless. */
void watch_mover__free(struct watch_mover *m);

#endif /* BPFPROF_WATCHMOVER_H */
