// SPDX-License-Identifier: GPL-2.0
/*
 * bpfprof record, range and watch: the overflow handler of every sampling
 * (or breakpoint) event, composed of the pieces in this folder:
 *
 *   targets.bpf.h  the target filter (before anything is copied) and the
 *                  fork/exec programs that keep the target set current;
 *   range.bpf.h    bpfprof range: the ip counted per (range, address)
 *                  instead, samples outside every range dropped;
 *   watch.bpf.h    bpfprof watch: the breakpoint's location, --if, the
 *                  counts per location, ip and value;
 *   stack.bpf.h    the stacks captured, hashed and stored once, the sample
 *                  counted under its key;
 *   unwind.bpf.h   the DWARF walk of user stacks (stack.bpf.h's);
 *   regs.bpf.h     the interrupted registers and the frame-pointer step;
 *   count.bpf.h    the stats map and counting in hash maps.
 *
 * Everything that cannot be stored is counted by cause in the stats map.
 */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "range.bpf.h"
#include "stack.bpf.h"
#include "targets.bpf.h"
#include "watch.bpf.h"

SEC("perf_event")
int bpfprof_sample(struct bpf_perf_event_data *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid;
	/* the event's index in record's -e list (bpf_link's cookie); 0 without one */
	__u32 event = (__u32)bpf_get_attach_cookie(ctx);
	__u32 range = 0;
	int ret;

	stat_inc(STAT_SEEN);
	event_stat_inc(event, EVENT_STAT_SEEN);
	if (!targets__keep(tgid, tid))
		return 0;
	if (cfg_watch) {
		/* a breakpoint: its location, --if; folded away for record and range */
		if (!watch__sample(ctx, tgid, tid, &range))
			return 0;
		stat_inc(STAT_KEPT);
		ret = stack__count(ctx, tgid, tid, range + 1, 0);
		if (ret)
			stat_inc(ret == STAT_DROP_SCRATCH ? ret : STAT_STACKS_LOST);
		/*
		 * 1: the overflow goes on to the event's own handling (no ring
		 * buffer is mapped, so nothing is written): a trap (attr.sigtrap)
		 * is then sent for a kept access only
		 */
		return 1;
	}
	if (cfg_ranges) {
		/* before anything is copied; folded away for record */
		ret = range__sample(ctx, tgid, &range);
		if (ret <= 0) {
			stat_inc(ret ? STAT_DROP_COUNTS_FULL : STAT_OUT_OF_RANGE);
			return 0;
		}
		stat_inc(STAT_KEPT);
		if (!cfg_range_stacks)
			return 0;
		/* --stacks: on to the stacks, marked with the first range */
	}
	ret = stack__count(ctx, tgid, tid, cfg_ranges ? range + 1 : 0, event);
	if (!ret) {
		if (!cfg_ranges) {
			stat_inc(STAT_KEPT);
			event_stat_inc(event, EVENT_STAT_KEPT);
		}
		return 0;
	}
	/* range --stacks: the sample is in the listing; only its stack is lost */
	if (cfg_ranges && ret != STAT_DROP_SCRATCH)
		ret = STAT_STACKS_LOST;
	if (!cfg_ranges)
		event_stat_inc(event, EVENT_STAT_LOST);
	stat_inc(ret);
	return 0;
}

/* bench/ only: the floor, a handler that does nothing. */
SEC("perf_event")
int bpfprof_empty(struct bpf_perf_event_data *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
