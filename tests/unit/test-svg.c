// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SVG flame graph's writer: stacks merged into frames (processes
 * alike, as in the folded file), samples and order, escaping, --minwidth,
 * the subtitle, and the size of a graph of 65,536 distinct stacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "profiles.h"

static char *write_svg(const struct profile *p, const struct output_opts *o, size_t *rows)
{
	return profiles__write(&output_svg, p, o, rows);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* The x attribute of the frame whose tooltip starts with @title. */
static double frame_x(const char *svg, const char *title)
{
	const char *t = strstr(svg, title), *x = t ? strstr(t, "<rect x=\"") : NULL;

	return x ? atof(x + 9) : -1;
}

int main(void)
{
	struct frame fa[] = { { "main", FRAME_USER }, { "b_second", FRAME_USER },
			      { "vfs_read", FRAME_KERNEL } };
	struct frame fb[] = { { "main", FRAME_USER }, { "a_first", FRAME_USER },
			      { "[truncated]", FRAME_MARK } };
	struct output_opts none = { 0 }, pid = { .per_pid = true };
	struct profile p = { 0 };
	size_t rows;
	char *out;

	profiles__add(&p, "app", 1, fa, 3, 3);
	profiles__add(&p, "app", 2, fa, 3, 2); /* another process of the same name */
	profiles__add(&p, "app", 1, fb, 3, 5);
	out = write_svg(&p, &none, &rows);
	CHECK(strstr(out, "<title>all (10 samples, 100.00%)</title>"), "the root holds every sample");
	CHECK(strstr(out, "<title>app (10 samples, 100.00%)</title>"),
	      "processes of one name are one frame without --per-pid");
	CHECK(strstr(out, "<title>b_second (5 samples, 50.00%)</title>"), "stacks merged by name");
	CHECK(strstr(out, "<title>vfs_read_[k] (5 samples, 50.00%)</title>"),
	      "kernel frames read as in the folded file");
	CHECK(strstr(out, "<title>[truncated] (5 samples, 50.00%)</title>"), "marks are frames");
	CHECK(frame_x(out, "<title>a_first") < frame_x(out, "<title>b_second"),
	      "children in name order, left to right");
	CHECK(count(out, "<g><title>") == 7, "one frame per node of the tree (%d)",
	      count(out, "<g><title>"));
	CHECK(rows == 2, "the rows are the folded file's lines (%zu)", rows);
	CHECK(strstr(out, "</title>") < strstr(out, "<script"), "the script after the frames");
	free(out);
	out = write_svg(&p, &pid, &rows);
	CHECK(strstr(out, "<title>app-1 (8 samples, 80.00%)</title>") &&
		      strstr(out, "<title>app-2 (2 samples, 20.00%)</title>"),
	      "--per-pid: a frame per process");
	CHECK(rows == 3, "--per-pid: three rows (%zu)", rows);
	free(out);
	profile__free(&p);

	/* names from outside */
	struct frame fh[] = { { "std::vector<int, A<'x'>>::f&\"g\"", FRAME_USER },
			      { "bad\x88utf8\x1b", FRAME_USER },
			      { "nonchar\xef\xbf\xbe", FRAME_USER } };

	memset(&p, 0, sizeof(p));
	profiles__add(&p, "a<b>", 1, fh, 3, 1);
	out = write_svg(&p, &none, NULL);
	CHECK(strstr(out, "<title>std::vector&lt;int, A&lt;&apos;x&apos;&gt;&gt;::f&amp;&quot;g&quot; ("),
	      "XML's five characters escaped");
	CHECK(strstr(out, "<title>bad\\x88utf8\\x1b ("), "invalid UTF-8 and control bytes as \\xHH");
	CHECK(strstr(out, "<title>nonchar\\xef\\xbf\\xbe ("), "U+FFFE, no XML character, as \\xHH");
	CHECK(strstr(out, "<title>a&lt;b&gt; ("), "the process frame escaped");
	CHECK(!strchr(out, '\x1b') && !strstr(out, "\x88"), "no raw byte of the names");
	free(out);

	/* --minwidth, the subtitle, the title */
	struct frame fw[] = { { "wide", FRAME_USER } }, fn[] = { { "narrow", FRAME_USER } };
	struct output_opts zero = { .svg = { .minwidth_given = true, .title = "T&" },
				    .run = { "make -j2", "cpu-clock", 99, false } };

	profiles__add(&p, "w", 1, fw, 1, 100000);
	profiles__add(&p, "n", 2, fn, 1, 1);
	p.duration = 2.5;
	out = write_svg(&p, &none, NULL);
	CHECK(!strstr(out, "<title>narrow"), "a frame narrower than 0.1 pixel is left out");
	CHECK(strstr(out, "<title>wide"), "the wide one stays");
	CHECK(strstr(out, ">Flame Graph</text>"), "the default title");
	CHECK(strstr(out, ">2.50 s; 100002 samples</text>"), "no run: duration and samples");
	free(out);
	out = write_svg(&p, &zero, NULL);
	CHECK(strstr(out, "<title>narrow"), "--minwidth 0 keeps every frame");
	CHECK(strstr(out, ">T&amp;</text>"), "--title, escaped");
	CHECK(strstr(out, ">make -j2; cpu-clock at 99 Hz; 2.50 s; 100002 samples</text>"),
	      "the subtitle: command, event, rate, duration, samples");
	free(out);
	profile__free(&p);

	/*
	 * tests/workloads/paths' 65,536 stacks, main;sweep;aI;bJ;cK;dL, one
	 * sample each: the leaves are narrower than 0.1 pixel
	 */
	struct timespec t0, t1;

	memset(&p, 0, sizeof(p));
	profiles__paths(&p);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	out = write_svg(&p, &none, &rows);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# 65,536 stacks: %zu bytes in %.3f s\n", strlen(out),
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	CHECK(rows == 65536, "65,536 rows");
	CHECK(count(out, "<g><title>") == 3 + 16 + 256 + 4096 + 1,
	      "every frame down to the cK level, none of the leaves (%d)",
	      count(out, "<g><title>"));
	CHECK(strlen(out) < 5 << 20, "under 5 MB");
	free(out);
	profile__free(&p);
	return check_done();
}
