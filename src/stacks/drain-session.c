// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "array.h"
#include "drain-session.h"
#include "drain.h"
#include "monotime.h"
#include "sideband.h"

/* How often the fill is looked at; a set takes 1/50 s of samples between looks. */
#define DRAIN_CHECK_NS 20000000L
/* While taken entries wait to be symbolized: a slice of work, then a look again. */
#define DRAIN_BUSY_NS 5000000L
#define DRAIN_SLICE_NS 20000000ULL
/*
 * A set is taken when it is this full: the rest takes the samples that
 * come while the set is switched and taken out (a busy machine may keep
 * bpfprof off the CPU for a while)...
 */
#define DRAIN_FILL 0.25
/* ...or this long after the last take, so the profile and the table keep up. */
#define DRAIN_SECONDS 1.0

/* An exited process, forgotten once take number @after is symbolized. */
struct exited {
	pid_t tgid;
	unsigned int after;
};

struct drain_session {
	struct profile *p;
	bool by_pid;
	bool forget;
	const char *const *ranges;
	bool leaf_after;
	struct drain *d;
	int timerfd;
	uint64_t last_ns;  /* the last take */
	bool busy;         /* the timer runs at DRAIN_BUSY_NS: entries wait */
	unsigned int switches; /* sets switched; take n empties what switch n took away */
	struct exited *exited;
	size_t nr_exited, cap_exited;
	struct drain_session_stats st;
	/* windows (drain_session__set_window): their length, what takes them */
	double window_s;
	drain_window_fn window_fn;
	void *window_ctx;
	double window_start_s;  /* this one's start, seconds into the run */
	double window_end_s;    /* and its end: window_s after the start */
	uint64_t seen[STAT__MAX], seen_max[STAT__MAX]; /* the counters then */
	uint64_t seen_sideband_lost;
	struct profile_event *events; /* the profile's, with several -e events */
	/* per event, its counters at the last window's end: EVENT_STAT__MAX sums, then maxima */
	uint64_t *events_seen;
};

struct drain_session *drain_session__new(struct profile *p, bool by_pid, bool forget)
{
	struct drain_session *ds = calloc(1, sizeof(*ds));

	if (!ds)
		return NULL;
	ds->p = p;
	ds->by_pid = by_pid;
	ds->forget = forget;
	ds->timerfd = -1;
	return ds;
}

static void drain_session__end(struct session *s, void *priv);

void drain_session__free(struct drain_session *ds)
{
	if (!ds)
		return;
	drain_session__end(NULL, ds);
	free(ds->events);
	free(ds->events_seen);
	free(ds->exited);
	free(ds);
}

void drain_session__set_ranges(struct drain_session *ds, const char *const *ranges)
{
	ds->ranges = ranges;
}

void drain_session__set_leaf_after(struct drain_session *ds, bool after)
{
	ds->leaf_after = after;
}

/* Every event's counters, the whole run's so far, into the profile's events. 0 or -errno. */
static int drain_session__read_events(struct drain_session *ds, struct loader *l)
{
	struct profile *p = ds->p;
	int err = 0;

	for (size_t i = 0; i < p->nr_events && !err; i++)
		err = loader__read_event_stats(l, i, p->events[i].stats, p->events[i].busiest);
	return err;
}

int drain_session__profile(struct drain_session *ds, struct session *s)
{
	struct profile *p = ds->p;
	int err;

	p->ncpus = session__nr_cpus(s);
	p->duration = session__seconds(s);
	p->sideband_lost = sideband__lost(session__sideband(s));
	err = drain_session__final(ds);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot drain the BPF maps: %s",
				     strerror(-err));
	err = loader__read_stats(session__loader(s), p->stats, p->busiest);
	err = err ?: drain_session__read_events(ds, session__loader(s));
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot read the BPF counters: %s",
				     strerror(-err));
	return 0;
}

/*
 * Several -e events: the profile's events, their names and clock periods
 * (the stacks carry their index, the program's attach cookie). 0 or -ENOMEM.
 */
static int drain_session__events(struct drain_session *ds, struct session *s)
{
	const struct sampling_opts *so = &session__opts(s)->sampling;

	if (so->nr_events < 2)
		return 0;
	ds->events = calloc(so->nr_events, sizeof(*ds->events));
	ds->events_seen = calloc(so->nr_events * 2 * EVENT_STAT__MAX, sizeof(*ds->events_seen));
	if (!ds->events || !ds->events_seen)
		return -ENOMEM;
	for (size_t i = 0; i < so->nr_events; i++) {
		ds->events[i].name = so->events[i].name;
		if (session__event_period_ns(s, i, &ds->events[i].period_ns))
			ds->events[i].period_ns = 0;
	}
	ds->p->events = ds->events;
	ds->p->nr_events = so->nr_events;
	return 0;
}

void drain_session__stats(const struct drain_session *ds, struct drain_session_stats *st)
{
	*st = ds->st;
}

