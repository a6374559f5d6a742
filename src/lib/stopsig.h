/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The stop signals (SIGINT, SIGTERM, SIGHUP): blocked from the process's
 * first instruction of its own, so that one sent at any moment waits,
 * pending, until it is read (a signalfd, or a look at what is pending),
 * even when the caller ignores it: a background job of a shell without job
 * control starts with SIGINT ignored, and an ignored signal that is not
 * blocked is discarded by the kernel.
 */
#ifndef BPFPROF_STOPSIG_H
#define BPFPROF_STOPSIG_H

#include <signal.h>

/* @set: the stop signals. */
void stopsig__set(sigset_t *set);
/* Block them; the mask before into @old (may be NULL). 0 or -errno. */
int stopsig__block(sigset_t *old);
/* The lowest stop signal pending (blocked and not read yet), or 0. */
int stopsig__pending(void);

#endif /* BPFPROF_STOPSIG_H */
