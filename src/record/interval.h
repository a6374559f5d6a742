/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `record --interval`: one complete profile file per interval, each a
 * window of the drain plug (drain_session__set_window: every sample
 * counted before its end's switch is in it, none after; its own duration
 * and counters), written to the interval's own file (an outfile: whole or
 * not at all). Its plug (session.h) checks at open that the first name can
 * be written. The last interval, shorter, is written by the mode's finish
 * (interval__finish).
 */
#ifndef BPFPROF_INTERVAL_H
#define BPFPROF_INTERVAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "drain-session.h"
#include "output.h"
#include "session.h"

struct interval;

/*
 * Does @pattern name a file of its own for each interval of @seconds?
 * It needs %n (the interval's number, from 0) or %t (its start, UTC
 * YYYYmmddTHHMMSS; alone only for intervals of a second or more); %% is a
 * %, any other % is wrong. 0, else -EINVAL with why in @why.
 */
int interval__check(const char *pattern, double seconds, char *why, size_t size);
/* Interval @n's file name, started at @start (wall clock); malloc'd, NULL + errno. */
char *interval__name(const char *pattern, unsigned int n, time_t start);

/*
 * Intervals of @seconds (windows of @ds, set here: before the start)
 * written to files named by @pattern (checked), in @out's format. NULL on
 * ENOMEM.
 */
struct interval *interval__new(const char *pattern, double seconds, struct drain_session *ds,
			       const struct output_opts *out);
void interval__free(struct interval *iv);
/*
 * Sampling has stopped and @p holds the rest, drained with the whole run's
 * counters (drain_session__profile): the last interval's counters and
 * duration, then its file; the profile's counters and duration are the
 * whole run's again after it (the summary's). 0, or the exit status after
 * its one line.
 */
int interval__finish(struct interval *iv, struct session *s, struct profile *p);
/* The files written, and the samples in them. */
unsigned int interval__files(const struct interval *iv);
uint64_t interval__samples(const struct interval *iv);

/* Its hooks; the plug's priv is the struct interval. */
extern const struct session_hooks interval_hooks;

#endif /* BPFPROF_INTERVAL_H */
