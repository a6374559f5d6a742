// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record --interval's file names: %n from 0, %t as UTC YYYYmmddTHHMMSS,
 * %%; the checks (a name per interval, no other field, %t alone only for
 * a second or more).
 */
#include <stdlib.h>

#include "check.h"
#include "interval.h"

static void name_is(const char *pattern, unsigned int n, time_t t, const char *want)
{
	char *got = interval__name(pattern, n, t);

	CHECK_STR(got, want, "'%s' for interval %u", pattern, n);
	free(got);
}

static int check(const char *pattern, double seconds, const char *why_has)
{
	char why[256] = "";
	int err = interval__check(pattern, seconds, why, sizeof(why));

	if (why_has && !strstr(why, why_has))
		printf("#   why: %s\n", why);
	return err == 0 ? !why_has : why_has && strstr(why, why_has) != NULL;
}

int main(void)
{
	/* 2026-11-26 08:53:02 UTC */
	time_t t = 1795683182;

	name_is("prof-%n.pb.gz", 0, t, "prof-0.pb.gz");
	name_is("prof-%n.pb.gz", 12, t, "prof-12.pb.gz");
	name_is("p-%t.folded", 0, t, "p-20261126T085302.folded");
	name_is("%t-%n-%%n%%", 3, t, "20261126T085302-3-%n%");
	name_is("/tmp/a/%n", 1, t, "/tmp/a/1");

	CHECK(check("prof-%n.folded", 0.5, NULL), "%%n: a name per interval");
	CHECK(check("prof-%t.folded", 1, NULL), "%%t alone for a second");
	CHECK(check("prof-%t-%n.folded", 0.1, NULL), "%%t with %%n under a second");
	CHECK(check("prof.folded", 1, "would overwrite the same file"), "no field");
	CHECK(check("prof-%%n.folded", 1, "would overwrite the same file"),
	      "%%%%n is a %%, not a field");
	CHECK(check("prof-%t.folded", 0.5, "%t names files by the second"),
	      "%%t alone under a second");
	CHECK(check("prof-%q-%n.folded", 1, "'%q' is not a field"), "another field");
	CHECK(check("prof-%n%", 1, "'%' is not a field"), "a trailing %%");
	return check_done();
}
