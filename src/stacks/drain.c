// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The drain (drain.h): a set's counts map taken in batches
 * (bpf_map_lookup_and_delete_batch), each key's two stacks found among the
 * taken ones (stackstore.c), the frames symbolized and reversed to root
 * first: user frames, then kernel frames. A sample left with no frames says
 * why: [user] (-K, a sample in user mode), [kernel] or [kernel thread]
 * (-U), [no stack]. When sets are switched and taken, the slices, the
 * profile's merging: docs/design/stack-sets.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "buildid.h"
#include "drain.h"
#include "kvmlinux.h"
#include "monotime.h"
#include "stackstore.h"

/* A counts entry taken out of its set, waiting to be symbolized. */
struct pending {
	struct sample_key key;
	__u64 count;
	unsigned int take; /* which take brought it */
};

struct drain {
	struct loader *l;
	struct symbolizer *sym;
	enum stack_mode mode;
	const char *const *ranges; /* range --stacks: a frame per range; NULL: none */
	bool leaf_after;           /* the sampled ip follows the sampled instruction (watch) */
	bool by_pid;               /* keep the pid apart (else 0: one stack for all) */
	struct profile *p;
	struct stack_store ss;     /* the stacks of the pending entries */
	struct pending *pend;      /* in the order taken; [done, nr) still to symbolize */
	size_t nr, cap_pend, done;
	unsigned int takes;        /* sets taken */
	struct frame *frames;
	size_t cap;
	/* with the profile's keep_bins: the profile's bin ids (1 + index; 0: not
	   yet) of binaries by their id, of the kernel's frames and of code
	   outside any file (JIT maps, anonymous memory) */
	uint32_t *bin_ids;
	size_t cap_bin_ids;
	uint32_t kernel_bin, anon_bin;
};

static const struct stack_trace drain__none;

