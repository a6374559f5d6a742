/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The live top's terminal (session.h plug): when standard output is a
 * terminal, its alternate screen with the cursor hidden from the first
 * refresh on (an error before it stays on the screen); when standard
 * input is one, non-canonical mode without echo, read a key at a time:
 * q quits (an ordinary end, session__stop(s, 0)); Ctrl-C stays a SIGINT,
 * which the core reads. Restored as soon as sampling stops, and at the end
 * whatever happened.
 */
#ifndef BPFPROF_TOPSCREEN_H
#define BPFPROF_TOPSCREEN_H

#include <stdbool.h>

#include "session.h"

struct top_screen;

/* @to_stdout: the tables go to standard output (not -o FILE). NULL on ENOMEM. */
struct top_screen *top_screen__new(bool to_stdout);
void top_screen__free(struct top_screen *ts);
/* Do the tables go to standard output, a terminal (full screen)? */
bool top_screen__full(const struct top_screen *ts);
/* Before the first refresh: full screen, when standard output is a terminal. */
void top_screen__enter(struct top_screen *ts);
/* The terminal's rows and columns now; 0 each when unknown. */
void top_screen__size(const struct top_screen *ts, unsigned int *rows, unsigned int *cols);

/* Its hooks; the plug's priv is the struct top_screen. */
extern const struct session_hooks top_screen_hooks;

#endif /* BPFPROF_TOPSCREEN_H */
