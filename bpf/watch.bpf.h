/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof watch: the access check. Every event is a hardware breakpoint
 * (period 1: every access overflows it); its sample address is the
 * watched address, looked up in watch_locs for the location's index. The
 * --if terms are evaluated on the watched value, the accessing thread's
 * registers and ids; a matching access is counted per location, per trap
 * ip and (--values) per value, then goes on to record's stack capture
 * marked with the location. For record and range cfg_watch is false and
 * the verifier drops all of it.
 */
#ifndef BPFPROF_WATCH_BPF_H
#define BPFPROF_WATCH_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "regs.bpf.h"

/* Set in rodata by the loader before load. */
const volatile bool cfg_watch = false;
const volatile bool cfg_watch_values = false; /* --values */
const volatile __u64 cfg_watch_count = 0;     /* --count: matching accesses kept; 0: all */
const volatile __u32 cfg_watch_nr_terms = 0;  /* --if */
const volatile struct watch_term cfg_watch_terms[WATCH_MAX_TERMS];

/* Matching accesses so far, kept or over --count (user space polls it). */
__u64 watch_total = 0;

/* Sizes set before load: one entry each unless watching. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64); /* the watched address */
	__type(value, struct watch_loc);
} watch_locs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32); /* location index */
	__type(value, struct watch_count);
} watch_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct watch_ip_key);
	__type(value, __u64);
} watch_ips SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct watch_value_key);
	__type(value, __u64);
} watch_values SEC(".maps");

/* The watched bytes now (after a write: the new value), zero-extended. */
static __always_inline __u64 watch__value(__u64 addr, const struct watch_loc *loc)
{
	__u64 v = 0;
	__u32 len = loc->len;

	if (len > 8)
		len = 8;
	if (len == 0)
		return 0;
	if (loc->kernel)
		bpf_probe_read_kernel(&v, len, (void *)addr);
	else
		bpf_probe_read_user(&v, len, (void *)addr);
	return v;
}

/* @v sign-extended from @len bytes. */
static __always_inline __u64 watch__sign_extend(__u64 v, __u32 len)
{
	__u32 shift = len >= 8 ? 0 : 64 - 8 * len;

	return (__u64)((__s64)(v << shift) >> shift);
}

static __always_inline bool watch__compare(__u64 a, __u8 cmp, __u64 b, bool is_signed)
{
	__s64 sa = (__s64)a, sb = (__s64)b;

	switch (cmp) {
	case WATCH_EQ:
		return a == b;
	case WATCH_NE:
		return a != b;
	case WATCH_LT:
		return is_signed ? sa < sb : a < b;
	case WATCH_LE:
		return is_signed ? sa <= sb : a <= b;
	case WATCH_GT:
		return is_signed ? sa > sb : a > b;
	default:
		return is_signed ? sa >= sb : a >= b;
	}
}

/* Do the --if terms all hold for this access? */
static __always_inline bool watch__match(struct bpf_perf_event_data *ctx, __u64 value,
					 __u32 len, __u32 tgid, __u32 tid)
{
	__u64 regs[16], ip, x;

	if (!cfg_watch_nr_terms)
		return true;
	regs__sample(ctx, regs, &ip);
	for (__u32 i = 0; i < WATCH_MAX_TERMS; i++) {
		const volatile struct watch_term *t = &cfg_watch_terms[i];
		__u8 reg = t->reg;

		if (i >= cfg_watch_nr_terms)
			break;
		switch (t->operand) {
		case WATCH_VALUE:
			x = t->is_signed ? watch__sign_extend(value, len) : value;
			break;
		case WATCH_REG:
			x = reg < 16 ? regs[reg & 15] : ip;
			break;
		case WATCH_TID:
			x = tid;
			break;
		default:
			x = tgid;
			break;
		}
		if (!watch__compare(x & t->mask, t->cmp, t->constant, t->is_signed))
			return false;
	}
	return true;
}

/*
 * Is this access kept? 1 (with *@index, the location), 0 when it is not
 * (counted by cause).
 */
static __noinline int watch__sample(struct bpf_perf_event_data *ctx, __u32 tgid, __u32 tid,
				    __u32 *index)
{
	__u64 addr = ctx->addr, value, ip = ctx->regs.rip;
	struct watch_value_key vk = { 0 };
	struct watch_ip_key ik = { 0 };
	struct watch_count *c;
	struct watch_loc *loc;
	__u32 idx;

	loc = bpf_map_lookup_elem(&watch_locs, &addr);
	if (!loc) {
		stat_inc(STAT_WATCH_UNKNOWN);
		return 0;
	}
	idx = loc->index;
	c = bpf_map_lookup_elem(&watch_counts, &idx);
	if (!c) {
		stat_inc(STAT_WATCH_UNKNOWN);
		return 0;
	}
	value = watch__value(addr, loc);
	if (!watch__match(ctx, value, loc->len, tgid, tid)) {
		c->dropped++;
		stat_inc(STAT_WATCH_DROPPED);
		return 0;
	}
	if (__sync_fetch_and_add(&watch_total, 1) >= cfg_watch_count && cfg_watch_count) {
		c->over++;
		stat_inc(STAT_WATCH_OVER);
		return 0;
	}
	c->kept++;
	ik.index = idx;
	ik.tgid = regs__user_mode(ctx) ? tgid : 0;
	ik.ip = ip;
	if (count_key(&watch_ips, &ik, NULL))
		stat_inc(STAT_WATCH_MAP_FULL);
	if (cfg_watch_values) {
		vk.index = idx;
		vk.value = value;
		if (count_key(&watch_values, &vk, NULL))
			stat_inc(STAT_WATCH_MAP_FULL);
	}
	*index = idx;
	return 1;
}

#endif /* BPFPROF_WATCH_BPF_H */
