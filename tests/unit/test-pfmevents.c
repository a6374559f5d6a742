/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/kernel/pfmevents.c, the libpfm4 glue: a name it does
 * not know is -ENOENT (evspec's error stands), a known name with a bad part
 * is libpfm4's reason; with libpfm4 built in, its spelling of perf's
 * software events gives their attr (the one table every machine has), and
 * its generic tables are not listed. Without libpfm4: nothing, -ENOENT.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "pfmevents.h"

static int nr_events, nr_generic, nr_nameless;

static int count(const struct pfmevents_event *ev, void *ctx)
{
	nr_events++;
	nr_generic += !strcmp(ev->pmu, "perf") || !strcmp(ev->pmu, "perf_raw");
	nr_nameless += !ev->name || !*ev->name;
	return 0;
}

static int stop(const struct pfmevents_event *ev, void *ctx)
{
	return -ECANCELED;
}

int main(void)
{
	struct perf_event_attr attr;
	char why[256] = "";
	int err;

	err = pfmevents__parse("no-such-event-anywhere", &attr, why, sizeof(why));
	CHECK(err == -ENOENT, "an unknown name: -ENOENT (%d)", err);
	err = pfmevents__each(count, NULL, why, sizeof(why));
	CHECK(!err && !nr_generic && !nr_nameless,
	      "each: %d events, none of libpfm4's generic tables, each named", nr_events);
	if (!pfmevents__enabled()) {
		CHECK(!nr_events, "without libpfm4: no events");
		err = pfmevents__parse("PERF_COUNT_SW_CPU_CLOCK", &attr, why, sizeof(why));
		CHECK(err == -ENOENT, "without libpfm4: no spelling of its own");
		return check_done();
	}
	err = pfmevents__parse("perf::PERF_COUNT_SW_PAGE_FAULTS", &attr, why, sizeof(why));
	CHECK(!err && attr.type == PERF_TYPE_SOFTWARE &&
	      attr.config == PERF_COUNT_SW_PAGE_FAULTS && attr.size == sizeof(attr) &&
	      !attr.exclude_user && !attr.exclude_kernel,
	      "perf::PERF_COUNT_SW_PAGE_FAULTS: page-faults, user and kernel");
	err = pfmevents__parse("PERF_COUNT_SW_TASK_CLOCK:u", &attr, why, sizeof(why));
	CHECK(!err && attr.type == PERF_TYPE_SOFTWARE &&
	      attr.config == PERF_COUNT_SW_TASK_CLOCK && attr.exclude_kernel &&
	      !attr.exclude_user, "PERF_COUNT_SW_TASK_CLOCK:u: task-clock, user only");
	err = pfmevents__parse("perf::PAGE-FAULTS:nosuchmod", &attr, why, sizeof(why));
	CHECK(err == -EINVAL && !strncmp(why, "libpfm4: ", 9),
	      "a known name, a bad part: -EINVAL, libpfm4's reason (%s)", why);
	CHECK(pfmevents__each(stop, NULL, why, sizeof(why)) == (nr_events ? -ECANCELED : 0),
	      "each stops at its callback's error");
	return check_done();
}
