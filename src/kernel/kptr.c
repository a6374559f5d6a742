// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <stdlib.h>
#include <linux/capability.h>

#include "caps.h"
#include "kptr.h"
#include "procfs.h"

void kptr__explain(int kptr_restrict, int paranoid, bool syslog, char *buf, size_t size)
{
	if (kptr_restrict >= 2)
		snprintf(buf, size, "kernel.kptr_restrict=%d hides them from every user; "
			 "set it to 1 or 0", kptr_restrict);
	else if (kptr_restrict == 1 && !syslog)
		snprintf(buf, size, "kernel.kptr_restrict=1 and no CAP_SYSLOG; grant "
			 "CAP_SYSLOG");
	else if (kptr_restrict <= 0 && paranoid > 1 && !syslog)
		snprintf(buf, size, "kernel.perf_event_paranoid=%d (above 1) and no CAP_SYSLOG; "
			 "grant CAP_SYSLOG or set kernel.perf_event_paranoid=1", paranoid);
	else
		snprintf(buf, size, "kernel.kptr_restrict=%d, kernel.perf_event_paranoid=%d",
			 kptr_restrict, paranoid);
}

/* A sysctl that may be 0 or negative; @fallback when it cannot be read. */
static int kptr__sysctl(const char *path, int fallback)
{
	char *line = procfs__read_line(path), *end;
	long v = fallback;

	if (line) {
		v = strtol(line, &end, 10);
		if (end == line)
			v = fallback;
	}
	free(line);
	return (int)v;
}

void kptr__why_hidden(char *buf, size_t size)
{
	kptr__explain(kptr__sysctl("/proc/sys/kernel/kptr_restrict", 0),
		      kptr__sysctl("/proc/sys/kernel/perf_event_paranoid", 2),
		      caps__effective(CAP_SYSLOG), buf, size);
}
