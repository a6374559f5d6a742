/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/kernel/evprobe.c's classification of open failures
 * (pure): the causes bpfprof list shows and a run's open error words.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "evprobe.h"

static struct perf_event_attr attr(__u32 type, __u64 config)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = type, .config = config };

	return a;
}

int main(void)
{
	struct perf_event_attr cycles = attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct perf_event_attr cache = attr(PERF_TYPE_HW_CACHE, 0);
	struct perf_event_attr raw = attr(PERF_TYPE_RAW, 0xc0);
	struct perf_event_attr clock = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr msr = attr(8, 0); /* a dynamic PMU's type */

	CHECK(evprobe__classify(&cycles, ENOENT, false) == EVPROBE_NO_PMU,
	      "cycles, ENOENT, no core PMU: no hardware PMU");
	CHECK(evprobe__classify(&cache, EOPNOTSUPP, false) == EVPROBE_NO_PMU,
	      "a cache event, EOPNOTSUPP, no core PMU: no hardware PMU");
	CHECK(evprobe__classify(&raw, ENODEV, false) == EVPROBE_NO_PMU,
	      "a raw event, ENODEV, no core PMU: no hardware PMU");
	CHECK(evprobe__classify(&cycles, ENOENT, true) == EVPROBE_PMU_LACKS,
	      "cycles, ENOENT, a core PMU: the PMU lacks it");
	CHECK(evprobe__classify(&raw, EINVAL, true) == EVPROBE_PMU_LACKS,
	      "a raw event, EINVAL, a core PMU: the PMU lacks it");
	CHECK(evprobe__classify(&msr, EINVAL, false) == EVPROBE_PMU_LACKS,
	      "a dynamic PMU's event, EINVAL: the PMU lacks it");
	CHECK(evprobe__classify(&cycles, EACCES, true) == EVPROBE_PERM &&
	      evprobe__classify(&clock, EPERM, false) == EVPROBE_PERM,
	      "EACCES, EPERM: permissions, whatever the event");
	CHECK(evprobe__classify(&clock, ENOENT, false) == EVPROBE_OTHER,
	      "a software event's ENOENT is no PMU's fault");
	CHECK(evprobe__classify(&cycles, EMFILE, false) == EVPROBE_OTHER,
	      "EMFILE: the errno itself");
	CHECK_STR(evprobe__text(EVPROBE_NO_PMU, ENOENT), "no hardware PMU", "NO_PMU's text");
	CHECK_STR(evprobe__text(EVPROBE_OTHER, EMFILE), strerror(EMFILE), "OTHER: strerror");
	CHECK(strstr(evprobe__text(EVPROBE_PERM, EACCES), "CAP_PERFMON") != NULL,
	      "PERM's text names the capability");
	return check_done();
}
