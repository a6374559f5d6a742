/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every mode that samples stacks runs on, set up alike in record,
 * top, range --stacks and watch: two session plugs (session.h) before the
 * mode's own, the unwinder (first: its tables are loaded before anything
 * else starts) and the drain of the stack sets; and the profile the drain
 * fills.
 */
#ifndef BPFPROF_STACKS_H
#define BPFPROF_STACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "drain-session.h"
#include "profile.h"
#include "session.h"
#include "unwind-session.h"

struct stacks {
	struct profile p; /* what it keeps (drop_lines, keep_bins) set before stacks__init */
	struct unwind_session *us;
	struct drain_session *ds; /* for the mode's own calls (windows, labels, --stats) */
};

/*
 * The unwinder for @uo, the drain into @st->p (@by_pid, @forget: as
 * drain_session__new's). 0, or -ENOMEM (stacks__free it still).
 */
int stacks__init(struct stacks *st, const struct unwind_opts *uo, bool by_pid, bool forget);
/* The two plugs into @plugs, in their order; how many (two). */
size_t stacks__plugs(const struct stacks *st, struct session_plug *plugs);
/* Once the run is over: the plugs and the profile; a struct stacks of zeros too. */
void stacks__free(struct stacks *st);

#endif /* BPFPROF_STACKS_H */
