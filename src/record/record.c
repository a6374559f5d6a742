// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The record mode: after sampling, the counts and stacks maps become one
 * symbolized profile, written in the -f format; then the warnings, the
 * summary line and --stats. The top level of the subcommand with the core.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "drain-session.h"
#include "drain.h"
#include "escape.h"
#include "interval.h"
#include "kptr.h"
#include "record.h"
#include "sideband.h"
#include "unwind-session.h"

struct record {
	const struct record_opts *o;
	struct unwind_session *us;
	struct drain_session *ds;
	struct interval *iv; /* --interval; NULL: one profile */
	struct output_opts out; /* the format, its options and the run (open) */
	char *target;           /* out.run's */
	char *events;           /* out.run's: the -e events' names, ',' between */
	struct profile p; /* filled by the drains while sampling runs, and at the end */
	size_t rows; /* the stacks as written (the folded file's lines) */
};

static void record__summary(const struct record *r, struct session *s)
{
	const struct profile *p = &r->p;
	const uint64_t *st = p->stats;
	/* The busiest CPU shows throttling; idle CPUs barely tick. */
	double hz = p->duration > 0 ? p->busiest[STAT_SEEN] / p->duration : 0;
	uint64_t lost = profile__lost(p);

	fprintf(stderr, "bpfprof: %" PRIu64 " samples kept, %" PRIu64 " lost", st[STAT_KEPT],
		lost);
	if (lost)
		fprintf(stderr, " (stacks map full: %" PRIu64 ", counts map full: %" PRIu64
			"; raise --max-stacks)",
			st[STAT_DROP_STACKS_FULL], st[STAT_DROP_COUNTS_FULL] + st[STAT_DROP_SCRATCH]);
	if (r->iv)
		fprintf(stderr, ", %u profile%s of %g s, %.2f s", interval__files(r->iv),
			interval__files(r->iv) == 1 ? "" : "s", r->o->interval, p->duration);
	else
		fprintf(stderr, ", %zu unique stacks, %.2f s", r->rows, p->duration);
	/* several events: each its own rate, on lines of their own */
	if (p->nr_events < 2) {
		fputs(", ", stderr);
		session__print_rate(s, hz);
	}
	if (st[STAT_USTACK_FAULT])
		fprintf(stderr, ", %" PRIu64 " user stacks unreadable", st[STAT_USTACK_FAULT]);
	if (st[STAT_TARGETS_FULL])
		fprintf(stderr, ", %" PRIu64 " forked children not followed",
			st[STAT_TARGETS_FULL]);
	if (r->iv) {
		fputs("; profiles written to '", stderr);
		escape__write(stderr, r->o->session.output, strlen(r->o->session.output));
		fputc('\'', stderr);
	}
	session__print_output(s, "profile");
	fputc('\n', stderr);
}

