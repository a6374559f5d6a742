// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpfprof report and diff: the output file opened first (a name that can
 * never be written fails before any reading), the inputs read whole, the
 * profile written by its format's writer, the file committed only when
 * complete (outfile.c): a bad input leaves no file behind.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "outfile.h"
#include "profileread.h"
#include "report.h"

/* Read @path into @p, keeping lines when the output shows them. */
static int report__read(const struct report_opts *o, const char *path, struct profile *p,
			struct profileread_info *info, char *why, size_t size)
{
	p->drop_lines = output__drop_lines(&o->out);
	return profileread__file(p, path, o->value, o->max_input, info, why, size);
}

int report__run(const struct report_opts *o, struct report_summary *sum, char *why,
		size_t size, bool *usage)
{
	struct profile in = { 0 }, base = { 0 }, d = { 0 }, *p = &in;
	struct profileread_info info, base_info;
	struct output_opts out = o->out;
	struct outfile *of;
	char reason[OUTFILE_WHY_MAX];
	int err;

	*sum = (struct report_summary){ 0 };
	/* an output that cannot be written and a bad input are the user's to fix */
	*usage = true;
	of = outfile__open(o->output, reason, sizeof(reason));
	if (!of) {
		err = -errno;
		snprintf(why, size, "cannot write '%s'%s: %s", o->output,
			 o->output_default ? " (the default output file; name another with -o)" :
					     "", reason);
		return err;
	}
	err = report__read(o, o->input, &in, &info, why, size);
	if (!err && o->base) {
		err = report__read(o, o->base, &base, &base_info, why, size);
		sum->base_samples = profile__samples(&base);
		sum->base_format = profileread__format_name(base_info.format);
	}
	if (err) {
		*usage = err != -ENOMEM;
		goto out;
	}
	*usage = false;
	sum->samples = profile__samples(&in);
	sum->format = profileread__format_name(info.format);
	/* a pprof's pid and tid labels are shown as record shows them */
	out.per_pid |= info.format == PROFILEREAD_PPROF && info.pprof.pid;
	out.per_thread |= info.format == PROFILEREAD_PPROF && info.pprof.tid;
	out.period_ns = info.format == PROFILEREAD_PPROF ? info.pprof.period_ns : 0;
	if (o->base) {
		err = diff__profiles(&d, &base, &in);
		p = &d;
	}
	err = err ?: out.format->write_profile(outfile__stream(of), p, &out, &sum->rows);
	err = err ? outfile__error(of) ?: err : outfile__commit(of);
	if (err)
		snprintf(why, size, "cannot write the %s to %s: %s", o->base ? "diff" : "profile",
			 outfile__name(of), strerror(-err));
out:
	outfile__free(of);
	profile__free(&in);
	profile__free(&base);
	profile__free(&d);
	return err;
}
