/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/list/listprint.c: columns aligned per group, a status
 * column only where something does not open, headings and wrapping only
 * with a terminal's width, escaping of names from outside, the JSON array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "listprint.h"

static struct catalog_event ev(const char *name, enum catalog_kind kind, const char *pmu,
			       const char *desc, enum catalog_state state, const char *why)
{
	struct catalog_event e = { .name = (char *)name, .kind = kind, .pmu = (char *)pmu,
				   .desc = (char *)desc, .state = state, .why = (char *)why };

	return e;
}

/* @cat written by @fn (text with @width, or JSON when @width is -1). */
static char *print(const struct catalog *cat, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err = width < 0 ? listprint__json(f, cat) : listprint__text(f, cat, width);

	fclose(f);
	if (err) {
		free(buf);
		return NULL;
	}
	return buf;
}

int main(void)
{
	struct catalog_event events[] = {
		ev("cpu-clock", CATALOG_SOFTWARE, NULL, "timer", CATALOG_AVAILABLE, NULL),
		ev("cs", CATALOG_SOFTWARE, NULL, NULL, CATALOG_AVAILABLE, NULL),
		ev("cycles", CATALOG_HARDWARE, NULL, "CPU cycles", CATALOG_UNSUPPORTED,
		   "no hardware PMU"),
		ev("branches", CATALOG_HARDWARE, NULL, NULL, CATALOG_AVAILABLE, NULL),
		ev("e\x1b[1m/x/", CATALOG_PMU, "e\x1b[1m", "a\tb", CATALOG_NOT_HERE,
		   "not on this machine"),
	};
	struct catalog cat = { .events = events, .nr = 5 };
	char *out;

	out = print(&cat, 0);
	CHECK_STR(out,
		  "cpu-clock  [software]  timer\n"
		  "cs         [software]\n"
		  "cycles    [hardware]  not supported: no hardware PMU  CPU cycles\n"
		  "branches  [hardware]\n"
		  "e\\x1b[1m/x/  [pmu]  not on this machine  a\\x09b\n",
		  "to a pipe: aligned per group, one line each, escaped, no trailing space");
	free(out);

	cat.nr = 3;
	out = print(&cat, 40);
	CHECK_STR(out,
		  "Software events:\n"
		  "  cpu-clock  [software]  timer\n"
		  "  cs         [software]\n"
		  "\n"
		  "Hardware events:\n"
		  "  cycles  [hardware]  not supported: no hardware PMU\n"
		  "        CPU cycles\n",
		  "on a terminal: headings, a description too wide on a line of its own");
	free(out);

	events[0].desc = "one two three four five six seven eight nine ten";
	cat.nr = 1;
	out = print(&cat, 60);
	CHECK_STR(out,
		  "Software events:\n"
		  "  cpu-clock  [software]  one two three four five six seven\n"
		  "                         eight nine ten\n",
		  "a description wrapped at the terminal's width, under its column");
	free(out);

	events[0].desc = "timer";
	cat.nr = 5;
	out = print(&cat, -1);
	CHECK(out && strstr(out, "{\"name\": \"cpu-clock\", \"kind\": \"software\", \"pmu\": null, "
			    "\"available\": true, \"why\": null, \"description\": \"timer\"}") &&
	      strstr(out, "\"available\": false, \"why\": \"no hardware PMU\"") &&
	      strstr(out, "{\"name\": \"e\\u001b[1m/x/\", \"kind\": \"pmu\", \"pmu\": "
			  "\"e\\u001b[1m\"") && out[0] == '[',
	      "JSON: an array of objects, one a line, escaped by the JSON writer");
	free(out);
	return check_done();
}
