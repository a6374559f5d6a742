// SPDX-License-Identifier: GPL-2.0
/*
 * bpfprof record and range: the overflow handler of every sampling event.
 *
 * Per sample: filter by target (tgid set that follows forks, tid set,
 * cgroup, idle) before anything is copied; copy the user and kernel stacks
 * with bpf_get_stack into a per-CPU scratch buffer; identify each stack by
 * a 128-bit hash; store each unique stack once; count samples per key
 * (process, thread when asked, comm, user stack, kernel stack). Everything
 * that cannot be stored is counted by cause in the stats map.
 *
 * bpfprof range (cfg_ranges): after the target filter, the ip is looked up
 * in the ranges instead, and counted per (range, address); samples outside
 * every range are counted and dropped, and no stack is copied.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "bpfprof.h"

#define PF_KTHREAD 0x00200000
#define EEXIST 17

/* Only the fields used here; CO-RE relocates them against the kernel's BTF. */
struct task_struct {
	unsigned int flags;
	int pid;
	int tgid;
	struct task_struct *group_leader;
	char comm[BPFPROF_COMM_LEN];
} __attribute__((preserve_access_index));

/* The kernel's struct pt_regs (the uapi one names its fields rbp, rsp, rip). */
struct pt_regs___kernel {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di;
	unsigned long ip, sp;
} __attribute__((preserve_access_index));

/* Set in rodata by the loader before load. */
const volatile __u32 cfg_max_depth = 127;   /* frames kept per stack */
const volatile __u32 cfg_kernel_max = 127;  /* kernel.perf_event_max_stack */
const volatile bool cfg_user_stacks = true;
const volatile bool cfg_kernel_stacks = true;
const volatile bool cfg_filter_tgid = false;
const volatile bool cfg_filter_tid = false;
const volatile bool cfg_filter_cgroup = false;
const volatile bool cfg_idle = false;
const volatile bool cfg_per_thread = false;
const volatile __u64 cfg_stack_span = 64 << 20; /* frame pointers above sp+this are garbage */
/* bpfprof range: count per instruction in ranges instead of per stack */
const volatile bool cfg_ranges = false;
const volatile __u32 cfg_range_slots = 1;  /* slots per range_pages value */
const volatile __u32 cfg_range_shift = RANGE_PAGE_SHIFT;
/* bpfprof range --stacks: in-range samples also get their stacks counted */
const volatile bool cfg_range_stacks = false;

struct scratch {
	struct sample_key key;
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

/* stack_id -> struct stack_trace; value size and entries set before load */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct stack_id);
	__uint(value_size, 16);
} stacks SEC(".maps");

/* sample_key -> sample count; entries set before load */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct sample_key);
	__type(value, __u64);
} counts SEC(".maps");

/* tgid -> enum target_state; followed into children by bpfprof_fork */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u8);
} target_tgids SEC(".maps");

/* tid -> TARGET_ACTIVE; threads are not followed */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u8);
} target_tids SEC(".maps");

/* index 0: the -G cgroup directory's fd */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} target_cgroup SEC(".maps");

/*
 * bpfprof range maps (one entry each for record). Only user space updates
 * range_pages, so it need not be preallocated; range_counts is updated here,
 * from any context: unpreallocated hash maps allocate through bpf_mem_alloc,
 * which is NMI-safe (kernel >= 6.1), and cost memory only per address hit.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct range_page_key);
	__uint(value_size, sizeof(struct range_slot));
} range_pages SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct range_addr_key);
	__type(value, __u64);
} range_counts SEC(".maps");

/* samples per range and process (or the kernel) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct range_hit_key);
	__type(value, __u64);
} range_hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_add(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		*v += n;
}

static __always_inline void stat_inc(__u32 idx)
{
	stat_add(idx, 1);
}

static __always_inline bool is_target(__u32 tgid, __u32 tid)
{
	__u8 *state;

	if (cfg_filter_cgroup && bpf_current_task_under_cgroup(&target_cgroup, 0) != 1)
		return false;
	if (!cfg_filter_tgid && !cfg_filter_tid)
		return true;
	if (cfg_filter_tgid) {
		state = bpf_map_lookup_elem(&target_tgids, &tgid);
		if (state && *state == TARGET_ACTIVE)
			return true;
	}
	if (cfg_filter_tid && bpf_map_lookup_elem(&target_tids, &tid))
		return true;
	return false;
}

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
 * User stacks: a frame-pointer walk here rather than the kernel's. The
 * kernel's walker follows any rbp below TASK_SIZE, so every walk that
 * leaves frame-pointer code (into libc's start routines, on Debian almost
 * every one) ends by reading garbage: a page fault (~650 ns in a VM) or
 * garbage frames. Here a frame pointer is followed only if it is 8-aligned,
 * above the previous one and within cfg_stack_span of the stack pointer.
 */
struct walk {
	struct scratch *s;
	__u64 fp, lo, hi;
	__u32 n, want;
};

