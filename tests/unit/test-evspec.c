/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/kernel/evspec.c: event strings -> perf_event_attr, every
 * field compared with the encoding perf documents (perf_event_open(2),
 * perf-list(1)), on the fixture PMU roots of tests/fixtures/pmu-* (read by
 * pmudb.c) and without any.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "array.h"
#include "check.h"
#include "evspec.h"
#include "pmudb.h"

enum { NODB, INTEL, HYBRID };

static struct pmu_db dbs[3];

#define ASZ sizeof(struct perf_event_attr)
#define SW(c) .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_##c
#define HW(c) .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_##c
/* a cache event as perf-list(1) documents it: id | op << 8 | result << 16 */
#define CACHE(id, op, res)                                                     \
	.type = PERF_TYPE_HW_CACHE,                                            \
	.config = PERF_COUNT_HW_CACHE_##id | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
		  PERF_COUNT_HW_CACHE_RESULT_##res << 16
#define ONE(...) 1, { { .size = ASZ, __VA_ARGS__ } }
#define STRIP(...) __VA_ARGS__
#define TWO(a, b) 2, { { .size = ASZ, STRIP a }, { .size = ASZ, STRIP b } }
/* on the hybrid fixture: cpu_atom is type 10, cpu_core type 4 (name order) */
#define EXT(t) ((__u64)(t) << PERF_PMU_TYPE_SHIFT)
#define ATOM EXT(10)
#define CORE EXT(4)
/* :u and :k as perf sets them: the other two levels excluded */
#define USER .exclude_kernel = 1, .exclude_hv = 1
#define KERNEL .exclude_user = 1, .exclude_hv = 1

struct row {
	const char *spec;
	int db;
	const char *name; /* NULL: the spec */
	size_t nr;
	struct perf_event_attr want[2];
};

