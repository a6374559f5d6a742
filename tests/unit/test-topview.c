// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The live top's refresh as text: the header, the rows (self%, self,
 * total%, the function), --limit, the screen's rows and width (a line
 * cut on a character boundary, never inside a UTF-8 sequence), the clear
 * sequence on a screen only, a name with control bytes escaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profiles.h"
#include "topview.h"

static char *put(const struct profile *p, const struct top_view *v)
{
	struct output_opts none = { 0 };
	struct top_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (top_table__build(&t, p, &none) || top_view__put(f, &t, v))
		printf("# top_view__put failed\n");
	fclose(f);
	top_table__free(&t);
	return buf;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Does every line of @s hold at most @cols characters (UTF-8 sequences whole)? */
static int fits(const char *s, unsigned int cols)
{
	unsigned int chars = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '\n') {
			chars = 0;
			continue;
		}
		if ((*c & 0xc0) != 0x80 && ++chars > cols)
			return 0;
	}
	return 1;
}

int main(void)
{
	struct frame hot[] = { { "main", FRAME_USER }, { "hot_loop", FRAME_USER } };
	struct frame cold[] = { { "main", FRAME_USER }, { "cold_\x1b[2J_loop", FRAME_USER } };
	struct frame wide[] = { { "main", FRAME_USER },
				{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
				  FRAME_USER } };
	struct profile p = { .drop_lines = true };
	struct top_view plain = { .seconds = 1, .lost = 2, .hz = 99, .rate = "99 Hz",
				  .event = "cpu-clock", .target = "pid 7" };
	struct top_view v;
	char *out;

	profiles__add(&p, "app", 7, hot, 2, 75);
	profiles__add(&p, "app", 7, cold, 2, 20);
	profiles__add(&p, "app", 7, wide, 2, 5);

	out = put(&p, &plain);
	CHECK(!strncmp(out, "bpfprof top: 100 samples, 2 lost in 1.00 s; cpu-clock 99 Hz "
			    "requested, 99.0 Hz effective on the busiest CPU\npid 7; 4 functions\n",
		       strlen("bpfprof top: 100 samples, 2 lost in 1.00 s; cpu-clock 99 Hz "
			      "requested, 99.0 Hz effective on the busiest CPU\npid 7; 4 functions\n")),
	      "the header: samples, lost, window, rate, targets, functions");
	CHECK(strstr(out, "\n  self%       self  total%  function\n"
			  " 75.00%         75  75.00%  hot_loop\n") != NULL,
	      "the hottest first: self%%, self, total%%");
	CHECK(strstr(out, "cold_\\x1b[2J_loop") && !strchr(out, '\x1b'),
	      "a control byte escaped, never sent to the terminal");
	CHECK(lines(out) == 3 + 4 + 1, "plain: every row and a blank line after");
	CHECK(out[strlen(out) - 2] == '\n', "plain: the blank line last");
	free(out);

	v = plain;
	v.limit = 1;
	out = put(&p, &v);
	CHECK(lines(out) == 3 + 1 + 1, "--limit 1: one row");
	free(out);

	v = plain;
	v.screen = true;
	v.rows = 6;
	v.cols = 30;
	out = put(&p, &v);
	CHECK(!strncmp(out, "\033[H\033[2J", 7), "a screen: home and clear first");
	CHECK(lines(out) == 5, "a screen of 6 rows: 5 lines (no scroll), 2 rows of the table");
	CHECK(fits(out + 7, 30), "every line cut to 30 characters");
	free(out);

	v.rows = 0;
	v.cols = 35;
	out = put(&p, &v);
	CHECK(fits(out + 7, 35) && strstr(out, "\xc3\xa9\n"),
	      "a UTF-8 name cut between characters");
	free(out);

	profile__free(&p);
	return check_done();
}
