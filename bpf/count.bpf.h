/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Counting: the stats map (every way a sample is kept or lost, STAT_*) and
 * one way to add a sample to a u64 count in a hash map from any context.
 */
#ifndef BPFPROF_COUNT_BPF_H
#define BPFPROF_COUNT_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"

#define EEXIST 17

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, STAT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

/* EVENT_STAT__MAX per event, entries set before load (bpfprof.h) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, EVENT_STAT__MAX);
	__type(key, __u32);
	__type(value, __u64);
} event_stats SEC(".maps");

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

/* Count @idx (enum event_stat) of event @event; an index past the map's: nothing. */
static __always_inline void event_stat_inc(__u32 event, __u32 idx)
{
	__u32 key = event * EVENT_STAT__MAX + idx;
	__u64 *v = bpf_map_lookup_elem(&event_stats, &key);

	if (v)
		*v += 1;
}

/*
 * Add one to @map[@key] (a u64), inserting it with BPF_NOEXIST and
 * retrying the lookup when another CPU inserted it first; 0 or the
 * update's error (the map is full). @added (or NULL) counts the entries
 * this call inserted.
 */
static __always_inline int count_key(void *map, const void *key, __u32 *added)
{
	__u64 one = 1, *cnt;
	int err;

	cnt = bpf_map_lookup_elem(map, key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	err = bpf_map_update_elem(map, key, &one, BPF_NOEXIST);
	if (!err && added)
		__sync_fetch_and_add(added, 1);
	if (err == -EEXIST) {
		cnt = bpf_map_lookup_elem(map, key);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	return err;
}

#endif /* BPFPROF_COUNT_BPF_H */
