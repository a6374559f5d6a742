// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The range maps (bpf/range.bpf.h): sized for bpfprof range, one entry
 * each for record; their entries set, read and counted.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader-internal.h"

int loader_range__prepare(struct loader *l, const struct loader_range_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	struct record_bpf__rodata *ro = skel->rodata;
	unsigned int slots = cfg ? loader__at_least_one(cfg->slots) : 1;
	int err;

	ro->cfg_ranges = cfg != NULL;
	if (cfg) {
		ro->cfg_range_slots = cfg->slots;
		ro->cfg_range_shift = cfg->shift;
		ro->cfg_range_stacks = cfg->stacks;
	}
	l->range.page_size = slots * sizeof(struct range_slot);
	err = bpf_map__set_value_size(skel->maps.range_pages, l->range.page_size);
	if (!cfg)
		return err;
	err = err ?: bpf_map__set_max_entries(skel->maps.range_pages,
					      loader__at_least_one(cfg->pages));
	err = err ?: bpf_map__set_max_entries(skel->maps.range_counts,
					      loader__at_least_one(cfg->addrs));
	err = err ?: bpf_map__set_max_entries(skel->maps.range_hits,
					      loader__at_least_one(cfg->hit_keys));
	return err;
}

int loader_range__set_page(struct loader *l, const struct range_page_key *key,
			   const struct range_slot *slots)
{
	return bpf_map__update_elem(l->skel->maps.range_pages, key, sizeof(*key), slots,
				    l->range.page_size, BPF_ANY);
}

int loader_range__get_page(struct loader *l, const struct range_page_key *key,
			   struct range_slot *slots)
{
	return bpf_map__lookup_elem(l->skel->maps.range_pages, key, sizeof(*key), slots,
				    l->range.page_size, 0);
}

int loader_range__delete_page(struct loader *l, const struct range_page_key *key)
{
	return bpf_map__delete_elem(l->skel->maps.range_pages, key, sizeof(*key), 0);
}

int loader_range__for_each_count(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.range_counts),
				    sizeof(struct range_addr_key), false, fn, ctx);
}

int loader_range__for_each_hit(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.range_hits),
				    sizeof(struct range_hit_key), false, fn, ctx);
}
