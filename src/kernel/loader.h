/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The only user of BPF skeletons: open, configure (rodata, map sizes),
 * load; fill the target maps; read the counters; switch and drain the
 * stack sets. The map families beside the stacks each have a loader-*.c
 * (beside their bpf/NAME.bpf.h) with their part of the configuration, the
 * sizes of their maps and the calls that fill and read them: range
 * (loader-range.h), the unwinder's tables (loader-unwind.h), watch
 * (loader-watch.h). A new BPF program or map family is a new loader-*.c.
 */
#ifndef BPFPROF_LOADER_H
#define BPFPROF_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "bpfprof.h"

struct loader;
/* The map families beside the stacks, each configured by its loader-*.h. */
struct loader_range_cfg;
struct loader_unwind_cfg;
struct loader_watch_cfg;

struct loader_cfg {
	unsigned int max_depth;   /* frames kept per stack */
	unsigned int kernel_max;  /* kernel.perf_event_max_stack */
	unsigned int max_stacks;  /* counts entries of a stack set; stacks get twice that */
	unsigned int max_targets; /* entries of the tgid and tid sets */
	bool user_stacks, kernel_stacks;
	bool filter_tgid, filter_tid, filter_cgroup;
	bool idle, per_thread;
	bool empty_handler;       /* bench: attach a handler that returns at once */
	unsigned int events;      /* sampling events (-e): event_stats blocks; 0 counts as 1 */
	bool stop_at_exec;        /* the command stops at its exec (SIGSTOP) until continued */
	/*
	 * The families in use (the plug that sets one keeps it until load and
	 * the start hooks are over); NULL: its maps keep one entry each and the
	 * verifier drops its code.
	 */
	const struct loader_range_cfg *range;   /* bpfprof range (loader-range.h) */
	const struct loader_unwind_cfg *unwind; /* --unwind=dwarf|auto (loader-unwind.h) */
	const struct loader_watch_cfg *watch;   /* bpfprof watch (loader-watch.h) */
};

/* NULL + errno; loader__error() then has libbpf's last message. */
struct loader *loader__load(const struct loader_cfg *cfg);
void loader__free(struct loader *l);
/* The last warning or error libbpf reported (for the top level to print). */
const char *loader__error(void);

int loader__sample_fd(const struct loader *l);
/* Attach the fork/exec tracepoints that let the tgid set follow children. */
int loader__attach_followers(struct loader *l);
int loader__add_tgid(struct loader *l, __u32 tgid, enum target_state state);
int loader__add_tid(struct loader *l, __u32 tid);
int loader__set_cgroup(struct loader *l, int cgroup_fd);

/*
 * Sum the per-CPU counters into @sum[STAT__MAX]; @max[STAT__MAX] (or NULL)
 * gets each counter's largest per-CPU value. 0 or -errno.
 */
int loader__read_stats(struct loader *l, uint64_t *sum, uint64_t *max);

/*
 * Event @event's counters (enum event_stat): summed over the CPUs into
 * @sum[EVENT_STAT__MAX], the largest per-CPU value of each into @max (or
 * NULL). 0 or -errno (-ENOENT past the events the program was sized for).
 */
int loader__read_event_stats(struct loader *l, unsigned int event, uint64_t *sum,
			     uint64_t *max);

/*
 * @key: a struct sample_key (counts); a family's keys (range_addr_key,
 * range_hit_key, watch_ip_key, watch_value_key) for its maps.
 */
typedef int (*loader_count_fn)(const void *key, __u64 count, void *ctx);

/*
 * The two stack sets (bpfprof.h): the set samples go to now; how full set
 * @set is (the larger share of its stacks and counts maps that the
 * program filled since it was last cleared, 0..1).
 */
unsigned int loader__stack_set(const struct loader *l);
double loader__stack_set_use(const struct loader *l, unsigned int set);
/*
 * Send the samples to the other set, then wait until no program can still
 * be writing the set they went to (*@old; a grace period, membarrier).
 * 0, or -errno when the wait failed (the sets are switched anyway: drain
 * *@old only once sampling has stopped).
 */
int loader__switch_stack_set(struct loader *l, unsigned int *old);
/*
 * Call @fn for every counts entry of set @set (in batches), each batch
 * deleted as it is read. 0, -errno, or @fn's error.
 */
int loader__take_counts(struct loader *l, unsigned int set, loader_count_fn fn, void *ctx);
/* The same for every stacks entry of set @set. */
typedef int (*loader_stack_fn)(const struct stack_id *id, const struct stack_trace *st,
			       void *ctx);
int loader__take_stacks(struct loader *l, unsigned int set, loader_stack_fn fn, void *ctx);
size_t loader__stack_size(const struct loader *l);

/*
 * Count every program's run time while the returned descriptor is open
 * (kernel.bpf_stats_enabled, for loader__prog_stats()); -errno if it cannot be.
 */
int loader__enable_stats(void);
/* The sampling program's run time and runs (kernel.bpf_stats_enabled=1). 0 or -errno. */
int loader__prog_stats(struct loader *l, uint64_t *run_ns, uint64_t *run_cnt);

#endif /* BPFPROF_LOADER_H */
