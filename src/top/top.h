/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof top`: the capture core (session.h) with the live mode, as perf
 * top: every --delay seconds the drain plug cuts a window out of the stack
 * sets (drain_session__set_window),
 * the window's table of functions computed (output/toptable.c, as -f top)
 * and shown (topview.c), full screen on a terminal (topscreen.c: keys, the
 * size, the terminal restored), one plain table a refresh elsewhere; then
 * the profile is emptied: each refresh shows the last window only.
 */
#ifndef BPFPROF_TOP_H
#define BPFPROF_TOP_H

#include "session.h"
#include "unwinder.h"

#define TOP_DEFAULT_DELAY 1.0
/* rows a refresh when standard output is not a terminal */
#define TOP_DEFAULT_PLAIN_ROWS 20

struct top_opts {
	struct session_opts session; /* targets (none: the whole system), sampling, symbols */
	struct unwind_opts unwind;
	double delay;             /* --delay: seconds between refreshes */
	unsigned long long limit; /* --limit: rows at most; 0: what fits (a terminal) */
};

/* A whole live top; reports errors itself and returns the exit status (session.h). */
int top__run(const struct top_opts *o);

#endif /* BPFPROF_TOP_H */