/* The stack @id of the entries being symbolized: NULL when it was not stored. */
static const struct stack_trace *drain__fetch(const struct drain *d, const struct stack_id *id)
{
	if (!id->lo && !id->hi)
		return &drain__none;
	return stack_store__get(&d->ss, id);
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

/* The profile's id of the binary of @loc's code (kernel: the kernel's). */
static int drain__bin(struct drain *d, const struct symloc *loc, bool kernel, uint32_t *bin)
{
	const struct binary *b = kernel ? NULL : loc->bin;
	char hex[2 * BUILD_ID_MAX + 1];
	uint32_t *slot = kernel ? &d->kernel_bin : &d->anon_bin;
	int err;

	if (b) {
		size_t old = d->cap_bin_ids;

		if (array__grow((void **)&d->bin_ids, &d->cap_bin_ids, b->id + 1,
				sizeof(*d->bin_ids)))
			return -ENOMEM;
		memset(d->bin_ids + old, 0, (d->cap_bin_ids - old) * sizeof(*d->bin_ids));
		slot = &d->bin_ids[b->id];
	}
	if (!*slot) {
		uint8_t id[BUILD_ID_MAX];
		int len = b ? (int)b->build_id_len : 0;

		if (b)
			memcpy(id, b->build_id, len);
		else if (kernel) /* none readable: a mapping without one */
			len = kvmlinux__kernel_build_id("/sys/kernel/notes", id, sizeof(id));
		if (len > 0)
			buildid__hex(id, len, hex);
		err = profile__bin(d->p, kernel ? "[kernel.kallsyms]" : b ? b->path : "[anon]",
				   len > 0 ? hex : NULL, slot);
		if (err)
			return err;
	}
	*bin = *slot;
	return 0;
}

/*
 * Frames come leaf first; the profile wants them root first. One address
 * may give several frames (a function and the calls inlined into it).
 */
static int drain__frames(struct drain *d, const struct sample_key *k,
			 const struct stack_trace *st, bool kernel, uint32_t *n)
{
	/* a breakpoint's trap ip follows the access: its stack's leaf is one too */
	bool trap = d->leaf_after && kernel == !(k->flags & SAMPLE_F_USER_MODE);

	for (uint32_t i = st->nr; i-- > 0;) {
		/* all but the leaf are return addresses, unless marked exact */
		bool ret = (i > 0 || trap) && (kernel || !(st->ips[i] & STACK_IP_EXACT));
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
		if (d->p->keep_bins) {
			uint32_t bin;

			err = drain__bin(d, loc, kernel, &bin);
			if (err)
				return err;
			for (uint32_t j = 0; j < loc->nr; j++)
				d->frames[*n + j].bin = bin;
		}
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

static int drain__one(struct drain *d, const struct sample_key *k, __u64 count)
{
	struct profile_sample ps = { .tgid = d->by_pid ? k->tgid : 0, .tid = k->tid,
				     .count = count, .event = k->event };
	char comm[BPFPROF_COMM_LEN];
	const struct stack_trace *ust = drain__fetch(d, &k->ustack);
	const struct stack_trace *kst = drain__fetch(d, &k->kstack);
	uint32_t n = 0;
	int err;

	if (!ust || !kst)
		return 0; /* a stack not stored: counted as lost */
	err = drain__reserve(d, ust->nr + kst->nr + 3);
	if (err)
		return err;
	if (d->ranges && k->range)
		d->frames[n++] = (struct frame){ .name = d->ranges[k->range - 1],
						 .kind = FRAME_MARK };
	if ((ust->flags | kst->flags) & STACK_F_TRUNCATED)
		d->frames[n++] = (struct frame){ .name = "[truncated]", .kind = FRAME_MARK };
	/* frames found by frame pointers where no unwind table was loaded yet */
	if (ust->flags & STACK_F_FP_FALLBACK)
		d->frames[n++] = (struct frame){ .name = "[fp]", .kind = FRAME_MARK };
	err = drain__frames(d, k, ust, false, &n);
	err = err ?: drain__frames(d, k, kst, true, &n);
	if (err)
		return err;
	if (symbolizer__take_interrupted(d->sym))
		return -EINTR; /* named again once the signal is read */
	if (n == 0)
		d->frames[n++] = (struct frame){ .name = drain__placeholder(d, k),
						 .kind = FRAME_MARK };
	memcpy(comm, k->comm, sizeof(comm));
	comm[sizeof(comm) - 1] = '\0';
	ps.comm = comm;
	ps.frames = d->frames;
	ps.nr = n;
	return profile__add(d->p, &ps);
}

struct drain *drain__new(struct loader *l, struct symbolizer *sym, enum stack_mode mode,
			 const char *const *ranges, bool by_pid, struct profile *p)
{
	struct drain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	*d = (struct drain){ .l = l, .sym = sym, .mode = mode, .ranges = ranges,
			     .by_pid = by_pid, .p = p };
	return d;
}

void drain__set_leaf_after(struct drain *d, bool after)
{
	d->leaf_after = after;
}

void drain__free(struct drain *d)
{
	if (!d)
		return;
	stack_store__clear(&d->ss);
	free(d->pend);
	free(d->frames);
	free(d->bin_ids);
	free(d);
}

static int drain__take_stack(const struct stack_id *id, const struct stack_trace *st, void *ctx)
{
	struct drain *d = ctx;

	return stack_store__add(&d->ss, id, st);
}

static int drain__take_count(const void *key, __u64 count, void *ctx)
{
	struct drain *d = ctx;

	if (array__grow((void **)&d->pend, &d->cap_pend, d->nr + 1, sizeof(*d->pend)))
		return -ENOMEM;
	d->pend[d->nr++] = (struct pending){ .key = *(const struct sample_key *)key,
					     .count = count, .take = d->takes };
	return 0;
}

int drain__take(struct drain *d, unsigned int set)
{
	int err;

	d->takes++;
	err = loader__take_stacks(d->l, set, drain__take_stack, d);
	return err ?: loader__take_counts(d->l, set, drain__take_count, d);
}

int drain__symbolize(struct drain *d, uint64_t budget_ns)
{
	uint64_t t0 = monotime__ns();
	int err = 0;

	while (d->done < d->nr && !err) {
		const struct pending *pe = &d->pend[d->done++];

		err = drain__one(d, &pe->key, pe->count);
		if (err == -EINTR) { /* a stop signal to read first: this one again later */
			d->done--;
			err = 0;
			break;
		}
		/* each stack: one may open a binary and take a while */
		if (monotime__ns() - t0 >= budget_ns)
			break;
	}
	if (d->done == d->nr) { /* all symbolized: their stacks are not needed */
		d->nr = d->done = 0;
		stack_store__clear(&d->ss);
	}
	return err;
}

size_t drain__pending(const struct drain *d)
{
	return d->nr - d->done;
}

unsigned int drain__symbolized(const struct drain *d)
{
	return d->done < d->nr ? d->pend[d->done].take - 1 : d->takes;
}

void drain__profile_emptied(struct drain *d)
{
	if (d->bin_ids)
		memset(d->bin_ids, 0, d->cap_bin_ids * sizeof(*d->bin_ids));
	d->kernel_bin = d->anon_bin = 0;
}

int drain__all(struct drain *d)
{
	unsigned int old;
	int err = 0;

	/*
	 * Sampling has stopped: a failed grace period changes nothing. Each
	 * switch leaves the set taken before it for the next.
	 */
	for (int i = 0; i < STACK_SETS && !err; i++) {
		loader__switch_stack_set(d->l, &old);
		err = drain__take(d, old);
	}
	/* (a signal is read by a handler by now: none waits to cut a slice short) */
	while (!err && drain__pending(d))
		err = drain__symbolize(d, UINT64_MAX);
	return err;
}
