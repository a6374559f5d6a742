/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/kernel/pfmevents.c, the libpfm4 glue: a name it does
 * not know is -ENOENT (evspec's error stands), a known name with a bad part
 * is libpfm4's reason; with libpfm4 built in, its tables of perf's generic
 * events are neither listed nor taken (CPU-CLOCK stays unknown), and each
 * event it lists parses, or says why not. Without libpfm4: nothing, -ENOENT.
 */
#include <errno.h>
#include <stdio.h>
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

static int nr_parsed, nr_refused;

/* PMU::EVENT parses into an attr of a real PMU, or libpfm4 says why not. */
static int parse_each(const struct pfmevents_event *ev, void *ctx)
{
	struct perf_event_attr attr;
	char name[512], why[256] = "";
	int err;

	snprintf(name, sizeof(name), "%s::%s", ev->pmu, ev->name);
	err = pfmevents__parse(name, &attr, why, sizeof(why));
	if (!err && attr.size == sizeof(attr))
		nr_parsed++;
	else if (err == -EINVAL && !strncmp(why, "libpfm4: ", 9))
		nr_refused++;
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
	CHECK(err == -ENOENT, "libpfm4's table of perf's generic events is not taken (%d)", err);
	err = pfmevents__parse("CPU-CLOCK", &attr, why, sizeof(why));
	CHECK(err == -ENOENT, "nor its any-case spelling of cpu-clock (%d)", err);
	err = pfmevents__parse("perf::PAGE-FAULTS:nosuchmod", &attr, why, sizeof(why));
	CHECK(err == -EINVAL && !strncmp(why, "libpfm4: ", 9),
	      "a known name, a bad part: -EINVAL, libpfm4's reason (%s)", why);
	err = pfmevents__each(parse_each, NULL, why, sizeof(why));
	CHECK(!err && nr_parsed + nr_refused == nr_events,
	      "each event it lists parses as PMU::EVENT (%d) or says why not (%d)", nr_parsed,
	      nr_refused);
	CHECK(pfmevents__each(stop, NULL, why, sizeof(why)) == (nr_events ? -ECANCELED : 0),
	      "each stops at its callback's error");
	return check_done();
}