/* The drain timer: every DRAIN_BUSY_NS while entries wait, else every DRAIN_CHECK_NS. */
static int drain_session__arm(struct drain_session *ds, bool busy)
{
	long ns = busy ? DRAIN_BUSY_NS : DRAIN_CHECK_NS;
	struct itimerspec its = { .it_interval.tv_nsec = ns, .it_value.tv_nsec = ns };

	ds->busy = busy;
	return timerfd_settime(ds->timerfd, 0, &its, NULL) ? -errno : 0;
}

static int drain_session__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct drain_session *ds = priv;

	(void)cfg;
	ds->d = drain__new(session__loader(s), session__symbolizer(s),
			   session__opts(s)->sampling.stacks, ds->ranges, ds->by_pid, ds->p);
	if (!ds->d || drain_session__events(ds, s))
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	drain__set_leaf_after(ds->d, ds->leaf_after);
	ds->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (ds->timerfd < 0 || drain_session__arm(ds, false))
		return session__fail(s, EXIT_RUNTIME, "cannot set up the drain timer: %s",
				     strerror(errno));
	ds->last_ns = monotime__ns();
	return 0;
}

/*
 * Forget the processes whose samples are all symbolized, then free the
 * binaries none of the processes left maps (what was read of them too):
 * a machine that keeps running new programs does not grow bpfprof.
 */
static void drain_session__forget(struct drain_session *ds, struct session *s)
{
	struct proc_table *pt = session__procs(s);
	unsigned int done = drain__symbolized(ds->d);
	uint64_t before = ds->st.forgotten;
	size_t n = 0;

	for (size_t i = 0; i < ds->nr_exited; i++) {
		if (ds->exited[i].after > done) {
			ds->exited[n++] = ds->exited[i];
			continue;
		}
		if (!proc_table__forget(pt, ds->exited[i].tgid)) {
			if (symbolizer__forget_process(session__symbolizer(s), ds->exited[i].tgid))
				ds->st.jit_maps_freed++;
			ds->st.forgotten++;
		}
	}
	ds->nr_exited = n;
	if (ds->st.forgotten != before)
		ds->st.released += session__release_binaries(s);
}

/* Switch the sets and take the old one out of the kernel: as quick as can be. */
static int drain_session__take(struct session *s, struct drain_session *ds, double use)
{
	uint64_t t0 = monotime__ns();
	unsigned int old;
	int err;

	ds->last_ns = t0;
	err = loader__switch_stack_set(session__loader(s), &old);
	if (err) {
		ds->st.switch_err = err; /* taken once sampling has stopped */
		return 0;
	}
	ds->switches++;
	err = drain__take(ds->d, old);
	if (err)
		return err;
	ds->st.drains++;
	if (use > ds->st.max_use)
		ds->st.max_use = use;
	if ((monotime__ns() - t0) / 1e9 > ds->st.max_drain_s)
		ds->st.max_drain_s = (monotime__ns() - t0) / 1e9;
	return 0;
}

void drain_session__set_window(struct drain_session *ds, double seconds, drain_window_fn done,
			       void *ctx)
{
	ds->window_s = seconds;
	ds->window_end_s = seconds;
	ds->window_fn = done;
	ds->window_ctx = ctx;
}

/* The profile's counters and run: the window's, ending @end_s into the run. */
static void drain_session__window_counters(struct drain_session *ds, double end_s,
					   const uint64_t *sum, const uint64_t *max,
					   uint64_t sideband_lost)
{
	struct profile *p = ds->p;

	for (int i = 0; i < STAT__MAX; i++) {
		p->stats[i] = sum[i] - ds->seen[i];
		/* the busiest CPU's counts are not additive: its growth, a bound */
		p->busiest[i] = max[i] - ds->seen_max[i];
	}
	memcpy(ds->seen, sum, sizeof(ds->seen));
	memcpy(ds->seen_max, max, sizeof(ds->seen_max));
	/* the events' likewise: p->events hold the run's so far */
	for (size_t i = 0; i < p->nr_events; i++) {
		struct profile_event *e = &p->events[i];
		uint64_t *seen = &ds->events_seen[i * 2 * EVENT_STAT__MAX];

		for (int j = 0; j < EVENT_STAT__MAX; j++) {
			uint64_t st = e->stats[j], mx = e->busiest[j];

			e->stats[j] = st - seen[j];
			e->busiest[j] = mx - seen[EVENT_STAT__MAX + j];
			seen[j] = st;
			seen[EVENT_STAT__MAX + j] = mx;
		}
	}
	p->sideband_lost = sideband_lost - ds->seen_sideband_lost;
	ds->seen_sideband_lost = sideband_lost;
	p->duration = end_s - ds->window_start_s;
	ds->window_start_s = end_s;
}

void drain_session__last_window(struct drain_session *ds)
{
	uint64_t sum[STAT__MAX], max[STAT__MAX];
	struct profile *p = ds->p;

	memcpy(sum, p->stats, sizeof(sum));
	memcpy(max, p->busiest, sizeof(max));
	drain_session__window_counters(ds, p->duration, sum, max, p->sideband_lost);
}

