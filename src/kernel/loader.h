/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The only user of BPF skeletons: open, configure (rodata, map sizes),
 * load; fill the target maps; read the counters; switch and drain the
 * stack sets.
 */
#ifndef BPFPROF_LOADER_H
#define BPFPROF_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "bpfprof.h"

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
	/* bpfprof range; with ranges false the range maps keep one entry */
	bool ranges;
	unsigned int range_slots;  /* ranges per page entry at most */
	unsigned int range_shift;  /* page = address >> range_shift */
	unsigned int range_pages;  /* page entries */
	unsigned int range_addrs;  /* distinct (range, address) counted at most */
	unsigned int range_hit_keys; /* (range, process) pairs counted at most */
	bool range_stacks;         /* --stacks: in-range samples get stacks too */
	/* --unwind=dwarf|auto; with unwind false the unwinder's maps keep one entry */
	bool unwind;
	bool unwind_fallback;      /* frame pointers where no table exists (auto) */
	unsigned int unwind_maps;  /* executable mappings per process */
	unsigned int unwind_procs; /* processes */
	unsigned int unwind_rows;  /* rows of all binaries */
	unsigned int unwind_pages; /* page index entries of all binaries */
	unsigned int unwind_bins;  /* binaries */
	/* bpfprof watch; with watch false its maps keep one entry */
	bool watch;
	unsigned int watch_locs;   /* locations */
	unsigned int watch_addrs;  /* watched addresses (a location in every process) */
	unsigned int watch_keys;   /* (location, process, ip) and (location, value) pairs */
	bool watch_values;         /* --values */
	uint64_t watch_count;      /* --count; 0: every access */
	unsigned int watch_nr_terms; /* --if */
	struct watch_term watch_terms[WATCH_MAX_TERMS];
	bool stop_at_exec;         /* the command stops at its exec (SIGSTOP) until continued */
};

struct loader;

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

/* @key: a struct sample_key (counts), range_addr_key (range_counts), range_hit_key. */
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
/* The same for every range_counts entry. */
int loader__for_each_range_count(struct loader *l, loader_count_fn fn, void *ctx);

/*
 * The ranges of one page: range_slots slots (unused ones zeroed, last).
 * Set (also while sampling: the program sees the old or the new value),
 * read (-ENOENT: no entry), delete. 0 or -errno.
 */
int loader__set_range_page(struct loader *l, const struct range_page_key *key,
			   const struct range_slot *slots);
int loader__get_range_page(struct loader *l, const struct range_page_key *key,
			   struct range_slot *slots);
int loader__delete_range_page(struct loader *l, const struct range_page_key *key);
/* Call @fn for every range_hits entry (key: struct range_hit_key). */
int loader__for_each_range_hit(struct loader *l, loader_count_fn fn, void *ctx);
size_t loader__stack_size(const struct loader *l);

/*
 * The unwinder's tables (cfg.unwind): the rows and page index (how many
 * entries; 0 when unwinding is off), written @n entries from entry @first
 * (0, or -errno: -ERANGE past the end), and the binary map, mapped into
 * memory (*@nr entries; NULL when unwinding is off). Write a binary's rows
 * and pages before its unwind_bins entry, and that before any process's
 * mapping names it.
 */
size_t loader__unwind_rows(const struct loader *l);
size_t loader__unwind_pages(const struct loader *l);
int loader__write_unwind_rows(struct loader *l, size_t first, const struct unwind_row *rows,
			      size_t n);
int loader__write_unwind_pages(struct loader *l, size_t first, const __u64 *pages, size_t n);
struct unwind_bin *loader__unwind_bins(struct loader *l, size_t *nr);
/*
 * Drop every row the program has cached (unwind_gen): after a binary's
 * table is taken out, before its unwind_bins index can name another.
 */
void loader__drop_cached_rows(struct loader *l);
/* The clock the program stamps unwind_bin.used with. */
void loader__set_unwind_epoch(struct loader *l, __u32 epoch);
/*
 * Take (and remove) up to @max binaries walks asked a table for
 * (unwind_map.want values) into @ids, *@nr of them. 0 or -errno.
 */
int loader__take_unwind_wanted(struct loader *l, __u32 *ids, size_t max, size_t *nr);
/* A process's mappings: a value of loader__unwind_proc_size() bytes. 0 or -errno. */
size_t loader__unwind_proc_size(const struct loader *l);
int loader__set_unwind_proc(struct loader *l, __u32 tgid, const struct unwind_proc *p);
int loader__delete_unwind_proc(struct loader *l, __u32 tgid);

/*
 * bpfprof watch: @addr is location @loc (index, size) from now on. The
 * counts of location @index summed over the CPUs, the matching accesses so
 * far (kept and over --count), every watch_ips and watch_values entry. 0
 * or -errno.
 */
int loader__set_watch_addr(struct loader *l, __u64 addr, const struct watch_loc *loc);
int loader__watch_count(struct loader *l, __u32 index, struct watch_count *out);
uint64_t loader__watch_total(const struct loader *l);
int loader__for_each_watch_ip(struct loader *l, loader_count_fn fn, void *ctx);
int loader__for_each_watch_value(struct loader *l, loader_count_fn fn, void *ctx);

/*
 * Count every program's run time while the returned descriptor is open
 * (kernel.bpf_stats_enabled, for loader__prog_stats()); -errno if it cannot be.
 */
int loader__enable_stats(void);
/* The sampling program's run time and runs (kernel.bpf_stats_enabled=1). 0 or -errno. */
int loader__prog_stats(struct loader *l, uint64_t *run_ns, uint64_t *run_cnt);

#endif /* BPFPROF_LOADER_H */
