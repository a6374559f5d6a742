// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The live top mode: a timer every --delay seconds; at each, the window's
 * samples cut out of the stack sets (drain_session__cut), its table of
 * functions computed (toptable.c) and shown (topview.c), then the profile
 * emptied for the next window. The top level of the subcommand with the
 * core.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "array.h"
#include "drain-session.h"
#include "record.h"
#include "top.h"
#include "topscreen.h"
#include "toptable.h"
#include "topview.h"
#include "unwind-session.h"

struct top {
	const struct top_opts *o;
	struct unwind_session *us;
	struct drain_session *ds;
	struct top_screen *ts;
	struct profile p;   /* the window's samples */
	int timerfd;
	double start_s;     /* the window's start, seconds into the run */
	uint64_t seen[STAT__MAX], seen_max[STAT__MAX]; /* the counters then */
	char rate[48];
	char *target;
	unsigned int refreshes;
	uint64_t samples, lost; /* in the refreshes shown */
};

static int top__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct top *t = priv;
	long long ns = (long long)(t->o->delay * 1e9);
	struct itimerspec its;

	(void)cfg;
	its.it_value.tv_sec = its.it_interval.tv_sec = ns / 1000000000;
	its.it_value.tv_nsec = its.it_interval.tv_nsec = ns % 1000000000;
	t->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (t->timerfd < 0 || timerfd_settime(t->timerfd, 0, &its, NULL))
		return session__fail(s, EXIT_RUNTIME, "cannot set up the refresh timer: %s",
				     strerror(errno));
	return 0;
}

static int top__fd(void *priv)
{
	struct top *t = priv;

	return t->timerfd;
}

/* The window's table, shown. 0 or -errno. */
static int top__show(struct session *s, struct top *t, double seconds)
{
	const struct output_opts out = { 0 };
	struct top_table tt;
	struct top_view v = { .seconds = seconds, .lost = profile__lost(&t->p),
			      .hz = seconds > 0 ? t->p.busiest[STAT_SEEN] / seconds : 0,
			      .rate = t->rate, .event = t->o->session.sampling.event,
			      .target = t->target, .limit = t->o->limit,
			      .screen = top_screen__full(t->ts) };
	int err = top_table__build(&tt, &t->p, &out);

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

/* A refresh: the window cut out, its counters, its table shown, the profile emptied. */
static int top__ready(struct session *s, void *priv)
{
	struct top *t = priv;
	uint64_t ticks, sum[STAT__MAX], max[STAT__MAX];
	double end_s = session__elapsed(s);
	struct drain_session_stats st;
	int err;

	if (read(t->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return -errno;
	err = drain_session__cut(t->ds, s, sum, max);
	if (err == -EINTR)
		return 0; /* a stop signal: the run ends */
	if (err == -ENOTSUP) {
		drain_session__stats(t->ds, &st);
		session__stop(s, session__fail(s, EXIT_RUNTIME, "cannot refresh: the stack "
					       "sets cannot be switched (membarrier: %s)",
					       strerror(-st.switch_err)));
		return 0;
	}
	if (err)
		return err;
	for (int i = 0; i < STAT__MAX; i++) {
		t->p.stats[i] = sum[i] - t->seen[i];
		t->p.busiest[i] = max[i] - t->seen_max[i];
	}
	memcpy(t->seen, sum, sizeof(sum));
	memcpy(t->seen_max, max, sizeof(max));
	err = top__show(s, t, end_s - t->start_s);
	if (err) {
		session__stop(s, session__fail(s, EXIT_RUNTIME, "cannot write to standard "
					       "output: %s", strerror(-err)));
		return 0;
	}
	t->refreshes++;
	t->samples += profile__samples(&t->p);
	t->lost += profile__lost(&t->p);
	drain_session__restart(t->ds);
	t->start_s = end_s;
	return 0;
}

/* The end: -o's file committed; the refreshes shown, unless -q. */
static int top__finish(struct session *s, void *priv)
{
	struct top *t = priv;
	int status = session__commit(s, 0, "tables");

	if (status || t->o->session.quiet)
		return status;
	fprintf(stderr, "bpfprof top: %u refresh%s of %g s, %" PRIu64 " samples, %" PRIu64
			" lost, %.2f s, ",
		t->refreshes, t->refreshes == 1 ? "" : "es", t->o->delay, t->samples, t->lost,
		session__seconds(s));
	/* the busiest CPU up to the last refresh */
	session__print_rate(s, t->start_s > 0 ? t->seen_max[STAT_SEEN] / t->start_s : 0);
	session__print_output(s, "tables");
	fputc('\n', stderr);
	return 0;
}

static void top__end(struct session *s, void *priv)
{
	struct top *t = priv;

	(void)s;
	if (t->timerfd >= 0)
		close(t->timerfd);
	t->timerfd = -1;
}

static const struct session_hooks top_hooks = {
	.start = top__start,
	.fd = top__fd,
	.ready = top__ready,
	.finish = top__finish,
	.end = top__end,
};

int top__run(const struct top_opts *o)
{
	const struct sampling_opts *so = &o->session.sampling;
	struct top t = { .o = o, .us = unwind_session__new(&o->unwind),
			 .ts = top_screen__new(!o->session.output ||
					       !strcmp(o->session.output, "-")),
			 .timerfd = -1,
			 .target = record__target(&o->session.targets),
			 /* no lines, no binaries: a row per function */
			 .p.drop_lines = true };
	int status = EXIT_RUNTIME;

	t.ds = drain_session__new(&t.p, false, true);
	if (so->use_period)
		snprintf(t.rate, sizeof(t.rate), "period %llu", so->period);
	else
		snprintf(t.rate, sizeof(t.rate), "%llu Hz", so->freq);
	/* the unwinder first: its tables are loaded before anything else starts */
	const struct session_plug plugs[] = {
		{ &unwind_session_hooks, t.us },
		{ &drain_session_hooks, t.ds },
		{ &top_screen_hooks, t.ts },
		{ &top_hooks, &t },
	};

	if (!t.us || !t.ds || !t.ts || !t.target)
		fprintf(stderr, "bpfprof top: out of memory\n");
	else
		status = session__main(&o->session, "bpfprof top", plugs, ARRAY_SIZE(plugs));
	top_screen__free(t.ts);
	drain_session__free(t.ds);
	unwind_session__free(t.us);
	profile__free(&t.p);
	free(t.target);
	return status;
}
