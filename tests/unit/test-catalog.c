/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/list/catalog.c without probes: the events gathered from
 * the fixture PMUs of tests/fixtures/pmu-intel (another machine's: not
 * here), their kinds and order, patterns and the filter.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "check.h"

static const struct catalog_event *find(const struct catalog *cat, const char *name)
{
	for (size_t i = 0; i < cat->nr; i++)
		if (!strcmp(cat->events[i].name, name))
			return &cat->events[i];
	return NULL;
}

static size_t index_of(const struct catalog *cat, const char *name)
{
	const struct catalog_event *ev = find(cat, name);

	return ev ? (size_t)(ev - cat->events) : cat->nr;
}

static void test_load(const struct catalog *cat)
{
	const struct catalog_event *ev;

	ev = find(cat, "cpu-clock");
	CHECK(ev && ev->kind == CATALOG_SOFTWARE && ev->nr_attrs == 1 && !ev->core &&
	      ev->attrs[0].type == PERF_TYPE_SOFTWARE && ev->desc && !ev->pmu,
	      "cpu-clock: software, its attr, a description");
	ev = find(cat, "cycles");
	CHECK(ev && ev->kind == CATALOG_HARDWARE && ev->core && ev->nr_attrs == 1 &&
	      ev->attrs[0].type == PERF_TYPE_HARDWARE, "cycles: hardware, needs a core PMU");
	CHECK(!find(cat, "cs") && !find(cat, "cpu-cycles"), "aliases are not listed");
	ev = find(cat, "LLC-load-misses");
	CHECK(ev && ev->kind == CATALOG_CACHE && ev->core &&
	      ev->attrs[0].type == PERF_TYPE_HW_CACHE, "LLC-load-misses: a cache event");
	ev = find(cat, "rNNNN");
	CHECK(ev && ev->kind == CATALOG_RAW && ev->core && !ev->nr_attrs, "the raw syntax");
	ev = find(cat, "cpu/mem-loads/");
	CHECK(ev && ev->kind == CATALOG_PMU && ev->pmu && !strcmp(ev->pmu, "cpu") &&
	      ev->core && ev->state == CATALOG_NOT_HERE &&
	      !strcmp(ev->why, "not on this machine") &&
	      !strcmp(ev->desc, "event=0xcd,umask=0x1,ldlat=3"),
	      "cpu/mem-loads/: the core PMU's named event, its terms, not here");
	ev = find(cat, "power/energy-pkg/");
	CHECK(ev && !ev->core && !strcmp(ev->desc, "event=0x02 (in Joules)"),
	      "power/energy-pkg/: its unit");
	ev = find(cat, "broken");
	CHECK(ev && ev->kind == CATALOG_PMU && ev->state == CATALOG_UNUSABLE &&
	      !strcmp(ev->why, "its sysfs files do not parse") &&
	      !strncmp(ev->desc, "format/event:", 13), "a PMU that does not parse, with why");
	ev = find(cat, "mem:ADDR[/LEN][:rwx]");
	CHECK(ev && ev->kind == CATALOG_BREAKPOINT && ev->nr_attrs == 1 &&
	      ev->attrs[0].type == PERF_TYPE_BREAKPOINT, "the breakpoint, with a probe's attr");
	CHECK(index_of(cat, "emulation-faults") < index_of(cat, "cycles") &&
	      index_of(cat, "ref-cycles") < index_of(cat, "L1-dcache-loads") &&
	      index_of(cat, "node-prefetch-misses") < index_of(cat, "rNNNN") &&
	      index_of(cat, "rNNNN") < index_of(cat, "amd_df/dram_channel_data_controller_0/") &&
	      index_of(cat, "power/energy-ram/") < index_of(cat, "mem:ADDR[/LEN][:rwx]") &&
	      index_of(cat, "mem:ADDR[/LEN][:rwx]") == cat->nr - 1,
	      "groups: software, hardware, cache, raw, PMUs by name, breakpoint last");
}

static void test_matches(const struct catalog *cat)
{
	const struct catalog_event *clock = find(cat, "cpu-clock"), *msr = find(cat, "msr/tsc/");

	CHECK(clock && msr, "the events to match");
	if (!clock || !msr)
		return;
	CHECK(catalog__matches(clock, "cpu-*") && catalog__matches(clock, "CPU-C*") &&
	      !catalog__matches(clock, "cpu-?") && !catalog__matches(clock, "*-task"),
	      "a glob matches the whole name, case ignored");
	CHECK(catalog__matches(clock, "CLOCK") && catalog__matches(clock, "software") &&
	      !catalog__matches(clock, "soft") && !catalog__matches(clock, "hardware"),
	      "text: a part of the name, or the whole kind");
	CHECK(catalog__matches(msr, "msr") && catalog__matches(msr, "pmu") &&
	      catalog__matches(msr, "msr/*") && !catalog__matches(msr, "ms?"),
	      "a PMU's event by its PMU, kind, or a glob");
}

static void test_filter(struct catalog *cat)
{
	char *patterns[] = { "cpu-*", "software" };
	const struct catalog_event *ev;

	cat->events[0].state = CATALOG_AVAILABLE; /* cpu-clock, as a probe would say */
	catalog__filter(cat, patterns, 2, false);
	CHECK(find(cat, "cpu-clock") && find(cat, "page-faults") && !find(cat, "cycles") &&
	      !find(cat, "msr/tsc/"), "two patterns: either matches");
	catalog__filter(cat, NULL, 0, true);
	ev = cat->nr == 1 ? &cat->events[0] : NULL;
	CHECK(ev && !strcmp(ev->name, "cpu-clock"), "--available: what opens (%zu)", cat->nr);
}

int main(void)
{
	const char *root = getenv("FIXTURE_PMU_INTEL");
	struct catalog cat;
	char why[256];

	CHECK(root && !catalog__load(&cat, root, why, sizeof(why)), "the catalog loads");
	if (!root)
		return check_done();
	test_load(&cat);
	test_matches(&cat);
	test_filter(&cat);
	catalog__free(&cat);
	CHECK(catalog__load(&cat, "/proc/self/status", why, sizeof(why)) &&
	      strstr(why, "/proc/self/status"), "a root that is no directory: why (%s)", why);
	return check_done();
}
