/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The text listing of bpfprof range, from a listing built by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output.h"

static struct listing_row rows[] = {
	{ .addr = 0x1180, .count = 0, .func = "loops", .func_off = 0, .file = "a.c", .line = 26,
	  .text = "push rbp" },
	{ .addr = 0x11a7, .count = 80, .func = "loops", .func_off = 0x27, .file = "a.c",
	  .line = 27, .text = "add rcx, 1" },
	{ .addr = 0x11c7, .count = 16, .func = "loops", .func_off = 0x47, .file = "a.c",
	  .line = 28, .text = "add rax, 1" },
	{ .addr = 0x11d1, .count = 4, .func = "loops", .func_off = 0x51, .file = "a.c",
	  .line = 29, .text = "ret" },
};

static struct listing_src srcs[] = {
	{ "a.c", 27, 80 },
	{ "a.c", 28, 16 },
	{ "a.c", 29, 4 },
};

static struct listing_proc procs[] = { { 42, "prog", 100 } };

/* The listing written with @o, in a malloc'd string. */
static char *write_listing(const struct listing *ls, const struct output_opts *o)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (!f)
		return NULL;
	if (output_listing_text.write_listing(f, ls, o)) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

/* The line of @text holding @needle, copied into @line. */
static const char *line_with(const char *text, const char *needle, char *line, size_t size)
{
	const char *p = text ? strstr(text, needle) : NULL, *start, *end;

	if (!p)
		return NULL;
	for (start = p; start > text && start[-1] != '\n'; start--)
		;
	end = strchr(p, '\n');
	snprintf(line, size, "%.*s", (int)(end ? end - start : (long)strlen(start)), start);
	return line;
}

int main(void)
{
	struct listing_range lr = {
		.arg = "prog:loops", .kind = "symbol in a binary", .binary = "/bin/prog",
		.symbol = "loops", .start = 0x1180, .end = 0x11d2, .samples = 100,
		.rows = rows, .nr_rows = 4, .srcs = srcs, .nr_srcs = 3, .procs = procs,
		.nr_procs = 1, .nr_insts = 1,
	};
	struct listing_range empty = {
		.arg = "libnope.so:f", .kind = "symbol in a binary", .binary = "libnope.so",
		.unmapped = true,
	};
	struct listing_range both[] = { lr, empty };
	struct listing ls = { .ranges = both, .nr = 2 };
	struct output_opts o = { .sort = SORT_ADDRESS, .disasm = true, .source = true };
	char line[512], *out, *first, *hot;

	ls.stats[STAT_SEEN] = 400;
	ls.stats[STAT_IDLE] = 150;
	ls.stats[STAT_FILTERED] = 50;
	ls.stats[STAT_KEPT] = 100;
	ls.stats[STAT_OUT_OF_RANGE] = 100;
	out = write_listing(&ls, &o);
	CHECK(out != NULL, "write the listing");
	printf("%s", out ? out : "");
	CHECK(out && !strncmp(out, "range 1: prog:loops (symbol in a binary)\n", 41),
	      "the header starts with the range and its kind");
	CHECK_STR(line_with(out, "  symbol:", line, sizeof(line)),
		  "  symbol: loops, 0x1180-0x11d2 (82 bytes)", "the symbol and its addresses");
	CHECK_STR(line_with(out, "counted in", line, sizeof(line)),
		  "  counted in 1 process: 42 prog 100", "the process and its samples");
	CHECK_STR(line_with(out, " samples, ", line, sizeof(line)),
		  "  100 samples, 50.0% of the targets' 200", "samples, share of the targets'");
	CHECK_STR(line_with(out, "add rcx", line, sizeof(line)),
		  ">  0x11a7  loops+0x27            80  80.0%  a.c:27  add rcx, 1",
		  "a hot row: marked, every column");
	CHECK_STR(line_with(out, "ret", line, sizeof(line)),
		  "   0x11d1  loops+0x51             4   4.0%  a.c:29  ret",
		  "a row under 5 percent: not marked");
	CHECK_STR(line_with(out, "  80.0%  80", line, sizeof(line)), "   80.0%  80  a.c:27",
		  "the hottest source line, first");
	first = out ? strstr(out, "push rbp") : NULL;
	hot = out ? strstr(out, "add rcx") : NULL;
	CHECK(first && hot && first < hot, "by address: push rbp before the hot row");
	CHECK(out && strstr(out, "range 2: libnope.so:f (symbol in a binary)\n  binary: "
				 "libnope.so\n  not counted: "),
	      "a range counted nowhere: its header and why");
	CHECK(out && strstr(out, "  0 samples, 0.0% of the targets' 200\n"),
	      "a range without samples says 0 samples");
	CHECK_STR(line_with(out, "total:", line, sizeof(line)),
		  "total: 100 samples in the ranges of 400 seen (25.0%), of the targets' 200 "
		  "(50.0%); 100 outside every range, 0 lost",
		  "the totals");
	free(out);

	o = (struct output_opts){ .sort = SORT_SAMPLES, .disasm = false, .source = false };
	out = write_listing(&ls, &o);
	first = out ? strstr(out, "0x1180  loops") : NULL;
	hot = out ? strstr(out, "0x11a7  loops") : NULL;
	CHECK(first && hot && hot < first, "by samples: the hot row first");
	CHECK(out && !strstr(out, "add rcx") && !strstr(out, "a.c:"),
	      "no instructions, no source lines");
	CHECK(out && !strstr(out, "hottest source lines"), "no hottest lines");
	free(out);
	return check_done();
}
