/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/kernel/evspec.c: event names and aliases -> perf_event_attr. */
#include <errno.h>
#include <string.h>

#include "array.h"
#include "check.h"
#include "evspec.h"

struct want {
	const char *name;
	__u32 type;
	__u64 config;
	const char *canonical;
};

#define SW(n, c, canon)                                         \
	{                                                       \
		n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, canon \
	}
#define HW(n, c, canon)                                         \
	{                                                       \
		n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, canon \
	}

static const struct want wants[] = {
	SW("cpu-clock", CPU_CLOCK, "cpu-clock"),
	SW("task-clock", TASK_CLOCK, "task-clock"),
	SW("page-faults", PAGE_FAULTS, "page-faults"),
	SW("faults", PAGE_FAULTS, "page-faults"),
	SW("context-switches", CONTEXT_SWITCHES, "context-switches"),
	SW("cs", CONTEXT_SWITCHES, "context-switches"),
	SW("cpu-migrations", CPU_MIGRATIONS, "cpu-migrations"),
	SW("migrations", CPU_MIGRATIONS, "cpu-migrations"),
	SW("minor-faults", PAGE_FAULTS_MIN, "minor-faults"),
	SW("major-faults", PAGE_FAULTS_MAJ, "major-faults"),
	SW("alignment-faults", ALIGNMENT_FAULTS, "alignment-faults"),
	SW("emulation-faults", EMULATION_FAULTS, "emulation-faults"),
	HW("cycles", CPU_CYCLES, "cycles"),
	HW("cpu-cycles", CPU_CYCLES, "cycles"),
	HW("instructions", INSTRUCTIONS, "instructions"),
	HW("cache-references", CACHE_REFERENCES, "cache-references"),
	HW("cache-misses", CACHE_MISSES, "cache-misses"),
	HW("branches", BRANCH_INSTRUCTIONS, "branches"),
	HW("branch-instructions", BRANCH_INSTRUCTIONS, "branches"),
	HW("branch-misses", BRANCH_MISSES, "branch-misses"),
	HW("bus-cycles", BUS_CYCLES, "bus-cycles"),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend"),
	HW("idle-cycles-frontend", STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend"),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND, "stalled-cycles-backend"),
	HW("idle-cycles-backend", STALLED_CYCLES_BACKEND, "stalled-cycles-backend"),
	HW("ref-cycles", REF_CPU_CYCLES, "ref-cycles"),
};

/* Numeric values as the kernel ABI fixes them. */
static void test_abi_values(void)
{
	struct perf_event_attr a = { 0 };

	CHECK(evspec__parse("cpu-clock", &a) == 0 && a.type == 1 && a.config == 0,
	      "abi: cpu-clock is software 0");
	CHECK(evspec__parse("emulation-faults", &a) == 0 && a.type == 1 && a.config == 8,
	      "abi: emulation-faults is software 8");
	CHECK(evspec__parse("cycles", &a) == 0 && a.type == 0 && a.config == 0,
	      "abi: cycles is hardware 0");
	CHECK(evspec__parse("ref-cycles", &a) == 0 && a.type == 0 && a.config == 9,
	      "abi: ref-cycles is hardware 9");
}

static void test_names(void)
{
	struct perf_event_attr a;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wants); i++) {
		const struct want *w = &wants[i];

		memset(&a, 0xff, sizeof(a));
		CHECK(evspec__parse(w->name, &a) == 0 && a.type == w->type &&
			      a.config == w->config,
		      "parse: %s", w->name);
		CHECK(a.sample_period == ~0ULL && a.size == ~0U,
		      "parse: %s leaves other fields alone", w->name);
		CHECK_STR(evspec__name(w->type, w->config), w->canonical,
			  "name: %s -> %s", w->name, w->canonical);
		a.type = w->type;
		CHECK(evspec__is_hardware(&a) == (w->type == PERF_TYPE_HARDWARE),
		      "is_hardware: %s", w->name);
	}
}

static void test_unknown(void)
{
	static const char *const bad[] = {
		"",
		"foo",
		"CPU-CLOCK",
		"cpu-clock ",
		" cpu-clock",
		"cpu-clock:u",
		"cycles:k",
		"r003c",
		"cpu/cycles/",
		"L1-dcache-load-misses",
		"clock",
	};
	struct perf_event_attr a = { .type = 42, .config = 43 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(evspec__parse(bad[i], &a) == -EINVAL, "unknown: '%s'", bad[i]);
	CHECK(evspec__parse(NULL, &a) == -EINVAL, "unknown: NULL");
	CHECK(a.type == 42 && a.config == 43, "unknown: attr untouched");
	CHECK(evspec__name(PERF_TYPE_SOFTWARE, 999) == NULL, "name: unknown config");
	CHECK(evspec__name(PERF_TYPE_TRACEPOINT, 0) == NULL, "name: unknown type");
	CHECK(evspec__name(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY) == NULL,
	      "name: dummy has no name");
}

static void test_is_hardware(void)
{
	struct perf_event_attr a = { 0 };

	a.type = PERF_TYPE_HW_CACHE;
	CHECK(evspec__is_hardware(&a), "is_hardware: cache events");
	a.type = PERF_TYPE_RAW;
	CHECK(evspec__is_hardware(&a), "is_hardware: raw events");
	a.type = PERF_TYPE_BREAKPOINT;
	CHECK(!evspec__is_hardware(&a), "is_hardware: not breakpoints");
	a.type = PERF_TYPE_TRACEPOINT;
	CHECK(!evspec__is_hardware(&a), "is_hardware: not tracepoints");
}

/* evspec__known lists each canonical name once, and only those. */
static void test_known(void)
{
	struct perf_event_attr a;
	unsigned int i, canonical = 0;
	const char *name;
	size_t j;
	int ok = 1;

	for (j = 0; j < ARRAY_SIZE(wants); j++)
		canonical += strcmp(wants[j].name, wants[j].canonical) == 0;
	CHECK_STR(evspec__known(0), "cpu-clock", "known: cpu-clock first");
	for (i = 0; (name = evspec__known(i)); i++) {
		if (evspec__parse(name, &a) ||
		    strcmp(evspec__name(a.type, a.config), name))
			ok = 0;
	}
	CHECK(ok, "known: every name parses and is canonical");
	CHECK(i == canonical, "known: %u names, want %u", i, canonical);
	CHECK(evspec__known(i) == NULL && evspec__known(~0U) == NULL,
	      "known: NULL past end");
}

int main(void)
{
	test_abi_values();
	test_names();
	test_unknown();
	test_is_hardware();
	test_known();
	return check_done();
}
