/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Event names -> struct perf_event_attr. Each syntax is one parser in
 * evspec_parsers[]; today only the table of generic names. The PMU grammar
 * (pmu/term=val/), raw rNNNN, cache events and :u/:k/:p modifiers are
 * further parsers (and a modifier pass) behind evspec__parse.
 */
#include <errno.h>
#include <string.h>

#include "array.h"
#include "evspec.h"

struct evname {
	const char *name;
	__u32 type;
	__u64 config;
	bool alias; /* not the canonical name of type/config */
};

/* Canonical names first within each type/config pair, as perf spells them. */
static const struct evname evnames[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, true },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, true },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  true },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, true },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  true },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* A generic event name or alias from evnames[]. */
static int evspec__parse_name(const char *spec, struct perf_event_attr *attr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(evnames); i++) {
		if (strcmp(spec, evnames[i].name) == 0) {
			attr->type = evnames[i].type;
			attr->config = evnames[i].config;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * Every syntax an event may be written in, tried in order; each returns 0,
 * -EINVAL when @spec is not its syntax, or another -errno.
 */
static int (*const evspec_parsers[])(const char *spec, struct perf_event_attr *attr) = {
	evspec__parse_name,
};

int evspec__parse(const char *spec, struct perf_event_attr *attr)
{
	struct perf_event_attr tmp;
	size_t i;
	int err = -EINVAL;

	if (!spec || !*spec)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(evspec_parsers); i++) {
		tmp = *attr;
		err = evspec_parsers[i](spec, &tmp);
		if (err != -EINVAL)
			break;
	}
	if (!err)
		*attr = tmp;
	return err;
}

const char *evspec__name(__u32 type, __u64 config)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(evnames); i++)
		if (!evnames[i].alias && evnames[i].type == type &&
		    evnames[i].config == config)
			return evnames[i].name;
	return NULL;
}

bool evspec__is_hardware(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	       attr->type == PERF_TYPE_RAW;
}

const char *evspec__known(unsigned int i)
{
	size_t j;

	for (j = 0; j < ARRAY_SIZE(evnames); j++) {
		if (evnames[j].alias)
			continue;
		if (i-- == 0)
			return evnames[j].name;
	}
	return NULL;
}
