/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/kernel/kptr.c: the cause named is the kernel's rule. */
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "kptr.h"

static bool says(int restrict_, int paranoid, bool syslog, const char *what)
{
	char buf[160];

	kptr__explain(restrict_, paranoid, syslog, buf, sizeof(buf));
	printf("# %d %d %d: %s\n", restrict_, paranoid, syslog, buf);
	return strstr(buf, what) != NULL;
}

int main(void)
{
	CHECK(says(2, -1, true, "kernel.kptr_restrict=2 hides them from every user"),
	      "kptr_restrict=2 hides them even with CAP_SYSLOG");
	CHECK(says(1, -1, false, "kernel.kptr_restrict=1 and no CAP_SYSLOG"),
	      "kptr_restrict=1 without CAP_SYSLOG");
	CHECK(says(0, 2, false, "kernel.perf_event_paranoid=2 (above 1) and no CAP_SYSLOG"),
	      "kptr_restrict=0, paranoid=2, no CAP_SYSLOG: paranoid is the cause");
	CHECK(!says(0, 2, false, "kptr_restrict"),
	      "kptr_restrict=0 is not blamed");
	CHECK(says(0, 3, false, "perf_event_paranoid=3"), "Debian's paranoid=3");
	CHECK(says(0, 1, false, "kernel.kptr_restrict=0, kernel.perf_event_paranoid=1"),
	      "nothing hides them: both values said");
	return check_done();
}