/*
 * A window's end: the sets switched and taken, the counters read, every
 * entry symbolized, the window handed over, the profile emptied.
 */
static int drain_session__window(struct session *s, struct drain_session *ds)
{
	struct loader *l = session__loader(s);
	uint64_t sum[STAT__MAX], max[STAT__MAX];
	double end_s = session__elapsed(s);
	struct profile *p = ds->p;
	int err, status;

	/* the next is as long, whenever this one ended (late after a long symbolizing) */
	ds->window_end_s = end_s + ds->window_s;
	err = drain_session__take(s, ds, loader__stack_set_use(l, loader__stack_set(l)));
	if (!err && ds->st.switch_err) {
		session__stop(s, session__fail(s, EXIT_RUNTIME, "cannot end a window of %g s: "
					       "the stack sets cannot be switched "
					       "(membarrier: %s)",
					       ds->window_s, strerror(-ds->st.switch_err)));
		return 0;
	}
	err = err ?: loader__read_stats(l, sum, max);
	err = err ?: drain_session__read_events(ds, l);
	/* the side band's records first: the mappings of what was sampled */
	err = err ?: session__read_sideband(s);
	while (!err && drain__pending(ds->d)) {
		size_t left = drain__pending(ds->d);

		err = drain__symbolize(ds->d, UINT64_MAX);
		if (!err && drain__pending(ds->d) == left) {
			/* a stop signal waits: the end's drain takes the rest */
			ds->window_fn = NULL;
			return 0;
		}
	}
	if (err)
		return err;
	drain_session__forget(ds, s);
	drain_session__window_counters(ds, end_s, sum, max,
				       sideband__lost(session__sideband(s)));
	p->ncpus = session__nr_cpus(s);
	status = ds->window_fn(s, p, ds->window_ctx);
	if (status) {
		session__stop(s, status);
		return 0;
	}
	profile__free(p);
	memset(p->stats, 0, sizeof(p->stats));
	memset(p->busiest, 0, sizeof(p->busiest));
	p->sideband_lost = 0;
	p->duration = 0;
	drain__profile_emptied(ds->d);
	return 0;
}

static int drain_session__fd(void *priv)
{
	struct drain_session *ds = priv;

	return ds->timerfd;
}

/*
 * The fill of the set samples go to, looked at often: a set taken well
 * before it is full, then a slice of symbolizing at a time, so that the
 * next look comes soon whatever is left to symbolize.
 */
static int drain_session__ready(struct session *s, void *priv)
{
	struct drain_session *ds = priv;
	struct loader *l = session__loader(s);
	uint64_t ticks;
	double use;
	int err = 0;

	if (read(ds->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return -errno;
	if (ds->window_fn && session__elapsed(s) >= ds->window_end_s) {
		err = drain_session__window(s, ds);
		if (err || !ds->window_fn || drain__pending(ds->d))
			return err;
		return ds->busy ? drain_session__arm(ds, false) : 0;
	}
	use = ds->st.switch_err ? 0 : loader__stack_set_use(l, loader__stack_set(l));
	if (use >= DRAIN_FILL) {
		ds->st.by_fill++;
		err = drain_session__take(s, ds, use);
	} else if (!ds->st.switch_err &&
		   (monotime__ns() - ds->last_ns) / 1e9 >= DRAIN_SECONDS) {
		err = drain_session__take(s, ds, use);
	}
	/* the side band's records first: the mappings of what was sampled */
	if (!err && drain__pending(ds->d))
		err = session__read_sideband(s);
	err = err ?: drain__symbolize(ds->d, DRAIN_SLICE_NS);
	if (err)
		return err;
	drain_session__forget(ds, s);
	if (ds->busy != (drain__pending(ds->d) > 0))
		return drain_session__arm(ds, !ds->busy);
	return 0;
}

/*
 * An exited process: its samples are in the set now written (which the next
 * switch takes away; the side band may be read during a drain, after its
 * switch), or in one drained before.
 */
static void drain_session__exit(struct session *s, void *priv, pid_t pid)
{
	struct drain_session *ds = priv;

	(void)s;
	if (!ds->forget || ds->st.switch_err)
		return; /* kept to the end (the mode's choice, or no drain before it) */
	if (array__grow((void **)&ds->exited, &ds->cap_exited, ds->nr_exited + 1,
			sizeof(*ds->exited)))
		return; /* not forgotten: only memory */
	ds->exited[ds->nr_exited++] = (struct exited){ .tgid = pid, .after = ds->switches + 1 };
}

int drain_session__final(struct drain_session *ds)
{
	return drain__all(ds->d);
}

static void drain_session__end(struct session *s, void *priv)
{
	struct drain_session *ds = priv;

	(void)s;
	drain__free(ds->d);
	ds->d = NULL;
	if (ds->timerfd >= 0)
		close(ds->timerfd);
	ds->timerfd = -1;
}

const struct session_hooks drain_session_hooks = {
	.start = drain_session__start,
	.exit = drain_session__exit,
	.fd = drain_session__fd,
	.ready = drain_session__ready,
	.end = drain_session__end,
};
