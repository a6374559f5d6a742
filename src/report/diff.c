// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A differential profile: the new profile's stacks, each with its base count. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diff.h"

/* The frames of one stack, as profile__add takes them. */
struct diff_frames {
	struct frame *f;
	size_t cap;
};

/* Stack @st of @from added to @d with @count; its index in *@stack. */
static int diff__add(struct profile *d, const struct profile *from,
		     const struct profile_stack *st, uint64_t count, struct diff_frames *fr,
		     uint32_t *stack)
{
	const struct profile_proc *pr = profile__proc(from, st);
	/* @d names no process but @from does: its process is the first frame */
	uint32_t n = 0, lead = d->no_procs && !from->no_procs;
	struct profile_sample s = { .tgid = pr->tgid, .tid = pr->tid, .comm = pr->comm,
				    .count = count };
	char name[BPFPROF_COMM_LEN + 32];

	if (array__grow((void **)&fr->f, &fr->cap, (size_t)st->nr + lead, sizeof(*fr->f)))
		return -ENOMEM;
	if (lead) {
		/* as the folded writer shows it: "comm", "comm-PID", "comm-PID/TID" */
		const char *comm = pr->comm[0] ? pr->comm : "[unknown comm]";

		if (pr->tid)
			snprintf(name, sizeof(name), "%s-%" PRIu32 "/%" PRIu32, comm, pr->tgid,
				 pr->tid);
		else if (pr->tgid)
			snprintf(name, sizeof(name), "%s-%" PRIu32, comm, pr->tgid);
		else
			snprintf(name, sizeof(name), "%s", comm);
		fr->f[n++] = (struct frame){ .name = name };
		s.comm = "";
		s.tgid = s.tid = 0;
	}
	for (uint32_t i = 0; i < st->nr; i++) {
		fr->f[n] = *profile__frame(from, st, i);
		fr->f[n++].bin = 0; /* @from's bins are not @d's */
	}
	s.frames = fr->f;
	s.nr = n;
	return profile__add_at(d, &s, stack);
}

/* Room in d->base for every stack of @d, the new room zeroed. */
static int diff__base_room(struct profile *d)
{
	size_t old = d->cap_base;

	if (array__grow((void **)&d->base, &d->cap_base, d->nr ? d->nr : 1, sizeof(*d->base)))
		return -ENOMEM;
	memset(d->base + old, 0, (d->cap_base - old) * sizeof(*d->base));
	return 0;
}

int diff__profiles(struct profile *d, const struct profile *base, const struct profile *cur)
{
	struct diff_frames fr = { 0 };
	uint32_t stack;
	int err = 0;

	d->no_procs = base->no_procs || cur->no_procs;
	for (size_t i = 0; i < cur->nr && !err; i++)
		err = diff__add(d, cur, &cur->stacks[i], cur->stacks[i].count, &fr, &stack);
	/* every stack has its base count, 0 for the new ones */
	err = err ?: diff__base_room(d);
	for (size_t i = 0; i < base->nr && !err; i++) {
		err = diff__add(d, base, &base->stacks[i], 0, &fr, &stack) ?: diff__base_room(d);
		if (!err)
			d->base[stack] += base->stacks[i].count;
	}
	free(fr.f);
	return err;
}
