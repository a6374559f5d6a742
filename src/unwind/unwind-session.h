/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The unwinder plugged into a capture (session.h): it sizes the unwind
 * maps before load from --unwind-memory and the targets' mappings, loads
 * the tables of every binary the targets map before sampling starts, and
 * follows the side band (new mappings, execs, forks, exits), the worker's
 * finished tables and the ticks while sampling. A mode that keeps user
 * stacks brings it along as a plug.
 */
#ifndef BPFPROF_UNWIND_SESSION_H
#define BPFPROF_UNWIND_SESSION_H

#include "session.h"
#include "unwinder.h"

struct unwind_session;

/* What --stats tells of the unwinder, beyond unwinder_stats. */
struct unwind_session_stats {
	const struct unwinder_stats *uw; /* NULL: no DWARF unwinding this run */
	bool dwarf_only;                 /* --unwind=dwarf */
	double load_s;                   /* the tables loaded before sampling: seconds */
	unsigned int maps_cap;           /* mappings a process's table holds */
};

/* NULL on ENOMEM. */
struct unwind_session *unwind_session__new(const struct unwind_opts *o);
void unwind_session__free(struct unwind_session *us);
/* While sampling and in the mode's finish (the unwinder is gone after its end). */
void unwind_session__stats(const struct unwind_session *us, struct unwind_session_stats *st);

/* Its hooks; the plug's priv is the struct unwind_session. */
extern const struct session_hooks unwind_session_hooks;

#endif /* BPFPROF_UNWIND_SESSION_H */
