// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The watch maps (bpf/watch.bpf.h): the program's filter in rodata, the
 * maps sized for bpfprof watch (one entry each otherwise); the watched
 * addresses set, the counts read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader-internal.h"

int loader_watch__prepare(struct loader *l, const struct loader_watch_cfg *cfg)
{
	static const struct loader_watch_cfg off;
	struct record_bpf *skel = l->skel;
	struct record_bpf__rodata *ro = skel->rodata;
	const struct loader_watch_cfg *c = cfg ? cfg : &off;
	int err;

	ro->cfg_watch = cfg != NULL;
	ro->cfg_watch_values = c->values;
	ro->cfg_watch_count = c->count;
	ro->cfg_watch_nr_terms = c->nr_terms;
	memcpy((void *)ro->cfg_watch_terms, c->terms, sizeof(c->terms));
	if (!cfg)
		return 0;
	err = bpf_map__set_max_entries(skel->maps.watch_locs, loader__at_least_one(cfg->addrs));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_counts,
					      loader__at_least_one(cfg->locs));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_ips,
					      loader__at_least_one(cfg->keys));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_values,
					      cfg->values ? loader__at_least_one(cfg->keys) : 1);
	return err;
}

int loader_watch__set_addr(struct loader *l, __u64 addr, const struct watch_loc *loc)
{
	return bpf_map__update_elem(l->skel->maps.watch_locs, &addr, sizeof(addr), loc,
				    sizeof(*loc), BPF_ANY);
}

int loader_watch__count(struct loader *l, __u32 index, struct watch_count *out)
{
	struct watch_count *vals = calloc(l->ncpus, sizeof(*vals));
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!vals)
		return err;
	err = bpf_map__lookup_elem(l->skel->maps.watch_counts, &index, sizeof(index), vals,
				   l->ncpus * sizeof(*vals), 0);
	for (int c = 0; c < l->ncpus && !err; c++) {
		out->kept += vals[c].kept;
		out->dropped += vals[c].dropped;
		out->over += vals[c].over;
	}
	free(vals);
	return err;
}

uint64_t loader_watch__total(const struct loader *l)
{
	return __atomic_load_n(&l->skel->bss->watch_total, __ATOMIC_RELAXED);
}

int loader_watch__for_each_ip(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.watch_ips),
				    sizeof(struct watch_ip_key), false, fn, ctx);
}

int loader_watch__for_each_value(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.watch_values),
				    sizeof(struct watch_value_key), false, fn, ctx);
}
