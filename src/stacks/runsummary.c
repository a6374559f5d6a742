// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a run that samples stacks says of itself, in record's words and
 * the live top's: its targets, its warnings, its events' lines.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "escape.h"
#include "kptr.h"
#include "runsummary.h"

static bool run_summary__kernel_frames(const struct profile *p)
{
	for (size_t i = 0; i < p->nr_frames; i++)
		if (p->frames[i].kind == FRAME_KERNEL)
			return true;
	return false;
}

/*
 * An empty profile: a stop signal while bpfprof started ended sampling as
 * it began (shorter than a sample period); a command that used less CPU
 * time than one sample period was simply too short to be sampled; else the targets did not run
 * where samples were taken.
 */
static void run_summary__why_none(struct session *s)
{
	uint64_t cpu, period;

	if (session__stopping(s) && !session__period_ns(s, &period) &&
	    session__seconds(s) * 1e9 < period) {
		session__warn(s, "no samples were recorded: a stop signal came while bpfprof "
				 "was starting, and sampling ended as it began");
		return;
	}
	if (!session__command_cpu_ns(s, &cpu) && !session__period_ns(s, &period) &&
	    cpu < period) {
		session__warn(s, "no samples were recorded: the command ran for %.1f ms of CPU "
				 "time, less than one sample period (%.1f ms): sample more often (-F) "
				 "or give it more work",
			      cpu / 1e6, period / 1e6);
		return;
	}
	session__warn(s, "no samples were recorded: the targets did not run on a sampled CPU");
}

/* @samples: in the profile, or in every interval's file */
void run_summary__warnings(struct session *s, const struct profile *p, uint64_t samples)
{
	const struct symbolizer *sym = session__symbolizer(s);
	size_t refused, capped, oversized;
	const char *first;
	uint64_t ignored, rate0, rate1;
	char why[160];
	pid_t pid;

	if (run_summary__kernel_frames(p) && symbolizer__kernel_hidden(sym)) {
		kptr__why_hidden(why, sizeof(why));
		session__warn(s, "kernel symbols are hidden, kernel frames are shown as "
				 "addresses: %s", why);
	}
	refused = symbolizer__perfmaps_refused(sym, &pid);
	if (refused)
		session__warn(s, "refused the JIT map /tmp/perf-%d.map%s: not owned by the "
				 "process's user or root",
			      pid, refused > 1 ? " and others" : "");
	capped = symbolizer__perfmaps_capped(sym, &pid, &ignored);
	if (capped)
		session__warn(s, "JIT map /tmp/perf-%d.map%s larger than --jit-map-max: %" PRIu64
				 " bytes not read; frames there show as [anon+0xADDR]",
			      pid, capped > 1 ? " and others" : "", ignored);
	oversized = symbolizer__perfmap_oversized(sym, &pid);
	if (oversized)
		session__warn(s, "JIT map /tmp/perf-%d.map%s: %zu entr%s with an impossible size, "
				 "cut at the next entry",
			      pid, oversized > 1 ? " and others" : "", oversized,
			      oversized == 1 ? "y" : "ies");
	if (proc_table__no_openat2(session__procs(s)))
		session__warn(s, "openat2 is not available (Linux < 5.6, or a seccomp filter): "
				 "files inside processes' roots were not opened by path");
	refused = symbolizer__binaries_denied(sym, &first);
	if (refused)
		session__warn(s, "cannot read %s%s: its frames are shown as [BINARY+0xOFFSET]; %s",
			      first, refused > 1 ? " (and other binaries)" : "",
			      caps__why_unreadable());
	refused = symbolizer__files_refused(sym, &first);
	if (refused)
		session__warn(s, "refused %s%s", first,
			      refused > 1 ? " (and files of other binaries)" : "");
	if (p->sideband_lost)
		session__warn(s, "%" PRIu64 " process/mapping records lost; some frames may "
				 "show as [binary+0xOFFSET]",
			      p->sideband_lost);
	session__max_rates(s, &rate0, &rate1);
	if (rate1 && rate1 < rate0)
		session__warn(s, "the kernel throttled sampling: perf_event_max_sample_rate "
				 "lowered from %" PRIu64 " to %" PRIu64 " (samples took too long)",
			      rate0, rate1);
	if (!samples)
		run_summary__why_none(s);
}

static void run_summary__put_ids(FILE *f, const char *what, const struct idlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		fprintf(f, "%s%d", i ? "," : what, l->ids[i]);
}

char *run_summary__target(const struct target_opts *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (char **arg = t->command; arg && *arg; arg++)
		fprintf(f, "%s%s", arg == t->command ? "" : " ", *arg);
	if (!t->command) {
		run_summary__put_ids(f, "pid ", &t->pids);
		run_summary__put_ids(f, t->pids.nr ? " tid " : "tid ", &t->tids);
		if (t->cgroup)
			fprintf(f, "%scgroup %s", t->pids.nr || t->tids.nr ? " " : "", t->cgroup);
		if (!t->pids.nr && !t->tids.nr && !t->cgroup)
			fputs("the whole system", f);
	}
	if (fclose(f) || !buf) {
		free(buf);
		return NULL;
	}
	return buf;
}

void run_summary__events(const char *prog, const struct profile_event *events, size_t nr,
			   double seconds)
{
	double secs = seconds > 0 ? seconds : 0;

	for (size_t i = 0; i < nr; i++) {
		const struct profile_event *e = &events[i];

		fprintf(stderr, "%s: ", prog);
		escape__write(stderr, e->name, strlen(e->name));
		fprintf(stderr, ": %" PRIu64 " samples kept, %" PRIu64 " lost, effective rate ",
			e->stats[EVENT_STAT_KEPT], e->stats[EVENT_STAT_LOST]);
		if (e->period_ns)
			fprintf(stderr, "%.1f Hz on the busiest CPU\n",
				secs ? e->busiest[EVENT_STAT_SEEN] / secs : 0);
		else
			fprintf(stderr, "%.1f samples per second\n",
				secs ? e->stats[EVENT_STAT_KEPT] / secs : 0);
	}
}
