// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drain.h"

struct drain {
	struct loader *l;
	struct symbolizer *sym;
	enum stack_mode mode;
	const char *const *ranges; /* range --stacks: a frame per range; NULL: none */
	struct profile *p;
	struct stack_trace *ust, *kst; /* loader__stack_size() bytes each */
	struct frame *frames;
	size_t cap;
};

static int drain__fetch(struct drain *d, const struct stack_id *id, struct stack_trace *st)
{
	st->nr = 0;
	st->flags = 0;
	if (!id->lo && !id->hi)
		return 0;
	return loader__stack(d->l, id, st);
}

static int drain__reserve(struct drain *d, size_t need)
{
	struct frame *f;

	if (need <= d->cap)
		return 0;
	f = realloc(d->frames, need * sizeof(*f));
	if (!f)
		return -ENOMEM;
	d->frames = f;
	d->cap = need;
	return 0;
}

/*
 * Frames come leaf first; the profile wants them root first. One address
 * may give several frames (a function and the calls inlined into it).
 */
static int drain__frames(struct drain *d, const struct sample_key *k,
			 const struct stack_trace *st, bool kernel, uint32_t *n)
{
	for (uint32_t i = st->nr; i-- > 0;) {
		/* all but the leaf are return addresses, unless marked exact */
		bool ret = i > 0 && (kernel || !(st->ips[i] & STACK_IP_EXACT));
		__u64 ip = kernel ? st->ips[i] : st->ips[i] & ~STACK_IP_EXACT;
		const struct symloc *loc = kernel ?
			symbolizer__kernel(d->sym, ip, ret) :
			symbolizer__user(d->sym, k->tgid, k->comm, ip, ret);
		int err;

		if (!loc)
			return -ENOMEM;
		err = drain__reserve(d, *n + loc->nr + 1);
		if (err)
			return err;
		memcpy(&d->frames[*n], loc->f, loc->nr * sizeof(loc->f[0]));
		*n += loc->nr;
	}
	return 0;
}

/* A sample with no frames still shows why: the mode hid them, or none was readable. */
static const char *drain__placeholder(const struct drain *d, const struct sample_key *k)
{
	if (d->mode == STACKS_KERNEL_ONLY && (k->flags & SAMPLE_F_USER_MODE))
		return "[user]";
	if (d->mode == STACKS_USER_ONLY && (k->flags & SAMPLE_F_KTHREAD))
		return "[kernel thread]";
	if (d->mode == STACKS_USER_ONLY && !(k->flags & SAMPLE_F_USER_MODE) &&
	    !(k->flags & SAMPLE_F_USTACK_FAULT))
		return "[kernel]";
	return "[no stack]";
}

static int drain__one(const void *key, __u64 count, void *ctx)
{
	const struct sample_key *k = key;
	struct drain *d = ctx;
	struct profile_stack ps = { .tgid = k->tgid, .tid = k->tid, .count = count };
	uint32_t n = 0;
	int err;

	err = drain__fetch(d, &k->ustack, d->ust);
	err = err ?: drain__fetch(d, &k->kstack, d->kst);
	if (err)
		return err == -ENOENT ? 0 : err; /* a stack not stored: counted as lost */
	err = drain__reserve(d, d->ust->nr + d->kst->nr + 3);
	if (err)
		return err;
	if (d->ranges && k->range)
		d->frames[n++] = (struct frame){ .name = d->ranges[k->range - 1],
						 .kind = FRAME_MARK };
	if ((d->ust->flags | d->kst->flags) & STACK_F_TRUNCATED)
		d->frames[n++] = (struct frame){ .name = "[truncated]", .kind = FRAME_MARK };
	/* frames found by frame pointers where no unwind table was loaded yet */
	if (d->ust->flags & STACK_F_FP_FALLBACK)
		d->frames[n++] = (struct frame){ .name = "[fp]", .kind = FRAME_MARK };
	err = drain__frames(d, k, d->ust, false, &n);
	err = err ?: drain__frames(d, k, d->kst, true, &n);
	if (err)
		return err;
	if (n == 0)
		d->frames[n++] = (struct frame){ .name = drain__placeholder(d, k),
						 .kind = FRAME_MARK };
	memcpy(ps.comm, k->comm, sizeof(ps.comm));
	ps.comm[sizeof(ps.comm) - 1] = '\0';
	ps.frames = d->frames;
	ps.nr = n;
	return profile__add(d->p, &ps);
}

int drain__profile(struct loader *l, struct symbolizer *sym, enum stack_mode mode,
		   const char *const *ranges, struct profile *p)
{
	struct drain d = { .l = l, .sym = sym, .mode = mode, .ranges = ranges, .p = p };
	int err = -ENOMEM;

	d.ust = malloc(loader__stack_size(l));
	d.kst = malloc(loader__stack_size(l));
	if (d.ust && d.kst)
		err = loader__for_each_count(l, drain__one, &d);
	free(d.ust);
	free(d.kst);
	free(d.frames);
	return err;
}
