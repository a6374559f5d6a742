// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libpfm4's event names (pfmevents.h). The library is initialised once,
 * at the first use; it reads the CPU's identity itself (cpuid), so it
 * names a PMU's events even where the PMU cannot be used (a VM without
 * PMU passthrough): whether they open is evprobe.c's to say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "pfmevents.h"

#if BPFPROF_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

/* pfm_initialize once: its result. */
static int pfmevents__init(void)
{
	static bool done;
	static int ret;

	if (!done) {
		ret = pfm_initialize();
		done = true;
	}
	return ret;
}

bool pfmevents__enabled(void)
{
	return true;
}

/* The events of the present PMU @pmu: @fn for each. */
static int pfmevents__pmu(const pfm_pmu_info_t *pmu,
			  int (*fn)(const struct pfmevents_event *ev, void *ctx), void *ctx)
{
	int err = 0;

	for (int i = pmu->first_event; !err && i != -1; i = pfm_get_event_next(i)) {
		pfm_event_info_t info = { .size = sizeof(info) };
		struct pfmevents_event ev = { .pmu = pmu->name,
					      .core = pmu->type == PFM_PMU_TYPE_CORE };

		if (pfm_get_event_info(i, PFM_OS_PERF_EVENT_EXT, &info) != PFM_SUCCESS)
			continue;
		ev.name = info.name;
		ev.desc = info.desc;
		err = fn(&ev, ctx);
	}
	return err;
}

int pfmevents__each(int (*fn)(const struct pfmevents_event *ev, void *ctx), void *ctx,
		    char *why, size_t size)
{
	pfm_pmu_t p;
	int ret = pfmevents__init(), err = 0;

	if (ret != PFM_SUCCESS) {
		snprintf(why, size, "libpfm4 does not initialise: %s", pfm_strerror(ret));
		return -ENODEV;
	}
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pmu = { .size = sizeof(pmu) };

		if (pfm_get_pmu_info(p, &pmu) != PFM_SUCCESS || !pmu.is_present ||
		    pmu.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		err = pfmevents__pmu(&pmu, fn, ctx);
		if (err)
			break;
	}
	return err;
}

/* Is event @idx one of libpfm4's tables of perf's generic events? */
static bool pfmevents__generic(int idx)
{
	pfm_event_info_t info = { .size = sizeof(info) };
	pfm_pmu_info_t pmu = { .size = sizeof(pmu) };

	return pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS ||
	       pfm_get_pmu_info(info.pmu, &pmu) != PFM_SUCCESS ||
	       pmu.type == PFM_PMU_TYPE_OS_GENERIC;
}

int pfmevents__parse(const char *event, struct perf_event_attr *attr, char *why,
		     size_t size)
{
	pfm_perf_encode_arg_t arg = { .size = sizeof(arg), .attr = attr };
	int ret = pfmevents__init();

	if (ret != PFM_SUCCESS)
		return -ENOENT;
	memset(attr, 0, sizeof(*attr));
	ret = pfm_get_os_event_encoding(event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
					&arg);
	if (ret == PFM_ERR_NOTFOUND)
		return -ENOENT;
	if (ret == PFM_ERR_NOMEM)
		return -ENOMEM;
	if (ret != PFM_SUCCESS) {
		snprintf(why, size, "libpfm4: %s", pfm_strerror(ret));
		return -EINVAL;
	}
	/* its tables of perf's generic events (any case: CPU-CLOCK) are not ours */
	if (pfmevents__generic(arg.idx)) {
		memset(attr, 0, sizeof(*attr));
		return -ENOENT;
	}
	attr->size = sizeof(*attr);
	return 0;
}

#else /* !BPFPROF_LIBPFM */

bool pfmevents__enabled(void)
{
	return false;
}

int pfmevents__each(int (*fn)(const struct pfmevents_event *ev, void *ctx), void *ctx,
		    char *why, size_t size)
{
	return 0;
}

int pfmevents__parse(const char *event, struct perf_event_attr *attr, char *why,
		     size_t size)
{
	return -ENOENT;
}

#endif /* BPFPROF_LIBPFM */
