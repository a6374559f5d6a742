// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The unwinder and drain plugs of a mode that samples stacks, and its profile. */
#include <errno.h>

#include "stacks.h"

int stacks__init(struct stacks *st, const struct unwind_opts *uo, bool by_pid, bool forget)
{
	st->us = unwind_session__new(uo);
	st->ds = drain_session__new(&st->p, by_pid, forget);
	return st->us && st->ds ? 0 : -ENOMEM;
}

size_t stacks__plugs(const struct stacks *st, struct session_plug *plugs)
{
	plugs[0] = (struct session_plug){ &unwind_session_hooks, st->us };
	plugs[1] = (struct session_plug){ &drain_session_hooks, st->ds };
	return 2;
}

void stacks__free(struct stacks *st)
{
	drain_session__free(st->ds);
	unwind_session__free(st->us);
	profile__free(&st->p);
	st->ds = NULL;
	st->us = NULL;
}
