/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interrupted task: the kernel structures read through CO-RE, the one
 * reader of the interrupted user registers, and the one frame-pointer step,
 * shared by the frame-pointer walk (stack.bpf.h) and the DWARF walk's
 * fallback (unwind.bpf.h).
 */
#ifndef BPFPROF_REGS_BPF_H
#define BPFPROF_REGS_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "bpfprof.h"

#define PF_KTHREAD 0x00200000

/* Only the fields used here; CO-RE relocates them against the kernel's BTF. */
struct mm_struct {
	struct file *exe_file; /* opened anew by each exec, shared by fork */
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int flags;
	int pid;
	int tgid;
	struct task_struct *group_leader;
	struct task_struct *real_parent;
	struct mm_struct *mm;
	char comm[BPFPROF_COMM_LEN];
} __attribute__((preserve_access_index));

/* The kernel's struct pt_regs (the uapi one names its fields rbp, rsp, rip). */
struct pt_regs___kernel {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di;
	unsigned long ip, sp;
} __attribute__((preserve_access_index));

/* Set in rodata by the loader before load: frame pointers above sp+this are garbage. */
const volatile __u64 cfg_stack_span = 64 << 20;

/* DWARF register numbers (x86-64) of the registers a walk follows. */
#define R_RBP 6
#define R_RSP 7

/* Did the sample interrupt user mode? */
static __always_inline bool regs__user_mode(struct bpf_perf_event_data *ctx)
{
	return (ctx->regs.cs & 3) == 3;
}

/*
 * The registers the sample interrupted (user or kernel mode) in DWARF
 * numbering (0-15), and the ip.
 */
static __always_inline void regs__sample(struct bpf_perf_event_data *ctx, __u64 *regs,
					 __u64 *ip)
{
	/* volatile: the verifier wants each ctx load at ctx + a constant */
	*ip = *(volatile unsigned long *)&ctx->regs.rip;
	regs[0] = *(volatile unsigned long *)&ctx->regs.rax;
	regs[1] = *(volatile unsigned long *)&ctx->regs.rdx;
	regs[2] = *(volatile unsigned long *)&ctx->regs.rcx;
	regs[3] = *(volatile unsigned long *)&ctx->regs.rbx;
	regs[4] = *(volatile unsigned long *)&ctx->regs.rsi;
	regs[5] = *(volatile unsigned long *)&ctx->regs.rdi;
	regs[6] = *(volatile unsigned long *)&ctx->regs.rbp;
	regs[7] = *(volatile unsigned long *)&ctx->regs.rsp;
	regs[8] = *(volatile unsigned long *)&ctx->regs.r8;
	regs[9] = *(volatile unsigned long *)&ctx->regs.r9;
	regs[10] = *(volatile unsigned long *)&ctx->regs.r10;
	regs[11] = *(volatile unsigned long *)&ctx->regs.r11;
	regs[12] = *(volatile unsigned long *)&ctx->regs.r12;
	regs[13] = *(volatile unsigned long *)&ctx->regs.r13;
	regs[14] = *(volatile unsigned long *)&ctx->regs.r14;
	regs[15] = *(volatile unsigned long *)&ctx->regs.r15;
}

/*
 * The interrupted user registers in DWARF numbering (0-15) and the ip: the
 * sample's when it interrupted user mode, else the task's saved ones
 * (bpf_task_pt_regs). False when there are none.
 */
static __always_inline bool regs__user(struct bpf_perf_event_data *ctx, struct task_struct *task,
				       __u64 *regs, __u64 *ip)
{
	struct pt_regs___kernel *k;

	if (regs__user_mode(ctx)) {
		regs__sample(ctx, regs, ip);
		return true;
	}
	k = (struct pt_regs___kernel *)bpf_task_pt_regs(task);
	if (!k)
		return false;
	*ip = k->ip;
	regs[0] = k->ax;
	regs[1] = k->dx;
	regs[2] = k->cx;
	regs[3] = k->bx;
	regs[4] = k->si;
	regs[5] = k->di;
	regs[6] = k->bp;
	regs[7] = k->sp;
	regs[8] = k->r8;
	regs[9] = k->r9;
	regs[10] = k->r10;
	regs[11] = k->r11;
	regs[12] = k->r12;
	regs[13] = k->r13;
	regs[14] = k->r14;
	regs[15] = k->r15;
	return true;
}

/*
 * One frame-pointer step: the caller's frame {rbp, return address} at
 * *@fp, followed only if *@fp is 8-aligned, at or above *@sp and below
 * @hi (a bound within cfg_stack_span of the stack), and the return address
 * is a user one. Then *@ip is the return address, *@sp the caller's stack
 * pointer and *@fp its frame pointer; 0, or -1 with nothing changed.
 *
 * Why not the kernel's walker (bpf_get_stack with BPF_F_USER_STACK): it
 * follows any rbp below TASK_SIZE, so every walk that leaves frame-pointer
 * code (into libc's start routines, on Debian almost every one) ends by
 * reading garbage: a page fault (~650 ns in a VM) or garbage frames.
 */
static __always_inline int regs__fp_step(__u64 *ip, __u64 *sp, __u64 *fp, __u64 hi)
{
	struct {
		__u64 fp;
		__u64 ret;
	} frame;

	if ((*fp & 7) || *fp < *sp || *fp >= hi)
		return -1;
	if (bpf_probe_read_user(&frame, sizeof(frame), (void *)*fp))
		return -1;
	if (!frame.ret || (__s64)frame.ret < 0) /* not a user address */
		return -1;
	*ip = frame.ret;
	*sp = *fp + sizeof(frame);
	*fp = frame.fp;
	return 0;
}

#endif /* BPFPROF_REGS_BPF_H */
