/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Targets: which tasks a sample may come from (the tgid set that follows
 * forks, the tid set, the -G cgroup, the idle task), decided before
 * anything is copied, and the programs that keep the tgid set current: a
 * target's forked children join it, the command joins at its exec.
 */
#ifndef BPFPROF_TARGETS_BPF_H
#define BPFPROF_TARGETS_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "regs.bpf.h"

/* Set in rodata by the loader before load. */
const volatile bool cfg_filter_tgid = false;
const volatile bool cfg_filter_tid = false;
const volatile bool cfg_filter_cgroup = false;
const volatile bool cfg_idle = false;

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

static __always_inline bool targets__match(__u32 tgid, __u32 tid)
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

/*
 * Should the sample of @tgid/@tid be kept? Counts the ones that are not:
 * the idle task (tid 0) unless --idle, and every task that is no target.
 */
static __always_inline bool targets__keep(__u32 tgid, __u32 tid)
{
	if (tid == 0 && !cfg_idle) {
		stat_inc(STAT_IDLE);
		return false;
	}
	if (!targets__match(tgid, tid)) {
		stat_inc(STAT_FILTERED);
		return false;
	}
	return true;
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

/*
 * Set in rodata by the loader before load: the command stops (SIGSTOP) at
 * its exec, before its first instruction, until user space has set up
 * what needs its new image (watch: breakpoints at its addresses) and
 * continues it.
 */
const volatile bool cfg_stop_at_exec = false;

#define SIGSTOP 19

/* Command mode: the child counts from its exec on, not while it is still us. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(bpfprof_exec, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	__u8 *state = bpf_map_lookup_elem(&target_tgids, &tgid);

	if (state && *state == TARGET_PENDING_EXEC) {
		*state = TARGET_ACTIVE;
		if (cfg_stop_at_exec)
			bpf_send_signal(SIGSTOP);
	}
	return 0;
}

#endif /* BPFPROF_TARGETS_BPF_H */