void record__event_summary(const char *prog, const struct profile_event *events, size_t nr,
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

/* --stats: how the user stack walks ended, the unwind tables. */
static void record__unwind_stats(const struct profile *p, const struct unwind_session_stats *st)
{
	static const char *const ends[WALK__MAX] = {
		[WALK_COMPLETE] = "complete (reached the outermost frame)",
		[WALK_TRUNCATED] = "truncated at --max-depth",
		[WALK_FP_END] = "ended by a frame-pointer step",
		[WALK_NO_TABLE] = "stopped at code without a table",
		[WALK_FAULT] = "stopped by an unreadable stack address",
		[WALK_INVALID] = "stopped by CFI it cannot follow",
		[WALK_NO_MAPPING] = "stopped at an address in no known mapping",
		[WALK_NO_PROCESS] = "frame pointers: no mapping table for the process yet",
	};
	const struct unwinder_stats *us = st->uw;
	uint64_t walks = 0;

	for (int i = 0; i < WALK__MAX; i++)
		walks += p->stats[STAT_WALK_FIRST + i];
	fprintf(stderr, "bpfprof: stats: %" PRIu64 " user stack walks:\n", walks);
	for (int i = 0; i < WALK__MAX; i++)
		fprintf(stderr, "bpfprof: stats:   %10" PRIu64 " %5.1f%%  %s\n",
			p->stats[STAT_WALK_FIRST + i],
			walks ? 100.0 * p->stats[STAT_WALK_FIRST + i] / walks : 0.0, ends[i]);
	fprintf(stderr, "bpfprof: stats: %" PRIu64 " frames found by frame pointers in "
			"binaries without a table yet\n",
		p->stats[STAT_WALK_FP_FRAMES]);
	fprintf(stderr, "bpfprof: stats: tables: %u loaded (%u from the cache), %" PRIu64
			" rows, %.1f KiB; %u without CFI, %u did not fit (--unwind-memory)\n",
		us->tables, us->cached, us->rows, us->bytes / 1024.0, us->no_cfi, us->full);
	fprintf(stderr, "bpfprof: stats: tables: %u evicted (least recently sampled), "
			"%u loaded again when walks needed them\n",
		us->evicted, us->reloaded);
	fprintf(stderr, "bpfprof: stats: mapping tables: %u written, up to %u executable "
			"mappings a process; %u processes had more (frame pointers in the "
			"rest)\n",
		us->updates, st->maps_cap, us->maps_cut);
	fprintf(stderr, "bpfprof: stats: tables loaded before sampling in %.3f s; the "
			"slowest table %.1f ms (%s)\n",
		st->load_s, us->max_build_ns / 1e6,
		us->max_build_name ? us->max_build_name : "-");
	if (us->holds)
		fprintf(stderr, "bpfprof: stats: processes stopped while their tables were "
				"built: %u time%s, %.3f s in all, %.3f s at most "
				"(--no-unwind-hold)\n",
			us->holds, us->holds == 1 ? "" : "s", us->held_ns / 1e9, us->max_held_ns / 1e9);
	if (us->latencies)
		fprintf(stderr, "bpfprof: stats: %u tables loaded while sampling, %.1f ms "
				"on average from the mapping (or the walk asking) to the "
				"table in use, %.1f ms at most\n",
			us->latencies, us->latency_ns / 1e6 / us->latencies,
			us->max_latency_ns / 1e6);
}

/* --stats: the samples, how the user stacks were unwound, the side band, the program's cost. */
static void record__stats(const struct record *r, struct session *s, const struct profile *p)
{
	const struct sideband *sb = session__sideband(s);
	struct unwind_session_stats st;
	struct drain_session_stats ds;
	uint64_t ns = 0, runs = 0;
	size_t indexed, reused;

	unwind_session__stats(r->us, &st);
	if (r->o->session.targets.idle)
		fprintf(stderr, "bpfprof: stats: samples: %" PRIu64 " seen (the idle task's kept: "
				"--idle), %" PRIu64 " of no target\n",
			p->stats[STAT_SEEN], p->stats[STAT_FILTERED]);
	else
		fprintf(stderr, "bpfprof: stats: samples: %" PRIu64 " seen, %" PRIu64 " of the idle "
				"task dropped (--idle keeps them), %" PRIu64 " of no target\n",
			p->stats[STAT_SEEN], p->stats[STAT_IDLE], p->stats[STAT_FILTERED]);
	fprintf(stderr, "bpfprof: stats: unwinding %s\n",
		!st.uw ? "by frame pointers (--unwind=fp)" :
		st.dwarf_only ? "by DWARF tables only (--unwind=dwarf)" :
				"by DWARF tables, frame pointers elsewhere");
	if (st.uw)
		record__unwind_stats(p, &st);
	if (r->iv)
		fprintf(stderr, "bpfprof: stats: stacks: %u profiles written (--interval), the "
				"last with %zu", interval__files(r->iv), p->nr);
	else
		fprintf(stderr, "bpfprof: stats: stacks: %zu written (the summary's unique "
				"stacks)", r->rows);
	if (!r->iv && p->nr != r->rows)
		fprintf(stderr, ", %zu in the profile (the output showed some alike)", p->nr);
	fprintf(stderr, "; the profile holds %.1f MiB%s\n", profile__memory(p) / 1048576.0,
		p->drop_lines ? " (no source files or lines: --lines keeps them)" : "");
	drain_session__stats(r->ds, &ds);
	fprintf(stderr, "bpfprof: stats: stack sets: %u taken while sampling (%u a quarter full), "
			"the fullest %.0f%% when switched, the longest take %.3f s\n",
		ds.drains, ds.by_fill, 100 * ds.max_use, ds.max_drain_s);
	if (ds.switch_err)
		fprintf(stderr, "bpfprof: stats: stack sets drained only at the end: no grace "
				"period (membarrier: %s)\n",
			strerror(-ds.switch_err));
	fprintf(stderr, "bpfprof: stats: processes: %zu tracked, %" PRIu64 " forgotten "
			"(exited, their samples drained), with %" PRIu64 " JIT maps; %" PRIu64
			" binaries freed (mapped by no process any more)\n",
		proc_table__nr_processes(session__procs(s)), ds.forgotten, ds.jit_maps_freed,
		ds.released);
	symbolizer__dwarf_stats(session__symbolizer(s), &indexed, &reused);
	fprintf(stderr, "bpfprof: stats: DWARF: %zu files indexed, %zu times reused for "
			"another binary of the same file\n",
		indexed, reused);
	fprintf(stderr, "bpfprof: stats: side band: %" PRIu64 " records read after a newer "
			"one and put back in time order, %" PRIu64 " too late for it\n",
		sideband__reordered(sb), sideband__late(sb));
	if (session__prog_stats(s, &ns, &runs))
		fprintf(stderr, "bpfprof: stats: BPF run time unknown (cannot enable "
				"kernel.bpf_stats_enabled)\n");
	else
		fprintf(stderr, "bpfprof: stats: BPF program: %" PRIu64 " runs, %.0f ns per "
				"sample on average\n",
			runs, (double)ns / runs);
}

static bool has_kernel_frames(const struct profile *p)
{
	for (size_t i = 0; i < p->nr_frames; i++)
		if (p->frames[i].kind == FRAME_KERNEL)
			return true;
	return false;
}

/*
 * An empty profile: a stop signal while bpfprof started ended sampling as
 * it began (shorter than a sample period); a command that used less CPU
 * time than one sample period was simply too short to be sampled; else the
 * targets did not run where samples were taken.
 */
static void record__why_none(struct session *s)
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
void record__warnings(struct session *s, const struct profile *p, uint64_t samples)
{
	const struct symbolizer *sym = session__symbolizer(s);
	size_t refused, capped, oversized;
	const char *first;
	uint64_t ignored, rate0, rate1;
	char why[160];
	pid_t pid;

	if (has_kernel_frames(p) && symbolizer__kernel_hidden(sym)) {
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
		record__why_none(s);
}

static void record__put_ids(FILE *f, const char *what, const struct idlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		fprintf(f, "%s%d", i ? "," : what, l->ids[i]);
}

char *record__target(const struct target_opts *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (char **arg = t->command; arg && *arg; arg++)
		fprintf(f, "%s%s", arg == t->command ? "" : " ", *arg);
	if (!t->command) {
		record__put_ids(f, "pid ", &t->pids);
		record__put_ids(f, t->pids.nr ? " tid " : "tid ", &t->tids);
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

/* The events' names, ',' between: what the run sampled. NULL: out of memory. */
static char *record__events(const struct sampling_opts *so)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < so->nr_events; i++)
		fprintf(f, "%s%s", i ? "," : "", so->events[i].name);
	if (fclose(f) || !buf) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The format, its options and what the run is, for every profile written. */
static int record__open(struct session *s, void *priv)
{
	struct record *r = priv;
	const struct sampling_opts *so = &r->o->session.sampling;

	r->out = r->o->out;
	/* a clock event's period: what a sample stands for in CPU time (pprof) */
	if (session__period_ns(s, &r->out.period_ns))
		r->out.period_ns = 0;
	r->target = record__target(&r->o->session.targets);
	if (!r->target)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	r->events = record__events(so);
	if (!r->events)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	r->out.run = (struct output_run){ r->target, r->events,
					  so->use_period ? so->period : so->freq,
					  so->use_period };
	return 0;
}

static int record__configure(struct session *s, void *priv, struct loader_cfg *cfg)
{
	struct record *r = priv;

	(void)s;
	cfg->per_thread = r->o->out.per_thread;
	return 0;
}

static int record__finish(struct session *s, void *priv)
{
	struct record *r = priv;
	const struct record_opts *o = r->o;
	struct profile *p = &r->p;
	uint64_t samples;
	int err, status;

	status = drain_session__profile(r->ds, s);
	if (status)
		return status;
	if (r->iv) {
		status = interval__finish(r->iv, s, p);
		samples = interval__samples(r->iv);
	} else {
		err = o->out.format->write_profile(session__out(s), p, &r->out, &r->rows);
		status = session__commit(s, err, "profile");
		samples = profile__samples(p);
	}
	if (!status) {
		record__warnings(s, p, samples);
		if (!o->session.quiet) {
			record__summary(r, s);
			record__event_summary("bpfprof", p->events, p->nr_events, p->duration);
		}
		if (o->stats)
			record__stats(r, s, p);
	}
	return status;
}

static const struct session_hooks record_hooks = {
	.open = record__open,
	.configure = record__configure,
	.finish = record__finish,
};

int record__run(const struct record_opts *o)
{
	struct record r = { .o = o, .us = unwind_session__new(&o->unwind),
			    .p.drop_lines = output__drop_lines(&o->out),
			    .p.keep_bins = output__keep_bins(&o->out) };
	/* with --interval -o names the intervals' files: the run's own output is none */
	struct session_opts so = o->session;
	struct session_plug plugs[4];
	size_t n = 0;
	int status = EXIT_RUNTIME;

	r.ds = drain_session__new(&r.p, o->out.per_pid, true);
	if (o->interval) {
		so.output = NULL;
		r.iv = r.ds ? interval__new(o->session.output, o->interval, r.ds, &r.out) : NULL;
	}
	/* the unwinder first: its tables are loaded before anything else starts */
	plugs[n++] = (struct session_plug){ &unwind_session_hooks, r.us };
	plugs[n++] = (struct session_plug){ &drain_session_hooks, r.ds };
	if (r.iv)
		plugs[n++] = (struct session_plug){ &interval_hooks, r.iv };
	plugs[n++] = (struct session_plug){ &record_hooks, &r };
	if (!r.us || !r.ds || (o->interval && !r.iv))
		fprintf(stderr, "bpfprof: out of memory\n");
	else
		status = session__main(&so, "bpfprof", plugs, n);
	interval__free(r.iv);
	drain_session__free(r.ds);
	unwind_session__free(r.us);
	profile__free(&r.p);
	free(r.target);
	free(r.events);
	return status;
}
