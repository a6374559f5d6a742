// SPDX-License-Identifier: GPL-2.0
/*
 * bpfprof record: the overflow handler of every sampling event.
 *
 * Per sample: filter by target (tgid set that follows forks, tid set,
 * cgroup, idle) before anything is copied; copy the user and kernel stacks
 * with bpf_get_stack into a per-CPU scratch buffer; identify each stack by
 * a 128-bit hash; store each unique stack once; count samples per key
 * (process, thread when asked, comm, user stack, kernel stack). Everything
 * that cannot be stored is counted by cause in the stats map.
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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		(*v)++;
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

/*
 * Hash s->ips[0..s->nr) into two independent 64-bit hashes. A subprogram,
 * so the loop is verified once for both stacks.
 */
static __noinline int hash_stack(struct scratch *s, struct stack_id *id)
{
	__u64 lo = 0x9e3779b97f4a7c15ULL, hi = 0x6a09e667f3bcc909ULL;
	__u32 nr = s->nr;

	for (__u32 i = 0; i < BPFPROF_SCRATCH_FRAMES; i++) {
		if (i >= nr)
			break;
		lo = mix64(lo ^ s->ips[i]) + i;
		hi = mix64(hi + s->ips[i] * 0x2545f4914f6cdd1dULL) ^ i;
	}
	id->lo = mix64(lo ^ nr) | 1; /* {0, 0} means "no stack" */
	id->hi = mix64(hi + nr + s->flags);
	return 0;
}

/*
 * Copy one stack into the scratch buffer and store it once under its hash.
 * Returns 0 (id set; {0, 0} for an empty or unreadable stack), or -1 when
 * the stacks map is full. *fault is set when the copy failed.
 */
static __noinline int capture_stack(struct bpf_perf_event_data *ctx, struct scratch *s,
				    __u64 flags, struct stack_id *id, bool *fault)
{
	__u32 want = cfg_max_depth + 1; /* one more, to see truncation */
	long len;
	int err;

	if (want > BPFPROF_SCRATCH_FRAMES)
		want = BPFPROF_SCRATCH_FRAMES;
	id->lo = 0;
	id->hi = 0;
	*fault = false;
	len = bpf_get_stack(ctx, s->ips, want * sizeof(__u64), flags);
	if (len < 0) {
		*fault = true;
		return 0;
	}
	s->nr = len / sizeof(__u64);
	s->flags = 0;
	if (s->nr == 0)
		return 0;
	if (s->nr > cfg_max_depth ||
	    (s->nr == cfg_max_depth && cfg_max_depth >= cfg_kernel_max)) {
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

static __always_inline int count_key(struct sample_key *key)
{
	__u64 one = 1, *cnt;
	int err;

	cnt = bpf_map_lookup_elem(&counts, key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	err = bpf_map_update_elem(&counts, key, &one, BPF_NOEXIST);
	if (err == -EEXIST) {
		cnt = bpf_map_lookup_elem(&counts, key);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	return err;
}

SEC("perf_event")
int bpfprof_sample(struct bpf_perf_event_data *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid, zero = 0;
	struct task_struct *task;
	struct sample_key *key;
	struct scratch *s;
	bool fault;

	stat_inc(STAT_SEEN);
	if (tid == 0 && !cfg_idle) {
		stat_inc(STAT_IDLE);
		return 0;
	}
	if (!is_target(tgid, tid)) {
		stat_inc(STAT_FILTERED);
		return 0;
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
		if (capture_stack(ctx, s, BPF_F_USER_STACK, &key->ustack, &fault))
			goto stacks_full;
		if (fault) {
			key->flags |= SAMPLE_F_USTACK_FAULT;
			stat_inc(STAT_USTACK_FAULT);
		}
	}
	if (cfg_kernel_stacks && !(key->flags & SAMPLE_F_USER_MODE)) {
		if (capture_stack(ctx, s, 0, &key->kstack, &fault))
			goto stacks_full;
		if (fault)
			stat_inc(STAT_KSTACK_FAULT);
	}
	if (count_key(key)) {
		stat_inc(STAT_DROP_COUNTS_FULL);
		return 0;
	}
	stat_inc(STAT_KEPT);
	return 0;

stacks_full:
	stat_inc(STAT_DROP_STACKS_FULL);
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