static const struct row rows[] = {
	/* software events and their aliases */
	{ "cpu-clock", NODB, NULL, ONE(SW(CPU_CLOCK)) },
	{ "task-clock", INTEL, NULL, ONE(SW(TASK_CLOCK)) },
	{ "page-faults", NODB, NULL, ONE(SW(PAGE_FAULTS)) },
	{ "faults", NODB, NULL, ONE(SW(PAGE_FAULTS)) },
	{ "minor-faults", NODB, NULL, ONE(SW(PAGE_FAULTS_MIN)) },
	{ "major-faults", NODB, NULL, ONE(SW(PAGE_FAULTS_MAJ)) },
	{ "context-switches", NODB, NULL, ONE(SW(CONTEXT_SWITCHES)) },
	{ "cs", NODB, NULL, ONE(SW(CONTEXT_SWITCHES)) },
	{ "cpu-migrations", NODB, NULL, ONE(SW(CPU_MIGRATIONS)) },
	{ "migrations", NODB, NULL, ONE(SW(CPU_MIGRATIONS)) },
	{ "alignment-faults", NODB, NULL, ONE(SW(ALIGNMENT_FAULTS)) },
	{ "emulation-faults", NODB, NULL, ONE(SW(EMULATION_FAULTS)) },
	{ "cpu-clock", HYBRID, NULL, ONE(SW(CPU_CLOCK)) },
	/* generic hardware events */
	{ "cycles", NODB, NULL, ONE(HW(CPU_CYCLES)) },
	{ "cpu-cycles", INTEL, NULL, ONE(HW(CPU_CYCLES)) },
	{ "instructions", INTEL, NULL, ONE(HW(INSTRUCTIONS)) },
	{ "cache-references", NODB, NULL, ONE(HW(CACHE_REFERENCES)) },
	{ "cache-misses", NODB, NULL, ONE(HW(CACHE_MISSES)) },
	{ "branches", NODB, NULL, ONE(HW(BRANCH_INSTRUCTIONS)) },
	{ "branch-instructions", NODB, NULL, ONE(HW(BRANCH_INSTRUCTIONS)) },
	{ "branch-misses", NODB, NULL, ONE(HW(BRANCH_MISSES)) },
	{ "bus-cycles", NODB, NULL, ONE(HW(BUS_CYCLES)) },
	{ "stalled-cycles-frontend", NODB, NULL, ONE(HW(STALLED_CYCLES_FRONTEND)) },
	{ "idle-cycles-frontend", NODB, NULL, ONE(HW(STALLED_CYCLES_FRONTEND)) },
	{ "stalled-cycles-backend", NODB, NULL, ONE(HW(STALLED_CYCLES_BACKEND)) },
	{ "ref-cycles", INTEL, NULL, ONE(HW(REF_CPU_CYCLES)) },
	/* hardware cache events, perf's names and aliases */
	{ "L1-dcache-loads", NODB, NULL, ONE(CACHE(L1D, READ, ACCESS)) },
	{ "L1-dcache-load-misses", INTEL, NULL, ONE(CACHE(L1D, READ, MISS)) },
	{ "L1-dcache-stores", NODB, NULL, ONE(CACHE(L1D, WRITE, ACCESS)) },
	{ "L1-dcache-store-misses", NODB, NULL, ONE(CACHE(L1D, WRITE, MISS)) },
	{ "L1-dcache-prefetch-misses", NODB, NULL, ONE(CACHE(L1D, PREFETCH, MISS)) },
	{ "L1-icache-load-misses", NODB, NULL, ONE(CACHE(L1I, READ, MISS)) },
	{ "LLC-loads", NODB, NULL, ONE(CACHE(LL, READ, ACCESS)) },
	{ "LLC-load-misses", NODB, NULL, ONE(CACHE(LL, READ, MISS)) },
	{ "LLC-prefetches", NODB, NULL, ONE(CACHE(LL, PREFETCH, ACCESS)) },
	{ "dTLB-load-misses", NODB, NULL, ONE(CACHE(DTLB, READ, MISS)) },
	{ "dTLB-stores", NODB, NULL, ONE(CACHE(DTLB, WRITE, ACCESS)) },
	{ "iTLB-load-misses", NODB, NULL, ONE(CACHE(ITLB, READ, MISS)) },
	{ "branch-loads", NODB, NULL, ONE(CACHE(BPU, READ, ACCESS)) },
	{ "branch-load-misses", NODB, NULL, ONE(CACHE(BPU, READ, MISS)) },
	{ "node-loads", NODB, NULL, ONE(CACHE(NODE, READ, ACCESS)) },
	{ "node-store-misses", NODB, NULL, ONE(CACHE(NODE, WRITE, MISS)) },
	{ "l1d-loads", NODB, NULL, ONE(CACHE(L1D, READ, ACCESS)) },
	{ "L1-data-read-miss", NODB, NULL, ONE(CACHE(L1D, READ, MISS)) },
	{ "L2-speculative-read-misses", NODB, NULL, ONE(CACHE(LL, PREFETCH, MISS)) },
	{ "LLC", NODB, NULL, ONE(CACHE(LL, READ, ACCESS)) },
	{ "L1-dcache-misses", NODB, NULL, ONE(CACHE(L1D, READ, MISS)) },
	{ "dtlb-loads", NODB, NULL, ONE(CACHE(DTLB, READ, ACCESS)) },
	{ "Data-TLB-stores-miss", NODB, NULL, ONE(CACHE(DTLB, WRITE, MISS)) },
	/* raw events: the core PMU's type (4 is PERF_TYPE_RAW on x86) */
	{ "r003c", INTEL, NULL, ONE(.type = 4, .config = 0x3c) },
	{ "r1a2b", NODB, NULL, ONE(.type = PERF_TYPE_RAW, .config = 0x1a2b) },
	{ "r01b7:u", INTEL, NULL, ONE(.type = 4, .config = 0x1b7, USER) },
	{ "rffffffffffffffff", NODB, NULL, ONE(.type = PERF_TYPE_RAW, .config = ~0ULL) },
	/* modifiers */
	{ "cycles:u", NODB, NULL, ONE(HW(CPU_CYCLES), USER) },
	{ "cycles:k", NODB, NULL, ONE(HW(CPU_CYCLES), KERNEL) },
	{ "instructions:uk", NODB, NULL, ONE(HW(INSTRUCTIONS), .exclude_hv = 1) },
	{ "cycles:p", NODB, NULL, ONE(HW(CPU_CYCLES), .precise_ip = 1) },
	{ "cycles:pp", NODB, NULL, ONE(HW(CPU_CYCLES), .precise_ip = 2) },
	{ "cycles:ppp", NODB, NULL, ONE(HW(CPU_CYCLES), .precise_ip = 3) },
	{ "cycles:upp", NODB, NULL, ONE(HW(CPU_CYCLES), USER, .precise_ip = 2) },
	{ "cpu-clock:k", NODB, NULL, ONE(SW(CPU_CLOCK), KERNEL) },
	{ "LLC-load-misses:u", NODB, NULL, ONE(CACHE(LL, READ, MISS), USER) },
	/* terms every event takes */
	{ "cycles/period=1000/", NODB, NULL, ONE(HW(CPU_CYCLES), .sample_period = 1000) },
	{ "cpu-clock/freq=200,name=clk/", NODB, "clk",
	  ONE(SW(CPU_CLOCK), .freq = 1, .sample_freq = 200) },
	{ "L1-dcache-load-misses/period=10/:u", NODB, NULL,
	  ONE(CACHE(L1D, READ, MISS), .sample_period = 10, USER) },
	/* PMU/TERMS/, format bits from the fixture's format files */
	{ "cpu/event=0x3c/", INTEL, NULL, ONE(.type = 4, .config = 0x3c) },
	{ "cpu/event=0xc0,umask=0x1,cmask=2,inv/", INTEL, NULL,
	  ONE(.type = 4, .config = 0xc0 | 0x1 << 8 | 2 << 24 | 1 << 23) },
	{ "cpu/event=0x3c,edge,any,in_tx/", INTEL, NULL,
	  ONE(.type = 4, .config = 0x3c | 1 << 18 | 1 << 21 | 1ULL << 32) },
	{ "cpu/mem-loads/", INTEL, NULL, ONE(.type = 4, .config = 0x1cd, .config1 = 3) },
	{ "cpu/mem-loads,ldlat=64/", INTEL, NULL,
	  ONE(.type = 4, .config = 0x1cd, .config1 = 64) },
	{ "cpu/config=0x1234,config1=5,config2=6/", INTEL, NULL,
	  ONE(.type = 4, .config = 0x1234, .config1 = 5, .config2 = 6) },
	{ "cpu/event=0x3c,period=100000/", INTEL, NULL,
	  ONE(.type = 4, .config = 0x3c, .sample_period = 100000) },
	{ "cpu/event=0x3c,freq=1000/", INTEL, NULL,
	  ONE(.type = 4, .config = 0x3c, .freq = 1, .sample_freq = 1000) },
	{ "cpu/event=0x3c,name=mycyc/:u", INTEL, "mycyc", ONE(.type = 4, .config = 0x3c, USER) },
	{ "cpu/cpu-cycles/k", INTEL, NULL, ONE(.type = 4, .config = 0x3c, KERNEL) },
	{ "cpu/mem-stores/pp", INTEL, NULL, ONE(.type = 4, .config = 0x82d0, .precise_ip = 2) },
	{ "mem-loads", INTEL, NULL, ONE(.type = 4, .config = 0x1cd, .config1 = 3) },
	{ "power/energy-pkg/", INTEL, NULL, ONE(.type = 22, .config = 2) },
	{ "energy-ram", INTEL, NULL, ONE(.type = 22, .config = 3) },
	{ "msr/tsc/", INTEL, NULL, ONE(.type = 9, .config = 0) },
	{ "msr/event=0xffffffffffffffff/", INTEL, NULL, ONE(.type = 9, .config = ~0ULL) },
	/* split bit ranges: event is config:0-7,32-35,59-60, filter config1:1,6-10,44 */
	{ "amd_df/event=0x1ff,umask=0xf1/", INTEL, NULL,
	  ONE(.type = 12, .config = 0xff | 0xf100 | 1ULL << 32) },
	{ "amd_df/event=0x3fff/", INTEL, NULL,
	  ONE(.type = 12, .config = 0xff | 0xfULL << 32 | 3ULL << 59) },
	{ "amd_df/filter=0x7f/", INTEL, NULL,
	  ONE(.type = 12, .config1 = 1 << 1 | 0x1f << 6 | 1ULL << 44) },
	{ "amd_df/filter=0x41/", INTEL, NULL, ONE(.type = 12, .config1 = 1 << 1 | 1ULL << 44) },
	{ "amd_df/dram_channel_data_controller_0/", INTEL, NULL,
	  ONE(.type = 12, .config = 0x07 | 1ULL << 32 | 0x38 << 8) },
	/* a "?" parameter given by the user: chip is config2:0-15 */
	{ "hv_24x7/PM_PB_CYC,chip=1/", INTEL, NULL,
	  ONE(.type = 30, .config = 0x1 | 0x118ULL << 32, .config2 = 1) },
	{ "hv_24x7/chip=3,PM_PB_CYC/", INTEL, NULL,
	  ONE(.type = 30, .config = 0x1 | 0x118ULL << 32, .config2 = 3) },
	/* breakpoints: perf's defaults (rw, 4 bytes; x: a long), period 1 */
	{ "mem:0x1000", NODB, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x1000,
	      .bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W, .bp_len = 4,
	      .sample_period = 1) },
	{ "mem:0x1000/8:w", NODB, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x1000, .bp_type = HW_BREAKPOINT_W,
	      .bp_len = 8, .sample_period = 1) },
	{ "mem:0x401000:x", INTEL, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x401000, .bp_type = HW_BREAKPOINT_X,
	      .bp_len = sizeof(long), .sample_period = 1) },
	{ "mem:4096/1:r:u", NODB, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 4096, .bp_type = HW_BREAKPOINT_R,
	      .bp_len = 1, .sample_period = 1, USER) },
	{ "mem:0x2000/2:rw", NODB, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x2000,
	      .bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W, .bp_len = 2,
	      .sample_period = 1) },
	{ "mem:0x3000:k", NODB, NULL,
	  ONE(.type = PERF_TYPE_BREAKPOINT, .bp_addr = 0x3000,
	      .bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W, .bp_len = 4,
	      .sample_period = 1, KERNEL) },
	/* hybrid: one attr per core PMU (cpu_atom 10, cpu_core 4) */
	{ "cycles", HYBRID, NULL, TWO((HW(CPU_CYCLES) | ATOM), (HW(CPU_CYCLES) | CORE)) },
	{ "instructions:u", HYBRID, NULL,
	  TWO((HW(INSTRUCTIONS) | ATOM, USER), (HW(INSTRUCTIONS) | CORE, USER)) },
	{ "L1-dcache-load-misses", HYBRID, NULL,
	  TWO((CACHE(L1D, READ, MISS) | ATOM), (CACHE(L1D, READ, MISS) | CORE)) },
	{ "r003c", HYBRID, NULL, TWO((.type = 10, .config = 0x3c), (.type = 4, .config = 0x3c)) },
	{ "cpu_core/event=0x3c,umask=1/", HYBRID, NULL, ONE(.type = 4, .config = 0x13c) },
	{ "cpu_atom/cpu-cycles/", HYBRID, NULL, ONE(.type = 10, .config = 0x3c) },
	{ "cpu_core/mem-loads/", HYBRID, NULL, ONE(.type = 4, .config = 0x1cd, .config1 = 3) },
	{ "topdown-retiring", HYBRID, NULL,
	  TWO((.type = 10, .config = 0x2c2), (.type = 4, .config = 0x8000)) },
};

