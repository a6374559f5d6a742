/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof range: the range check. After the target filter, the sample's ip
 * is looked up in the ranges instead of its stack being copied, and
 * counted per (range, address) and per (range, process); a sample outside
 * every range is counted and dropped. For record cfg_ranges is false and
 * the verifier drops all of it.
 */
#ifndef BPFPROF_RANGE_BPF_H
#define BPFPROF_RANGE_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "regs.bpf.h"

/* Set in rodata by the loader before load. */
/* bpfprof range: count per instruction in ranges instead of per stack */
const volatile bool cfg_ranges = false;
const volatile __u32 cfg_range_slots = 1; /* slots per range_pages value */
const volatile __u32 cfg_range_shift = RANGE_PAGE_SHIFT;
/* bpfprof range --stacks: in-range samples also get their stacks counted */
const volatile bool cfg_range_stacks = false;

/*
 * One entry each for record. Only user space updates range_pages, so it
 * need not be preallocated; range_counts is updated here, from any
 * context: unpreallocated hash maps allocate through bpf_mem_alloc, which
 * is NMI-safe (kernel >= 6.1), and cost memory only per address hit.
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

struct range_walk {
	struct range_slot *slots; /* the page's cfg_range_slots slots */
	__u64 ip;
	__u32 tgid;  /* the page key's: 0 for the kernel */
	__u32 first; /* the first range counted */
	int hits, lost;
};

static long range__step(__u32 i, struct range_walk *w)
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
	if (count_key(&range_counts, &key, NULL)) {
		w->lost++;
		return 0;
	}
	if (!w->hits++)
		w->first = slot->id;
	hk.id = slot->id;
	hk.tgid = w->tgid;
	count_key(&range_hits, &hk, NULL); /* as big as the pages: cannot be full */
	return 0;
}

/*
 * bpfprof range: count the sample under every range holding its ip (the
 * kernel's for a sample in the kernel, else the process's). One hash
 * lookup decides most samples: a page no range touches has no entry.
 * Returns > 0 when counted (*@first: the first range), 0 when in no
 * range, < 0 when lost.
 */
static __always_inline int range__sample(struct bpf_perf_event_data *ctx, __u32 tgid,
					 __u32 *first)
{
	struct range_page_key key = {};
	struct range_walk w = {};

	w.ip = *(volatile unsigned long *)&ctx->regs.rip;
	key.tgid = regs__user_mode(ctx) ? tgid : 0;
	key.page = w.ip >> cfg_range_shift;
	w.tgid = key.tgid;
	w.slots = bpf_map_lookup_elem(&range_pages, &key);
	if (!w.slots)
		return 0;
	bpf_loop(cfg_range_slots, range__step, &w, 0);
	*first = w.first;
	if (w.hits)
		return 1;
	return w.lost ? -1 : 0;
}

#endif /* BPFPROF_RANGE_BPF_H */
