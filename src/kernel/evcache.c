// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>

#include "array.h"
#include "evcache.h"

/*
 * perf's names of the cache event parts (tools/perf/util/evsel.c), the
 * first of each row the canonical one; matched ignoring case.
 */
#define EVCACHE_ALIASES 5
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][EVCACHE_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][EVCACHE_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][EVCACHE_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

/* The cache events perf lists (the combinations that exist), for suggestions. */
static const char *const cache_known[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "L1-dcache-stores",
	"L1-dcache-store-misses", "L1-dcache-prefetches", "L1-dcache-prefetch-misses",
	"L1-icache-loads", "L1-icache-load-misses", "L1-icache-prefetches",
	"L1-icache-prefetch-misses", "LLC-loads", "LLC-load-misses", "LLC-stores",
	"LLC-store-misses", "LLC-prefetches", "LLC-prefetch-misses", "dTLB-loads",
	"dTLB-load-misses", "dTLB-stores", "dTLB-store-misses", "dTLB-prefetches",
	"dTLB-prefetch-misses", "iTLB-loads", "iTLB-load-misses", "branch-loads",
	"branch-load-misses", "node-loads", "node-load-misses", "node-stores",
	"node-store-misses", "node-prefetches", "node-prefetch-misses",
};

/*
 * The longest name of @rows (ignoring case) that @s starts with and that
 * ends at a '-' or the end of @s: its row, *@len its length; or -1.
 */
static int evcache__part(const char *s, const char *const (*rows)[EVCACHE_ALIASES],
			 size_t nr, size_t *len)
{
	int best = -1;

	*len = 0;
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = 0; j < EVCACHE_ALIASES && rows[i][j]; j++) {
			size_t n = strlen(rows[i][j]);

			if (n > *len && !strncasecmp(s, rows[i][j], n) &&
			    (s[n] == '-' || !s[n])) {
				best = (int)i;
				*len = n;
			}
		}
	}
	return best;
}

int evcache__parse(const char *name, __u64 *config)
{
	int type, op = -1, result = -1, part;
	size_t len;

	type = evcache__part(name, cache_types, ARRAY_SIZE(cache_types), &len);
	if (type < 0)
		return -ENOENT;
	for (name += len; *name; name += len) {
		name++; /* the '-' */
		part = evcache__part(name, cache_ops, ARRAY_SIZE(cache_ops), &len);
		if (part >= 0 && op < 0 && result < 0) {
			op = part;
			continue;
		}
		part = evcache__part(name, cache_results, ARRAY_SIZE(cache_results), &len);
		if (part >= 0 && result < 0) {
			result = part;
			continue;
		}
		return -ENOENT;
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (__u64)type | (__u64)op << 8 | (__u64)result << 16;
	return 0;
}

const char *evcache__known(unsigned int i)
{
	return i < ARRAY_SIZE(cache_known) ? cache_known[i] : NULL;
}
