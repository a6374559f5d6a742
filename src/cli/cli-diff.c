// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `bpfprof diff BASE NEW`: two saved profiles (pprof or folded) as one
 * differential flame graph (frames sized by NEW, red where a frame's share
 * of the samples grew, blue where it shrank) or folded file ("stack BASE
 * NEW"). report's options (cli-report.c), two arguments.
 */
#include <argp.h>
#include <string.h>

#include "cli-diff.h"

static const char doc[] =
	"Compare two saved profiles (each a pprof profile or folded stacks): a "
	"differential flame graph (to bpfprof.svg in the working directory unless -o), "
	"its frames sized by NEW, red where a frame's share of the samples grew and blue "
	"where it shrank (the tooltips give both counts and the change), or folded lines "
	"'stack BASE NEW' (-f folded, -o FILE.folded)."
	"\v"
	"Examples:\n"
	"  bpfprof diff -o change.svg before.pb.gz after.pb.gz\n"
	"      What grew and what shrank from one run to the next.\n"
	"  bpfprof diff -f folded -o - before.folded after.folded\n"
	"      Each stack's count in both, for scripts.\n"
	"\n"
	"Shares are normalized: a run twice as long is not all red. See bpfprof-diff(1) "
	"for the details.";

static const struct argp diff_argp = {
	.options = cli_report_options,
	.parser = cli_report__parse_opt,
	.args_doc = "BASE NEW",
	.doc = doc,
	.children = cli_report_children,
};

void cli_diff__parse(int argc, char **argv, struct cli_report *r)
{
	struct cli_report_parser p = { .r = r, .want_args = 2 };

	memset(r, 0, sizeof(*r));
	p.base.opts = &p.so;
	p.fmt.out = &r->opts.out;
	p.fmt.format_doc = "Output format: svg (the default: a differential flame graph) or "
			   "folded (lines 'stack BASE NEW'); from the FILE extension when -o "
			   "names .svg or .folded";
	cli__parse(&diff_argp, "diff", argc, argv, &p);
}
