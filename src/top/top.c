// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The live top mode: windows of --delay seconds (drain_session__set_window:
 * the drain plug cuts them out of the stack sets); at each end the window's
 * table of functions computed (toptable.c) and shown (topview.c); the
 * drain plug then empties the profile for the next one. The top level of
 * the subcommand with the core.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drain-session.h"
#include "runsummary.h"
#include "stacks.h"
#include "top.h"
#include "topscreen.h"
#include "toptable.h"
#include "topview.h"

struct top {
	const struct top_opts *o;
	struct top_screen *ts;
	struct stacks stacks; /* its profile: the window's samples */
	double seen_s;      /* the windows' seconds */
	uint64_t seen_busiest; /* each window's busiest CPU's samples seen, summed */
	char rate[48];
	char *target;
	unsigned int refreshes;
	double last_s;      /* > 0: the last refresh was the end's, this short */
	uint64_t samples, lost; /* in the refreshes shown */
	/* several events: each one's counters summed over the refreshes shown */
	struct profile_event *events;
	size_t nr_events;
};

/* The window's table, shown. 0 or -errno. */
static int top__show(struct session *s, struct top *t, double seconds)
{
	const struct output_opts out = { 0 };
	struct top_table tt;
	struct top_view v = { .seconds = seconds, .lost = profile__lost(&t->stacks.p),
			      .hz = seconds > 0 ? t->stacks.p.busiest[STAT_SEEN] / seconds : 0,
			      .rate = t->rate, .event = t->o->session.sampling.events[0].name,
			      .events = t->stacks.p.events,
			      .target = t->target, .limit = t->o->limit,
			      .screen = top_screen__full(t->ts) };
	int err = top_table__build(&tt, &t->stacks.p, &out);

	if (!err) {
		if (!v.screen && !v.limit)
			v.limit = TOP_DEFAULT_PLAIN_ROWS;
		top_screen__enter(t->ts);
		top_screen__size(t->ts, &v.rows, &v.cols);
		err = top_view__put(session__out(s), &tt, &v);
	}
	top_table__free(&tt);
	return err;
}

/* A refresh (drain_session__set_window): the window's table shown. 0 or the exit status. */
static int top__refresh(struct session *s, struct profile *p, void *ctx)
{
	struct top *t = ctx;
	int err = top__show(s, t, p->duration);

	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot write the table to %s: %s",
				     t->o->session.output ? t->o->session.output :
							    "standard output",
				     strerror(-err));
	t->refreshes++;
	t->samples += profile__samples(p);
	t->lost += profile__lost(p);
	t->seen_s += p->duration;
	t->seen_busiest += p->busiest[STAT_SEEN];
	for (size_t i = 0; i < t->nr_events && i < p->nr_events; i++) {
		for (int j = 0; j < EVENT_STAT__MAX; j++) {
			t->events[i].stats[j] += p->events[i].stats[j];
			/* each window's busiest CPU, as the run's rate */
			t->events[i].busiest[j] += p->events[i].busiest[j];
		}
	}
	return 0;
}

/*
 * Plain text (not the full screen, gone by now): the time since the last
 * refresh as one more, shorter table, as record --interval writes its last
 * interval; so a run shorter than --delay (-d 1 --delay 2) writes one
 * table, not none. Left out when it is empty after a refresh (the run
 * ended right at one). 0 or the exit status.
 */
static int top__last(struct session *s, struct top *t)
{
	int status;

	if (top_screen__full(t->ts))
		return 0;
	status = drain_session__profile(t->stacks.ds, s);
	if (status)
		return status;
	drain_session__last_window(t->stacks.ds);
	if (t->refreshes && !profile__samples(&t->stacks.p))
		return 0;
	status = top__refresh(s, &t->stacks.p, t);
	if (!status)
		t->last_s = t->stacks.p.duration;
	return status;
}

/*
 * The end: the last, shorter table (plain text); -o's file committed;
 * unless -q, record's warnings (the kernel's throttling, what the
 * symbolizer refused), then the refreshes shown: with several events, a
 * line each as record's summary has them.
 */
static int top__finish(struct session *s, void *priv)
{
	struct top *t = priv;
	int status = top__last(s, t) ?: session__commit(s, 0, "tables");

	if (status || t->o->session.quiet)
		return status;
	run_summary__warnings(s, &t->stacks.p, t->samples);
	fprintf(stderr, "bpfprof top: %u refresh%s of %g s", t->refreshes,
		t->refreshes == 1 ? "" : "es", t->o->delay);
	if (t->last_s > 0)
		fprintf(stderr, " (the last %.2f s)", t->last_s);
	fprintf(stderr, ", %" PRIu64 " samples, %" PRIu64 " lost, %.2f s", t->samples, t->lost,
		session__seconds(s));
	/* each window's busiest CPU; several events: each its own rate, below */
	if (!t->nr_events) {
		fputs(", ", stderr);
		session__print_rate(s, t->seen_s > 0 ? t->seen_busiest / t->seen_s : 0);
	}
	session__print_output(s, "tables");
	fputc('\n', stderr);
	for (size_t i = 0; i < t->nr_events; i++)
		if (session__event_period_ns(s, i, &t->events[i].period_ns))
			t->events[i].period_ns = 0;
	run_summary__events("bpfprof top", t->events, t->nr_events, t->seen_s);
	return 0;
}

static const struct session_hooks top_hooks = {
	.finish = top__finish,
};

int top__run(const struct top_opts *o)
{
	const struct sampling_opts *so = &o->session.sampling;
	struct top t = { .o = o,
			 .ts = top_screen__new(!o->session.output ||
					       !strcmp(o->session.output, "-")),
			 .target = run_summary__target(&o->session.targets),
			 /* no lines, no binaries: a row per function */
			 .stacks.p.drop_lines = true };
	struct session_plug plugs[4];
	size_t n;
	int status = EXIT_RUNTIME, err;

	if (so->nr_events > 1) {
		t.events = calloc(so->nr_events, sizeof(*t.events));
		t.nr_events = t.events ? so->nr_events : 0;
		for (size_t i = 0; i < t.nr_events; i++)
			t.events[i].name = so->events[i].name;
	}
	err = stacks__init(&t.stacks, &o->unwind, false, true);
	if (t.stacks.ds)
		drain_session__set_window(t.stacks.ds, o->delay, top__refresh, &t);
	if (so->use_period)
		snprintf(t.rate, sizeof(t.rate), "period %llu", so->period);
	else
		snprintf(t.rate, sizeof(t.rate), "%llu Hz", so->freq);
	n = stacks__plugs(&t.stacks, plugs);
	plugs[n++] = (struct session_plug){ &top_screen_hooks, t.ts };
	plugs[n++] = (struct session_plug){ &top_hooks, &t };
	if (err || !t.ts || !t.target || (so->nr_events > 1 && !t.events))
		fprintf(stderr, "bpfprof top: out of memory\n");
	else
		status = session__main(&o->session, "bpfprof top", plugs, n);
	top_screen__free(t.ts);
	stacks__free(&t.stacks);
	free(t.target);
	free(t.events);
	return status;
}