static long walk_step(__u32 i, struct walk *w)
{
	struct {
		__u64 fp;
		__u64 ret;
	} frame;
	__u32 n = i + 1; /* ips[0] is the ip; step i finds frame i + 1 */

	/* indexed by i, never by a counter: the verifier then sees one state */
	if (n >= w->want || n >= BPFPROF_SCRATCH_FRAMES)
		return 1;
	if ((w->fp & 7) || w->fp < w->lo || w->fp >= w->hi)
		return 1;
	if (bpf_probe_read_user(&frame, sizeof(frame), (void *)w->fp))
		return 1;
	if (!frame.ret || (__s64)frame.ret < 0) /* not a user address */
		return 1;
	w->s->ips[n] = frame.ret;
	w->n = n + 1;
	w->lo = w->fp + sizeof(frame);
	w->fp = frame.fp;
	return 0;
}

/* The interrupted user registers: the sample's, or the task's saved ones. */
static __always_inline bool user_regs(struct bpf_perf_event_data *ctx, struct task_struct *task,
				      __u64 *ip, __u64 *sp, __u64 *bp)
{
	struct pt_regs___kernel *regs;

	/* volatile: the verifier wants each ctx load at ctx + a constant */
	if ((ctx->regs.cs & 3) == 3) {
		*ip = *(volatile unsigned long *)&ctx->regs.rip;
		*sp = *(volatile unsigned long *)&ctx->regs.rsp;
		*bp = *(volatile unsigned long *)&ctx->regs.rbp;
		return true;
	}
	regs = (struct pt_regs___kernel *)bpf_task_pt_regs(task);
	if (!regs)
		return false;
	*ip = regs->ip;
	*sp = regs->sp;
	*bp = regs->bp;
	return true;
}

/* Walk the user stack into s->ips; returns the number of frames (max_depth + 1 = cut). */
static __noinline int walk_user(struct bpf_perf_event_data *ctx, struct scratch *s,
				struct task_struct *task)
{
	struct walk w = { .s = s, .want = cfg_max_depth + 1 };
	__u64 ip, sp, bp;

	if (!user_regs(ctx, task, &ip, &sp, &bp) || !ip)
		return 0;
	s->ips[0] = ip;
	w.n = 1;
	w.fp = bp;
	w.lo = sp;
	w.hi = sp + cfg_stack_span;
	bpf_loop(BPFPROF_SCRATCH_FRAMES, walk_step, &w, 0);
	return w.n;
}

#include "unwind.bpf.h"

/*
 * Copy one stack into the scratch buffer and store it once under its hash.
 * Returns 0 (id set; {0, 0} for an empty stack), 1 when the stack could not
 * be read (id {0, 0}), or -1 when the stacks map is full.
 */
static __noinline int capture_stack(struct bpf_perf_event_data *ctx, struct scratch *s,
				    struct task_struct *task, bool user, struct stack_id *id)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 want = cfg_max_depth + 1; /* one more, to see truncation */
	long len;
	int err, ret;

	if (want > BPFPROF_SCRATCH_FRAMES)
		want = BPFPROF_SCRATCH_FRAMES;
	id->lo = 0;
	id->hi = 0;
	s->flags = 0;
	if (user) {
		ret = cfg_unwind ? unwind_user(ctx, s, task, tgid) : -1;
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
	if (bpf_map_lookup_elem(&stacks, id))
		return 0;
	err = bpf_map_update_elem(&stacks, id, &s->nr, BPF_NOEXIST);
	if (err && err != -EEXIST)
		return -1;
	return 0;
}

/* comm is 16 bytes: two 8-byte loads (a BTF pointer cannot be memcpy'd) */
static __always_inline void comm_copy(char *dst, const char *src)
{
	((__u64 *)dst)[0] = ((const __u64 *)src)[0];
	((__u64 *)dst)[1] = ((const __u64 *)src)[1];
}