static const struct pmu_db *db_of(int which)
{
	return which == NODB ? NULL : &dbs[which];
}

/* Every field of every attr, the name and the period flag of each row. */
static void test_rows(void)
{
	char why[512];
	size_t i, j;

	CHECK(ARRAY_SIZE(rows) >= 60, "rows: %zu event strings", ARRAY_SIZE(rows));
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct evspec_list l = { 0 };
		const struct evspec_event *ev;
		int err;

		why[0] = '\0';
		err = evspec__parse(r->spec, db_of(r->db), &l, why, sizeof(why));
		CHECK(!err && l.nr == 1, "parse '%s' (db %d): %s", r->spec, r->db, why);
		if (err || l.nr != 1) {
			evspec__free(&l);
			continue;
		}
		ev = &l.events[0];
		CHECK(ev->nr_attrs == r->nr, "'%s': %zu attrs, want %zu", r->spec, ev->nr_attrs,
		      r->nr);
		for (j = 0; j < r->nr && j < ev->nr_attrs; j++) {
			const struct perf_event_attr *g = &ev->attrs[j], *w = &r->want[j];

			CHECK(!memcmp(g, w, sizeof(*g)), "'%s' attr %zu: every field", r->spec, j);
			if (memcmp(g, w, sizeof(*g)))
				printf("#   got type %u config %#llx config1 %#llx config2 %#llx "
				       "period %llu freq %u exclude u%u k%u h%u precise %u "
				       "bp %#llx/%llu/%u size %u\n"
				       "#  want type %u config %#llx config1 %#llx config2 %#llx "
				       "period %llu freq %u exclude u%u k%u h%u precise %u "
				       "bp %#llx/%llu/%u size %u\n",
				       g->type, g->config, g->config1, g->config2, g->sample_period,
				       g->freq, g->exclude_user, g->exclude_kernel, g->exclude_hv,
				       g->precise_ip, g->bp_addr, g->bp_len, g->bp_type, g->size,
				       w->type, w->config, w->config1, w->config2, w->sample_period,
				       w->freq, w->exclude_user, w->exclude_kernel, w->exclude_hv,
				       w->precise_ip, w->bp_addr, w->bp_len, w->bp_type, w->size);
		}
		CHECK_STR(ev->name, r->name ? r->name : r->spec, "'%s': its name", r->spec);
		CHECK(ev->period_set == (strstr(r->spec, "period=") || strstr(r->spec, "freq=")),
		      "'%s': period_set", r->spec);
		evspec__free(&l);
	}
}

