// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Whether an event opens here, and why not (evprobe.h). A probe opens the
 * event disabled and closes it at once: it never counts anything.
 * evprobe__try opens it counting, then sampling, system-wide on one CPU;
 * one not permitted system-wide is tried on this process alone, user space
 * only, to tell permissions from a missing event. evprobe__classify sorts
 * the errno for list and for the capture core's session__event_error.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "events.h"
#include "evprobe.h"
#include "evspec.h"

/* The PMU directories whose presence means a core PMU. */
static const char *const evprobe_core[] = {
	"/sys/bus/event_source/devices/cpu",
	"/sys/bus/event_source/devices/cpu_core",
};

enum evprobe_why evprobe__classify(const struct perf_event_attr *attr, int err,
				   bool core_pmu)
{
	bool hardware = evspec__is_hardware(attr);

	if (err == EACCES || err == EPERM)
		return EVPROBE_PERM;
	if (hardware && (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) && !core_pmu)
		return EVPROBE_NO_PMU;
	if ((hardware || attr->type >= PERF_TYPE_MAX) &&
	    (err == ENOENT || err == EOPNOTSUPP || err == EINVAL))
		return EVPROBE_PMU_LACKS;
	return EVPROBE_OTHER;
}

bool evprobe__core_pmu(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(evprobe_core); i++)
		if (access(evprobe_core[i], F_OK) == 0)
			return true;
	return false;
}

/* Open @a on @pid/@cpu and close it: 0 or -errno. */
static int evprobe__open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = events__open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

enum evprobe_why evprobe__try(const struct perf_event_attr *attr, int cpu, bool core_pmu,
			      int *err)
{
	struct perf_event_attr a = *attr;
	int e;

	a.size = sizeof(a);
	a.disabled = 1;
	a.freq = 0;
	a.sample_period = 0;
	e = evprobe__open(&a, -1, cpu);
	if (e == -EACCES || e == -EPERM) {
		/* is it the event, or only the system-wide open? */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		e = evprobe__open(&a, 0, -1);
		if (!e)
			e = -EACCES;
	} else if (!e) {
		/* counting works: sampling as bpfprof does, 99 Hz or each access */
		if (a.type == PERF_TYPE_BREAKPOINT) {
			a.sample_period = 1;
		} else {
			a.freq = 1;
			a.sample_freq = 99;
		}
		e = evprobe__open(&a, -1, cpu);
		if (e == -EINVAL || e == -EOPNOTSUPP) {
			*err = -e;
			return EVPROBE_NO_SAMPLING;
		}
	}
	*err = -e;
	return e ? evprobe__classify(attr, -e, core_pmu) : EVPROBE_OK;
}

const char *evprobe__text(enum evprobe_why why, int err)
{
	switch (why) {
	case EVPROBE_OK:
		return "available";
	case EVPROBE_NO_PMU:
		return "no hardware PMU";
	case EVPROBE_PMU_LACKS:
		return "its PMU lacks it";
	case EVPROBE_NO_SAMPLING:
		return "its PMU counts it but cannot sample it";
	case EVPROBE_PERM:
		return "needs CAP_PERFMON, or a lower kernel.perf_event_paranoid";
	case EVPROBE_OTHER:
		break;
	}
	return strerror(err);
}