/* Add one to @map[@key] (a u64), inserting it; 0 or the update's error. */
static __always_inline int count_key(void *map, const void *key)
{
	__u64 one = 1, *cnt;
	int err;

	cnt = bpf_map_lookup_elem(map, key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	err = bpf_map_update_elem(map, key, &one, BPF_NOEXIST);
	if (err == -EEXIST) {
		cnt = bpf_map_lookup_elem(map, key);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	return err;
}

struct range_walk {
	struct range_slot *slots; /* the page's cfg_range_slots slots */
	__u64 ip;
	__u32 tgid;  /* the page key's: 0 for the kernel */
	__u32 first; /* the first range counted */
	int hits, lost;
};

static long range_step(__u32 i, struct range_walk *w)
{
	struct range_addr_key key = {};
	struct range_hit_key hk = {};
	struct range_slot *slot;

	/* bounds i for the verifier: the value holds cfg_range_slots slots */
	if (i >= cfg_range_slots)
		return 1;
	slot = &w->slots[i];
	if (!slot->end)
		return 1; /* the used slots come first */
	if (w->ip < slot->start || w->ip >= slot->end)
		return 0;
	key.id = slot->id;
	key.addr = w->ip - slot->base;
	if (count_key(&range_counts, &key)) {
		w->lost++;
		return 0;
	}
	if (!w->hits++)
		w->first = slot->id;
	hk.id = slot->id;
	hk.tgid = w->tgid;
	count_key(&range_hits, &hk); /* as big as the pages: cannot be full */
	return 0;
}

/*
 * bpfprof range: count the sample under every range holding its ip (the
 * kernel's for a sample in the kernel, else the process's). One hash
 * lookup decides most samples: a page no range touches has no entry.
 * Returns > 0 when counted (*@first: the first range), 0 when in no
 * range, < 0 when lost.
 */
static __always_inline int range_sample(struct bpf_perf_event_data *ctx, __u32 tgid,
					__u32 *first)
{
	struct range_page_key key = {};
	struct range_walk w = {};

	w.ip = *(volatile unsigned long *)&ctx->regs.rip;
	key.tgid = (ctx->regs.cs & 3) == 3 ? tgid : 0;
	key.page = w.ip >> cfg_range_shift;
	w.tgid = key.tgid;
	w.slots = bpf_map_lookup_elem(&range_pages, &key);
	if (!w.slots)
		return 0;
	bpf_loop(cfg_range_slots, range_step, &w, 0);
	*first = w.first;
	if (w.hits)
		return 1;
	return w.lost ? -1 : 0;
}

SEC("perf_event")
int bpfprof_sample(struct bpf_perf_event_data *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid, zero = 0;
	struct task_struct *task;
	struct sample_key *key;
	struct scratch *s;
	__u32 range = 0;
	int ret;

	stat_inc(STAT_SEEN);
	if (tid == 0 && !cfg_idle) {
		stat_inc(STAT_IDLE);
		return 0;
	}
	if (!is_target(tgid, tid)) {
		stat_inc(STAT_FILTERED);
		return 0;
	}
	if (cfg_ranges) {
		/* before anything is copied; folded away for record */
		ret = range_sample(ctx, tgid, &range);
		if (ret <= 0) {
			stat_inc(ret ? STAT_DROP_COUNTS_FULL : STAT_OUT_OF_RANGE);
			return 0;
		}
		stat_inc(STAT_KEPT);
		if (!cfg_range_stacks)
			return 0;
		/* --stacks: on to the stacks; a loss there is STAT_STACKS_LOST */
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s) {
		stat_inc(STAT_DROP_SCRATCH);
		return 0;
	}
	key = &s->key;
	__builtin_memset(key, 0, sizeof(*key));
	key->tgid = tgid;
	key->tid = cfg_per_thread ? tid : 0;
	key->range = cfg_ranges ? range + 1 : 0;

	/* BTF pointers: plain loads, no probe-read helper calls */
	task = bpf_get_current_task_btf();
	if (cfg_per_thread)
		bpf_get_current_comm(key->comm, sizeof(key->comm));
	else
		comm_copy(key->comm, task->group_leader->comm);
	if (task->flags & PF_KTHREAD)
		key->flags |= SAMPLE_F_KTHREAD;
	if ((ctx->regs.cs & 3) == 3)
		key->flags |= SAMPLE_F_USER_MODE;

	if (cfg_user_stacks && !(key->flags & SAMPLE_F_KTHREAD)) {
		ret = capture_stack(ctx, s, task, true, &key->ustack);
		if (ret < 0)
			goto stacks_full;
		if (ret) {
			key->flags |= SAMPLE_F_USTACK_FAULT;
			stat_inc(STAT_USTACK_FAULT);
		}
	}
	if (cfg_kernel_stacks && !(key->flags & SAMPLE_F_USER_MODE)) {
		ret = capture_stack(ctx, s, task, false, &key->kstack);
		if (ret < 0)
			goto stacks_full;
		if (ret)
			stat_inc(STAT_KSTACK_FAULT);
	}
	if (count_key(&counts, key)) {
		stat_inc(cfg_ranges ? STAT_STACKS_LOST : STAT_DROP_COUNTS_FULL);
		return 0;
	}
	if (!cfg_ranges)
		stat_inc(STAT_KEPT);
	return 0;

stacks_full:
	stat_inc(cfg_ranges ? STAT_STACKS_LOST : STAT_DROP_STACKS_FULL);
	return 0;
}

/* Follow target processes into the processes they fork (not threads: same tgid). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(bpfprof_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 active = TARGET_ACTIVE, *state;
	int err;

	if (child->pid != child->tgid)
		return 0;
	state = bpf_map_lookup_elem(&target_tgids, &ptgid);
	if (!state || *state != TARGET_ACTIVE)
		return 0;
	err = bpf_map_update_elem(&target_tgids, &ctgid, &active, BPF_ANY);
	if (err)
		stat_inc(STAT_TARGETS_FULL);
	return 0;
}

/* Command mode: the child counts from its exec on, not while it is still us. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(bpfprof_exec, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	__u8 *state = bpf_map_lookup_elem(&target_tgids, &tgid);

	if (state && *state == TARGET_PENDING_EXEC)
		*state = TARGET_ACTIVE;
	return 0;
}

/* bench/ only: the floor, a handler that does nothing. */
SEC("perf_event")
int bpfprof_empty(struct bpf_perf_event_data *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
