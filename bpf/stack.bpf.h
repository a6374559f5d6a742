/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Stack capture and counting: the user stack walked here (DWARF tables,
 * else frame pointers) and the kernel stack copied with bpf_get_stack,
 * each into a per-CPU scratch buffer, identified by a 128-bit hash and
 * stored once in the stacks map of the current stack set; then the sample
 * counted under its key in that set's counts map
 * (process, thread when asked, comm, user stack, kernel stack). Everything
 * that cannot be stored is counted by cause in the stats map.
 */
#ifndef BPFPROF_STACK_BPF_H
#define BPFPROF_STACK_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "regs.bpf.h"
#include "unwind.bpf.h"

/* Set in rodata by the loader before load. */
const volatile __u32 cfg_max_depth = 127;  /* frames kept per stack */
const volatile __u32 cfg_kernel_max = 127; /* kernel.perf_event_max_stack */
const volatile bool cfg_user_stacks = true;
const volatile bool cfg_kernel_stacks = true;
const volatile bool cfg_per_thread = false;

struct scratch {
	struct sample_key key;
	__u32 set; /* the stack set this sample goes to (0 or 1) */
	__u32 pad;
	/* laid out as struct stack_trace: the stacks map copies from &nr */
	__u32 nr;
	__u32 flags;
	__u64 ips[BPFPROF_SCRATCH_FRAMES];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/*
 * The two stack sets (bpfprof.h): stack_id -> struct stack_trace (value size
 * and entries set before load) and sample_key -> sample count (entries set
 * before load), each twice. A sample's stacks and count go to the set
 * stack_set names when the sample starts.
 */
#define STACKS_MAP(name)                                  \
	struct {                                          \
		__uint(type, BPF_MAP_TYPE_HASH);          \
		__uint(max_entries, 1);                   \
		__type(key, struct stack_id);             \
		__uint(value_size, 16);                   \
	} name SEC(".maps")
#define COUNTS_MAP(name)                                  \
	struct {                                          \
		__uint(type, BPF_MAP_TYPE_HASH);          \
		__uint(max_entries, 1);                   \
		__type(key, struct sample_key);           \
		__type(value, __u64);                     \
	} name SEC(".maps")

STACKS_MAP(stacks0);
STACKS_MAP(stacks1);
COUNTS_MAP(counts0);
COUNTS_MAP(counts1);

/* Written by user space alone (flipped, then a grace period, then drained). */
volatile __u32 stack_set;
/* Entries the program added to each set since user space cleared it. */
struct stack_set_fill stack_fill[STACK_SETS];

static __always_inline __u64 mix64(__u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

struct hash_state {
	struct scratch *s;
	__u64 lo, hi;
};

static long hash_step(__u32 i, struct hash_state *h)
{
	__u64 ip;

	if (i >= BPFPROF_SCRATCH_FRAMES)
		return 1;
	ip = h->s->ips[i];
	h->lo = mix64(h->lo ^ ip) + i;
	h->hi = mix64(h->hi + ip * 0x2545f4914f6cdd1dULL) ^ i;
	return 0;
}

/* Hash s->ips[0..s->nr) into two independent 64-bit hashes (bpf_loop: verified once). */
static __always_inline void hash_stack(struct scratch *s, struct stack_id *id)
{
	struct hash_state h = { .s = s, .lo = 0x9e3779b97f4a7c15ULL, .hi = 0x6a09e667f3bcc909ULL };
	__u32 nr = s->nr;

	bpf_loop(nr, hash_step, &h, 0);
	id->lo = mix64(h.lo ^ nr) | 1; /* {0, 0} means "no stack" */
	id->hi = mix64(h.hi + nr + s->flags);
}

/*
 * User stacks by frame pointers (--unwind=fp, and processes the DWARF
 * unwinder has no mapping table for): from the interrupted registers, one
 * regs__fp_step per frame, every frame pointer within cfg_stack_span of
 * the first stack pointer.
 */
struct walk {
	struct scratch *s;
	__u64 fp, sp, hi;
	__u32 n, want;
};

static long walk_step(__u32 i, struct walk *w)
{
	__u32 n = i + 1; /* ips[0] is the ip; step i finds frame i + 1 */
	__u64 ip;

	/* indexed by i, never by a counter: the verifier then sees one state */
	if (n >= w->want || n >= BPFPROF_SCRATCH_FRAMES)
		return 1;
	if (regs__fp_step(&ip, &w->sp, &w->fp, w->hi))
		return 1;
	w->s->ips[n] = ip;
	w->n = n + 1;
	return 0;
}

/* Walk the user stack into s->ips; returns the number of frames (max_depth + 1 = cut). */
static __noinline int walk_user(struct bpf_perf_event_data *ctx, struct scratch *s,
				struct task_struct *task)
{
	struct walk w = { .s = s, .want = cfg_max_depth + 1 };
	__u64 regs[16], ip;

	if (!regs__user(ctx, task, regs, &ip) || !ip)
		return 0;
	s->ips[0] = ip;
	w.n = 1;
	w.fp = regs[R_RBP];
	w.sp = regs[R_RSP];
	w.hi = w.sp + cfg_stack_span;
	bpf_loop(BPFPROF_SCRATCH_FRAMES, walk_step, &w, 0);
	return w.n;
}

/*
 * Copy one stack into the scratch buffer and store it once under its hash.
 * Returns 0 (id set; {0, 0} for an empty stack), 1 when the stack could not
 * be read (id {0, 0}), or -1 when the stacks map is full.
 */
static __noinline int capture_stack(struct bpf_perf_event_data *ctx, struct scratch *s,
				    struct task_struct *task, bool user, struct stack_id *id)
{
	__u32 set = s->set & 1;
	void *stacks = set ? (void *)&stacks1 : (void *)&stacks0;
	__u32 want = cfg_max_depth + 1; /* one more, to see truncation */
	long len;
	int err, ret;

	if (want > BPFPROF_SCRATCH_FRAMES)
		want = BPFPROF_SCRATCH_FRAMES;
	id->lo = 0;
	id->hi = 0;
	s->flags = 0;
	if (user) {
		ret = cfg_unwind ? unwind_user(ctx, s->ips, &s->flags, task, cfg_max_depth + 1) : -1;
		/* --unwind=fp, or a process without a mapping table under auto */
		if (ret < 0)
			ret = !cfg_unwind || cfg_unwind_fallback ? walk_user(ctx, s, task) : 0;
		s->nr = ret;
		if (!s->nr)
			return 1;
	} else {
		len = bpf_get_stack(ctx, s->ips, want * sizeof(__u64), 0);
		if (len < 0)
			return 1;
		s->nr = len / sizeof(__u64);
	}
	if (s->nr == 0)
		return 0;
	if (s->nr > cfg_max_depth ||
	    (!user && s->nr == cfg_max_depth && cfg_max_depth >= cfg_kernel_max)) {
		s->nr = cfg_max_depth;
		s->flags |= STACK_F_TRUNCATED;
		stat_inc(STAT_TRUNCATED);
	}
	hash_stack(s, id);
	if (bpf_map_lookup_elem(stacks, id))
		return 0;
	err = bpf_map_update_elem(stacks, id, &s->nr, BPF_NOEXIST);
	if (!err)
		__sync_fetch_and_add(&stack_fill[set].stacks, 1);
	else if (err != -EEXIST)
		return -1;
	return 0;
}

/* comm is 16 bytes: two 8-byte loads (a BTF pointer cannot be memcpy'd) */
static __always_inline void comm_copy(char *dst, const char *src)
{
	((__u64 *)dst)[0] = ((const __u64 *)src)[0];
	((__u64 *)dst)[1] = ((const __u64 *)src)[1];
}


/*
 * Count the sample of @tgid/@tid under its key, with its stacks (each
 * stored once): 0, or the STAT_* that says why it was lost (no scratch
 * buffer, the stacks map full, the counts map full). @range is the key's
 * range mark (0 for record), @event the event's index (0 for range and watch).
 */
static __always_inline int stack__count(struct bpf_perf_event_data *ctx, __u32 tgid, __u32 tid,
					__u32 range, __u32 event)
{
	struct task_struct *task;
	struct sample_key *key;
	__u32 zero = 0, set = stack_set & 1; /* read once: the whole sample goes there */
	struct scratch *s;
	int ret;

	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return STAT_DROP_SCRATCH;
	s->set = set;
	key = &s->key;
	__builtin_memset(key, 0, sizeof(*key));
	key->tgid = tgid;
	key->tid = cfg_per_thread ? tid : 0;
	key->range = range;
	key->event = event;

	/* BTF pointers: plain loads, no probe-read helper calls */
	task = bpf_get_current_task_btf();
	if (cfg_per_thread)
		bpf_get_current_comm(key->comm, sizeof(key->comm));
	else
		comm_copy(key->comm, task->group_leader->comm);
	if (task->flags & PF_KTHREAD)
		key->flags |= SAMPLE_F_KTHREAD;
	if (regs__user_mode(ctx))
		key->flags |= SAMPLE_F_USER_MODE;

	if (cfg_user_stacks && !(key->flags & SAMPLE_F_KTHREAD)) {
		ret = capture_stack(ctx, s, task, true, &key->ustack);
		if (ret < 0)
			return STAT_DROP_STACKS_FULL;
		if (ret) {
			key->flags |= SAMPLE_F_USTACK_FAULT;
			stat_inc(STAT_USTACK_FAULT);
		}
	}
	if (cfg_kernel_stacks && !(key->flags & SAMPLE_F_USER_MODE)) {
		ret = capture_stack(ctx, s, task, false, &key->kstack);
		if (ret < 0)
			return STAT_DROP_STACKS_FULL;
		if (ret)
			stat_inc(STAT_KSTACK_FAULT);
	}
	if (count_key(set ? (void *)&counts1 : (void *)&counts0, key, &stack_fill[set].counts))
		return STAT_DROP_COUNTS_FULL;
	return 0;
}

#endif /* BPFPROF_STACK_BPF_H */