/* A named event's .scale and .unit. */
static void test_scale_unit(void)
{
	struct evspec_list l = { 0 };
	char why[256];

	CHECK(!evspec__parse("power/energy-pkg/,cpu/topdown-retiring/,cycles", &dbs[INTEL],
			     &l, why, sizeof(why)) && l.nr == 3,
	      "scale: three events parse");
	if (l.nr == 3) {
		CHECK(l.events[0].scale == 2.3283064365386962890625e-10,
		      "scale: energy-pkg %g", l.events[0].scale);
		CHECK_STR(l.events[0].unit, "Joules", "unit: energy-pkg");
		CHECK(l.events[1].scale == 5, "scale: topdown-retiring %g", l.events[1].scale);
		CHECK_STR(l.events[1].unit, "slots", "unit: topdown-retiring");
		CHECK(l.events[2].scale == 1 && !l.events[2].unit, "scale: cycles has none");
	}
	evspec__free(&l);
}

/* Comma lists: commas inside /TERMS/ are terms; -e appends. */
static void test_lists(void)
{
	struct evspec_list l = { 0 };
	char why[256];

	CHECK(!evspec__parse("cpu/event=0x3c,umask=1/u,cycles,mem:0x10/2", &dbs[INTEL], &l,
			     why, sizeof(why)) && l.nr == 3,
	      "list: three events (%s)", why);
	if (l.nr == 3) {
		CHECK_STR(l.events[0].name, "cpu/event=0x3c,umask=1/u", "list: first");
		CHECK(l.events[0].attrs[0].config == 0x13c && l.events[0].attrs[0].exclude_kernel,
		      "list: first's terms and modifier");
		CHECK_STR(l.events[1].name, "cycles", "list: second");
		CHECK(l.events[2].attrs[0].bp_len == 2, "list: mem: with a length third");
	}
	CHECK(!evspec__parse("cs", NULL, &l, why, sizeof(why)) && l.nr == 4,
	      "list: a second parse appends");
	CHECK(evspec__parse("faults,bogus", NULL, &l, why, sizeof(why)) == -EINVAL &&
		      l.nr == 4,
	      "list: a list with a bad event adds nothing");
	evspec__free(&l);
	CHECK(l.nr == 0 && !l.events, "list: freed");
	evspec__free(NULL);
}

