// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A profile of several events (record -e A -e B) as each writer shows it:
 * folded lines and svg's level under the root start with the event, pprof
 * has a value per event and a clock event's nanoseconds (read back by
 * pprofread, by --value), the top table a column per event, json an
 * events table; a profile of one event writes no event at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pprofread.h"
#include "profiles.h"

/* @n samples of stack @f of event @event. */
static void add(struct profile *p, uint32_t event, struct frame *f, uint32_t nr, uint64_t n)
{
	struct profile_sample s = { .tgid = 1, .comm = "app", .frames = f, .nr = nr,
				    .count = n, .event = event };

	if (profile__add(p, &s))
		abort();
}

static struct profile_event two[] = {
	{ .name = "cpu-clock", .period_ns = 10101010 },
	{ .name = "faults" },
};

/* compute's stack 8 cpu-clock, fault_pages's 2 cpu-clock and 30 faults */
static void fill(struct profile *p)
{
	struct frame fc[] = { { "main", FRAME_USER }, { "compute", FRAME_USER } };
	struct frame ff[] = { { "main", FRAME_USER }, { "fault_pages", FRAME_USER } };

	add(p, 0, fc, 2, 8);
	add(p, 0, ff, 2, 2);
	add(p, 1, ff, 2, 30);
	add(p, 1, ff, 2, 5); /* the same stack of the same event: one stack */
}

/* The samples of pprof @buf's type @value read back as folded lines. */
static char *pprof_back(const char *buf, size_t len, const char *value)
{
	struct profile q = { 0 };
	struct pprofread_info info;
	const struct output_opts none = { 0 };
	char why[256], *out;

	if (pprofread__parse(&q, buf, len, value, 0, &info, why, sizeof(why))) {
		printf("# pprofread: %s\n", why);
		return NULL;
	}
	out = profiles__write(&output_folded, &q, &none, NULL);
	profile__free(&q);
	return out;
}

int main(void)
{
	const struct output_opts none = { 0 };
	struct profile p = { 0 }, one = { 0 };
	char *out, *back;
	size_t rows, len;
	FILE *f;

	fill(&p);
	p.events = two;
	p.nr_events = 2;
	CHECK(p.nr == 3, "a stack of two events is two stacks, of one event one (%zu)", p.nr);
	CHECK(profile__event_samples(&p, 0) == 10 && profile__event_samples(&p, 1) == 35,
	      "each event's samples");

	out = profiles__write(&output_folded, &p, &none, &rows);
	CHECK_STR(out, "cpu-clock;app;main;compute 8\n"
		       "cpu-clock;app;main;fault_pages 2\n"
		       "faults;app;main;fault_pages 35\n",
		  "folded: the event's name first, then the process");
	CHECK(rows == 3, "folded: a line per event and stack");
	free(out);

	fill(&one);
	out = profiles__write(&output_folded, &one, &none, NULL);
	CHECK_STR(out, "app;main;compute 8\napp;main;fault_pages 37\n",
		  "folded of one event (no events): no event frame, as before");
	free(out);
	profile__free(&one);

	out = profiles__write(&output_top, &p, &none, NULL);
	CHECK(out && strstr(out, "# 10 cpu-clock samples, 35 faults samples, 0 lost"),
	      "top: each event's samples in the header");
	CHECK(out && strstr(out, "\n#  self   self%  total  total%  faults   self%  function\n"),
	      "top: a column named after the other event");
	CHECK(out && strstr(out, "\n      8  80.00%      8  80.00%       0   0.00%  compute\n"
				 "      2  20.00%      2  20.00%      35 100.00%  fault_pages\n"),
	      "top: sorted by the first event, the other's self beside");
	free(out);

	out = profiles__write(&output_svg, &p, &none, NULL);
	CHECK(out && strstr(out, "<title>cpu-clock (10 samples, 22.22%)</title>") &&
		      strstr(out, "<title>faults (35 samples, 77.78%)</title>"),
	      "svg: each event a frame under the root");
	free(out);

	out = profiles__write(&output_profile_json, &p, &none, NULL);
	CHECK(out && strstr(out, "\"events\": [\n    {\"name\": \"cpu-clock\", \"period_ns\": "
				 "10101010, \"samples\": 10,"),
	      "json: the events table");
	CHECK(out && strstr(out, "{\"count\": 35, \"event\": 1, \"process\": 0"),
	      "json: each stack's event");
	free(out);

	out = NULL;
	f = open_memstream(&out, &len);
	CHECK(f && !output_pprof.write_profile(f, &p, &none, NULL) && !fclose(f),
	      "pprof: written");
	back = pprof_back(out, len, NULL);
	CHECK_STR(back, "app;main;compute 8\napp;main;fault_pages 2\n",
		  "pprof: the first sample type is the first event's");
	free(back);
	back = pprof_back(out, len, "faults");
	CHECK_STR(back, "app;main;fault_pages 35\n",
		  "pprof: faults/count holds the other's, one sample per stack");
	free(back);
	back = pprof_back(out, len, "cpu-clock/nanoseconds");
	CHECK_STR(back, "app;main;compute 80808080\napp;main;fault_pages 20202020\n",
		  "pprof: the clock event's nanoseconds, count × period; none for faults");
	free(back);
	back = pprof_back(out, len, "faults/nanoseconds");
	CHECK(!back, "pprof: no nanoseconds of an event that counts no time");
	free(out);

	profile__free(&p);
	return check_done();
}
