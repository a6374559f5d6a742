// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The profile's JSON writer: the run, the totals and loss counters, the
 * tables of processes, binaries and frames, stacks as indexes, names as
 * they are (JSON-escaped), and the size of 65,536 distinct stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "profiles.h"

static char *write_json(const struct profile *p, const struct output_opts *o, size_t *rows)
{
	return profiles__write(&output_profile_json, p, o, rows);
}

int main(void)
{
	struct profile p = { .keep_bins = true, .duration = 1.5, .ncpus = 2 };
	struct output_opts o = { .per_pid = true, .period_ns = 1001001,
				 .run = { "./app 1", "cpu-clock", 999, false } };
	uint32_t app, kernel;
	size_t rows;
	char *out;

	if (profile__bin(&p, "/usr/bin/app", "abcd", &app) ||
	    profile__bin(&p, "[kernel.kallsyms]", NULL, &kernel))
		abort();

	struct frame fa[] = { { "main", FRAME_USER, 3, "/src/app.c", app },
			      { "inl", FRAME_INLINE, 7, "/src/app.h", app, 5, "_Z3inlv" },
			      { "vfs_read", FRAME_KERNEL, 0, NULL, kernel } };
	struct frame fb[] = { { "main", FRAME_USER, 3, "/src/app.c", app },
			      { "evil\x1b\"\x88", FRAME_USER, 0, NULL, app } };

	p.stats[STAT_SEEN] = 40;
	p.stats[STAT_KEPT] = 30;
	p.stats[STAT_DROP_STACKS_FULL] = 4;
	p.stats[STAT_DROP_COUNTS_FULL] = 5;
	p.sideband_lost = 6;
	profiles__add(&p, "app", 42, fa, 3, 20);
	profiles__add(&p, "app", 42, fb, 2, 10);
	out = write_json(&p, &o, &rows);
	CHECK(!strncmp(out, "{\n  \"version\": 1,\n", 18), "version first");
	CHECK(strstr(out, "\n  \"target\": \"./app 1\",\n  \"event\": \"cpu-clock\",\n"
			  "  \"frequency_hz\": 999,\n  \"period\": null,\n"
			  "  \"period_ns\": 1001001,\n  \"duration_s\": 1.500,\n  \"cpus\": 2,\n"
			  "  \"samples\": 30,\n"),
	      "the run and the samples");
	CHECK(strstr(out, "\"seen\": 40,") && strstr(out, "\"kept\": 30,"), "the counters");
	CHECK(strstr(out, "\"lost\": {\n    \"samples\": 9,\n    \"stacks_map_full\": 4,\n"
			  "    \"counts_map_full\": 5,\n"),
	      "the lost samples, in all and by cause");
	CHECK(strstr(out, "\"sideband_records\": 6\n"), "the side band's lost records");
	CHECK(strstr(out, "\n    {\"comm\": \"app\", \"pid\": 42, \"tid\": null}\n"),
	      "a process a line, its pid with --per-pid");
	CHECK(strstr(out, "\n    {\"path\": \"/usr/bin/app\", \"build_id\": \"abcd\"},\n"
			  "    {\"path\": \"[kernel.kallsyms]\", \"build_id\": null}\n"),
	      "the binaries");
	CHECK(strstr(out, "\n    {\"name\": \"main\", \"kind\": \"user\", \"file\": \"/src/app.c\", "
			  "\"line\": 3, \"binary\": 0},\n"),
	      "a frame: name, kind, file, line, binary");
	CHECK(strstr(out, "{\"name\": \"inl\", \"kind\": \"inline\", \"file\": \"/src/app.h\", "
			  "\"line\": 7, \"start_line\": 5, \"system_name\": \"_Z3inlv\", "
			  "\"binary\": 0}"),
	      "inlined frames; a start line and a system name where known");
	CHECK(strstr(out, "{\"name\": \"vfs_read\", \"kind\": \"kernel\", \"file\": null, "
			  "\"line\": null, \"binary\": 1}"),
	      "kernel frames: the kind a field, no suffix");
	CHECK(strstr(out, "{\"name\": \"evil\\u001b\\\"\\ufffd\", "),
	      "names JSON-escaped, invalid UTF-8 as U+FFFD");
	CHECK(strstr(out, "\n    {\"count\": 20, \"process\": 0, \"frames\": [0, 1, 2]},\n"
			  "    {\"count\": 10, \"process\": 0, \"frames\": [0, 3]}\n  ]\n}\n"),
	      "stacks: count, process, frame indexes root first; the document ends");
	CHECK(rows == 2, "the summary's stacks: the profile's (%zu)", rows);
	free(out);
	profile__free(&p);

	memset(&p, 0, sizeof(p));
	out = write_json(&p, &(struct output_opts){ 0 }, NULL);
	CHECK(strstr(out, "\"target\": null,\n  \"event\": null,\n  \"frequency_hz\": null,\n"
			  "  \"period\": null,\n  \"period_ns\": null,\n"),
	      "no run: nulls");
	CHECK(strstr(out, "\"stacks\": []\n}\n"), "an empty profile: empty tables");
	free(out);
	profile__free(&p);

	/* tests/workloads/paths' 65,536 stacks */
	struct timespec t0, t1;

	memset(&p, 0, sizeof(p));
	profiles__paths(&p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	out = write_json(&p, &(struct output_opts){ 0 }, &rows);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# 65,536 stacks: %zu bytes in %.3f s\n", strlen(out),
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	CHECK(rows == 65536, "65,536 rows");
	CHECK(strlen(out) < 5 << 20, "under 5 MB");
	free(out);
	profile__free(&p);
	return check_done();
}