struct bad {
	const char *spec;
	int db;
	const char *why; /* a part of the error */
};

static const struct bad bads[] = {
	{ "", NODB, "empty event" },
	{ "cylces", NODB, "unknown event 'cylces' (did you mean: cycles" },
	{ "instructons", INTEL, "did you mean: instructions" },
	{ "L1-dcache-lod-misses", NODB, "did you mean: L1-dcache-load-misses" },
	{ "mem-lods", INTEL, "did you mean: mem-loads" },
	{ "foo", NODB, "unknown event 'foo': expected an event name" },
	{ "CPU-CLOCK", NODB, "unknown event 'CPU-CLOCK'" },
	{ " cpu-clock", NODB, "unknown event ' cpu-clock'" },
	{ "cycles:x", NODB, "unknown modifier 'x' in ':x'" },
	{ "cycles:pppp", NODB, "precise level 4 (expected at most ppp)" },
	{ "cpu/event=0x3c", INTEL, "no closing '/'" },
	{ "cpu/evnt=0x3c/", INTEL,
	  "unknown term 'evnt' of PMU 'cpu' (valid terms: any, cmask, edge, event, "
	  "frontend, in_tx, in_tx_cp, inv, ldlat, pc, umask, config, config1, config2, "
	  "period, freq, name)" },
	{ "cpu/event=0x1ff/", INTEL, "value 0x1ff of term 'event' does not fit in its 8 bits" },
	{ "cpu/event=zz/", INTEL, "invalid value 'zz' of term 'event'" },
	{ "cpu/event=1,,umask=1/", INTEL, "empty term" },
	{ "cpx/event=1/", INTEL, "unknown PMU 'cpx' (did you mean: cpu" },
	{ "cpu/event=1/", NODB, "unknown PMU 'cpu'" },
	{ "hv_24x7/PM_PB_CYC/", INTEL, "needs chip=VALUE (its events file says chip=?)" },
	{ "mem:zz", NODB, "invalid address 'zz'" },
	{ "mem:0x1000/3", NODB, "invalid length '3': expected 1, 2, 4 or 8" },
	{ "mem:0x1000:rx", NODB, "invalid access 'rx'" },
	{ "mem:0x1000:rr", NODB, "gives 'r' twice" },
	{ "mem:0x1000:q", NODB, "unknown modifier 'q'" },
	{ "cycles/period=0/", NODB, "invalid period '0'" },
	{ "cycles/freq=x/", NODB, "invalid freq 'x'" },
	{ "cycles/umask=1/", NODB, "unknown term 'umask' (valid terms: period, freq, name)" },
	{ "cpu/event=1,period=10,freq=10/", INTEL, "cannot be used together" },
	{ "cycles,,instructions", NODB, "empty event in 'cycles,,instructions'" },
	{ "cycles,", NODB, "empty event" },
	{ "broken/event=1/", INTEL,
	  "PMU 'broken' cannot be used: format/event: 'config:x' is not FIELD:BITS" },
	{ "cpu/name=/", INTEL, "name= needs a name" },
	{ "r12345678901234567", NODB, "unknown event 'r12345678901234567'" },
	{ "/event=1/", INTEL, "no event name" },
	{ "rxyz", NODB, "unknown event 'rxyz'" },
	{ "L1-dcache-load-misses-misses", NODB, "unknown event" },
	{ "cpu_core/event=1/", INTEL, "unknown PMU 'cpu_core'" },
	{ "foo\tbar", NODB, "unknown event 'foo\tbar'" }, /* as given: its printer escapes */
};

