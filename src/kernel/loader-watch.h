/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The watch maps (bpf/watch.bpf.h), for bpfprof watch: the watched
 * addresses, the counts per location, per (location, process, ip) and per
 * (location, value), and the program's filter (--if, --count, --values).
 * Without a loader_cfg.watch they keep one entry each.
 */
#ifndef BPFPROF_LOADER_WATCH_H
#define BPFPROF_LOADER_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "loader.h"

struct loader_watch_cfg {
	unsigned int locs;     /* locations */
	unsigned int addrs;    /* watched addresses (a location in every process) */
	unsigned int keys;     /* (location, process, ip) and (location, value) pairs */
	bool values;           /* --values */
	uint64_t count;        /* --count; 0: every access */
	unsigned int nr_terms; /* --if */
	struct watch_term terms[WATCH_MAX_TERMS];
};

/*
 * @addr is location @loc (index, size) from now on. The counts of
 * location @index summed over the CPUs, the matching accesses so far (kept
 * and over --count), every watch_ips and watch_values entry. 0 or -errno.
 */
int loader_watch__set_addr(struct loader *l, __u64 addr, const struct watch_loc *loc);
int loader_watch__count(struct loader *l, __u32 index, struct watch_count *out);
uint64_t loader_watch__total(const struct loader *l);
int loader_watch__for_each_ip(struct loader *l, loader_count_fn fn, void *ctx);
int loader_watch__for_each_value(struct loader *l, loader_count_fn fn, void *ctx);

#endif /* BPFPROF_LOADER_WATCH_H */