/* Every malformed string gets its error, and the list stays as it was. */
static void test_bad(void)
{
	char why[512];

	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		struct evspec_list l = { 0 };
		int err;

		why[0] = '\0';
		err = evspec__parse(bads[i].spec, db_of(bads[i].db), &l, why, sizeof(why));
		CHECK(err == -EINVAL && l.nr == 0 && strstr(why, bads[i].why) &&
			      !strchr(why, '\n'),
		      "bad '%s': %s", bads[i].spec, why);
		if (!strstr(why, bads[i].why))
			printf("#   want '%s'\n", bads[i].why);
		evspec__free(&l);
	}
	CHECK(evspec__parse(NULL, NULL, &(struct evspec_list){ 0 }, why, sizeof(why)) == -EINVAL,
	      "bad: NULL");
}

static void test_names(void)
{
	CHECK_STR(evspec__name(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS), "page-faults",
		  "name: page-faults");
	CHECK_STR(evspec__name(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
		  "branches", "name: branches, not its alias");
	CHECK(evspec__name(PERF_TYPE_SOFTWARE, 999) == NULL, "name: unknown config");
	CHECK(evspec__name(PERF_TYPE_TRACEPOINT, 0) == NULL, "name: unknown type");
	CHECK(evspec__name(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY) == NULL,
	      "name: dummy has no name");
}

static void test_is_hardware(void)
{
	struct perf_event_attr a = { 0 };

	a.type = PERF_TYPE_HARDWARE;
	CHECK(evspec__is_hardware(&a), "is_hardware: generic events");
	a.type = PERF_TYPE_HW_CACHE;
	CHECK(evspec__is_hardware(&a), "is_hardware: cache events");
	a.type = PERF_TYPE_RAW;
	CHECK(evspec__is_hardware(&a), "is_hardware: raw events");
	a.type = PERF_TYPE_SOFTWARE;
	CHECK(!evspec__is_hardware(&a), "is_hardware: not software");
	a.type = PERF_TYPE_BREAKPOINT;
	CHECK(!evspec__is_hardware(&a), "is_hardware: not breakpoints");
}

/* evspec__known lists each canonical generic name once, and each parses to it. */
static void test_known(void)
{
	char why[128];
	unsigned int i;
	const char *name;
	int ok = 1;

	CHECK_STR(evspec__known(0), "cpu-clock", "known: cpu-clock first");
	for (i = 0; (name = evspec__known(i)); i++) {
		struct evspec_list l = { 0 };

		if (evspec__parse(name, NULL, &l, why, sizeof(why)) ||
		    strcmp(evspec__name(l.events[0].attrs[0].type, l.events[0].attrs[0].config),
			   name))
			ok = 0;
		evspec__free(&l);
	}
	CHECK(ok, "known: every name parses and is canonical");
	CHECK(i == 19, "known: %u names, want 19", i);
	CHECK(evspec__known(~0U) == NULL, "known: NULL past end");
}

/* The other parser of evspec__parse_with: knows "VENDOR::EV" (and its ":bad" error). */
static int other_calls;

static int fake_other(const char *event, struct perf_event_attr *attr, char *why,
		      size_t size)
{
	other_calls++;
	if (strncmp(event, "VENDOR::EV", 10))
		return -ENOENT;
	if (event[10]) {
		snprintf(why, size, "vendor: bad part '%s'", event + 10);
		return -EINVAL;
	}
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_RAW;
	attr->config = 0xc0;
	return 0;
}

/* evspec__parse_with: the other parser only for what evspec rejects. */
static void test_other(void)
{
	struct evspec_list list = { 0 };
	char why[256];
	int err;

	other_calls = 0;
	err = evspec__parse_with("cpu-clock,VENDOR::EV", NULL, fake_other, &list, why,
				 sizeof(why));
	CHECK(!err && list.nr == 2, "a list mixing evspec's and the other parser's events");
	CHECK(other_calls == 1, "the other parser is asked only for what evspec rejects");
	CHECK(list.nr == 2 && list.events[1].nr_attrs == 1 &&
	      list.events[1].attrs[0].type == PERF_TYPE_RAW &&
	      list.events[1].attrs[0].config == 0xc0 &&
	      list.events[1].attrs[0].size == sizeof(struct perf_event_attr) &&
	      !list.events[1].period_set && list.events[1].scale == 1,
	      "its attr, sized, no period of its own");
	CHECK_STR(list.nr == 2 ? list.events[1].name : NULL, "VENDOR::EV",
		  "named as written");
	evspec__free(&list);

	err = evspec__parse_with("VENDOR::EV:x", NULL, fake_other, &list, why, sizeof(why));
	CHECK(err == -EINVAL && !list.nr, "the other parser's error fails the list");
	CHECK_STR(why, "event 'VENDOR::EV:x': vendor: bad part ':x'",
		  "its reason when evspec did not know the name");
	err = evspec__parse_with("cpu-clock:x", NULL, fake_other, &list, why, sizeof(why));
	CHECK(err == -EINVAL && strstr(why, "unknown modifier 'x'"),
	      "evspec's reason when evspec knew the name: %s", why);
	err = evspec__parse_with("cylces", NULL, fake_other, &list, why, sizeof(why));
	CHECK(err == -EINVAL && strstr(why, "unknown event 'cylces' (did you mean: cycles"),
	      "evspec's reason when neither knows the name: %s", why);
	err = evspec__parse_with("VENDOR::EV", NULL, NULL, &list, why, sizeof(why));
	CHECK(err == -EINVAL && !list.nr, "no other parser: evspec's error");
}

int main(void)
{
	const char *roots[] = { [INTEL] = getenv("FIXTURE_PMU_INTEL"),
				[HYBRID] = getenv("FIXTURE_PMU_HYBRID") };
	char why[256];

	for (int i = INTEL; i <= HYBRID; i++)
		CHECK(roots[i] && !pmudb__load(&dbs[i], roots[i], why, sizeof(why)),
		      "fixture %s loads", roots[i] ? roots[i] : "(unset)");
	test_rows();
	test_scale_unit();
	test_lists();
	test_bad();
	test_names();
	test_is_hardware();
	test_known();
	test_other();
	pmudb__free(&dbs[INTEL]);
	pmudb__free(&dbs[HYBRID]);
	return check_done();
}
