// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `record --interval`: a complete profile file per interval (interval.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "interval.h"
#include "outfile.h"
#include "sideband.h"

struct interval {
	const char *pattern;
	double seconds;
	struct drain_session *ds;
	struct profile *p;
	const struct output_opts *out;
	int timerfd;
	unsigned int n;     /* the interval now sampled; the files written */
	time_t start_wall;  /* its start, for %t */
	double start_s;     /* its start, seconds into the run */
	uint64_t seen[STAT__MAX], seen_max[STAT__MAX]; /* the counters at its start */
	uint64_t seen_sideband_lost;
	uint64_t samples;   /* in the files written */
};

int interval__check(const char *pattern, double seconds, char *why, size_t size)
{
	bool n = false, t = false;

	for (const char *c = pattern; (c = strchr(c, '%')); c += 2) {
		if (c[1] == 'n')
			n = true;
		else if (c[1] == 't')
			t = true;
		else if (c[1] != '%') {
			snprintf(why, size, "'%%%.1s' is not a field: expected %%n (the interval's "
				 "number), %%t (its start time) or %%%% (a %%)", c + 1);
			return -EINVAL;
		}
	}
	if (!n && !t) {
		snprintf(why, size, "every interval would overwrite the same file: expected a "
			 "name with %%n (the interval's number) or %%t (its start time), e.g. "
			 "prof-%%n.folded");
		return -EINVAL;
	}
	if (!n && seconds < 1) {
		snprintf(why, size, "%%t names files by the second and intervals of %g s would "
			 "overwrite each other: expected %%n in the name too", seconds);
		return -EINVAL;
	}
	return 0;
}

char *interval__name(const char *pattern, unsigned int n, time_t start)
{
	char *buf = NULL, stamp[32];
	size_t len = 0;
	struct tm tm;
	FILE *f;

	if (!gmtime_r(&start, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm))
		stamp[0] = '\0';
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (const char *c = pattern; *c; c++) {
		if (c[0] != '%' || !c[1])
			fputc(*c, f);
		else if (*++c == 'n')
			fprintf(f, "%u", n);
		else if (*c == 't')
			fputs(stamp, f);
		else
			fputc(*c, f);
	}
	if (fclose(f) || !buf) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	return buf;
}

struct interval *interval__new(const char *pattern, double seconds, struct drain_session *ds,
			       struct profile *p, const struct output_opts *out)
{
	struct interval *iv = calloc(1, sizeof(*iv));

	if (!iv)
		return NULL;
	*iv = (struct interval){ .pattern = pattern, .seconds = seconds, .ds = ds, .p = p,
				 .out = out, .timerfd = -1 };
	return iv;
}

static void interval__end(struct session *s, void *priv);

void interval__free(struct interval *iv)
{
	if (!iv)
		return;
	interval__end(NULL, iv);
	free(iv);
}

unsigned int interval__files(const struct interval *iv)
{
	return iv->n;
}

uint64_t interval__samples(const struct interval *iv)
{
	return iv->samples;
}

/* The first file's name can be written: fail before any work, as the main output does. */
static int interval__open(struct session *s, void *priv)
{
	struct interval *iv = priv;
	char *name = interval__name(iv->pattern, 0, time(NULL));
	struct outfile *of;
	char why[160];
	int status = 0;

	if (!name)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	of = outfile__open(name, why, sizeof(why));
	if (!of)
		status = session__fail(s, EXIT_USAGE, "cannot write '%s': %s", name, why);
	outfile__free(of); /* discarded: nothing was written */
	free(name);
	return status;
}

static int interval__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct interval *iv = priv;
	struct itimerspec its;
	long long ns = (long long)(iv->seconds * 1e9);

	(void)cfg;
	its.it_value.tv_sec = its.it_interval.tv_sec = ns / 1000000000;
	its.it_value.tv_nsec = its.it_interval.tv_nsec = ns % 1000000000;
	iv->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (iv->timerfd < 0 || timerfd_settime(iv->timerfd, 0, &its, NULL))
		return session__fail(s, EXIT_RUNTIME, "cannot set up the interval timer: %s",
				     strerror(errno));
	iv->start_wall = time(NULL);
	return 0;
}

static int interval__fd(void *priv)
{
	struct interval *iv = priv;

	return iv->timerfd;
}

/* The profile's counters and run: those of the interval ending @end_s into the run. */
static void interval__counters(struct interval *iv, struct session *s, double end_s,
			       const uint64_t *sum, const uint64_t *max)
{
	struct profile *p = iv->p;
	uint64_t lost = sideband__lost(session__sideband(s));

	for (int i = 0; i < STAT__MAX; i++) {
		p->stats[i] = sum[i] - iv->seen[i];
		/* the busiest CPU's counts are not additive: its growth, a bound */
		p->busiest[i] = max[i] - iv->seen_max[i];
	}
	memcpy(iv->seen, sum, sizeof(iv->seen));
	memcpy(iv->seen_max, max, sizeof(iv->seen_max));
	p->sideband_lost = lost - iv->seen_sideband_lost;
	iv->seen_sideband_lost = lost;
	p->ncpus = session__nr_cpus(s);
	p->duration = end_s - iv->start_s;
}

/* The profile to the interval's file, whole or not at all. 0 or the exit status. */
static int interval__write(struct interval *iv, struct session *s)
{
	char *name = interval__name(iv->pattern, iv->n, iv->start_wall);
	struct outfile *of;
	char why[160];
	int err, status = 0;

	if (!name)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	of = outfile__open(name, why, sizeof(why));
	if (!of) {
		status = session__fail(s, EXIT_RUNTIME, "cannot write interval %u's profile to "
				       "'%s': %s", iv->n, name, why);
		free(name);
		return status;
	}
	err = iv->out->format->write_profile(outfile__stream(of), iv->p, iv->out, NULL);
	err = err ? outfile__error(of) ?: err : outfile__commit(of);
	if (err)
		status = session__fail(s, EXIT_RUNTIME, "cannot write interval %u's profile to "
				       "%s: %s", iv->n, outfile__name(of), strerror(-err));
	outfile__free(of);
	free(name);
	if (!status) {
		iv->samples += profile__samples(iv->p);
		iv->n++;
	}
	return status;
}

/* An interval ends: its sets taken and symbolized, its file written, the profile emptied. */
static int interval__ready(struct session *s, void *priv)
{
	struct interval *iv = priv;
	uint64_t ticks, sum[STAT__MAX], max[STAT__MAX];
	time_t wall = time(NULL);
	double end_s = session__elapsed(s);
	struct drain_session_stats st;
	int err, status;

	if (read(iv->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		return -errno;
	err = drain_session__cut(iv->ds, s, sum, max);
	if (err == -EINTR)
		return 0; /* a stop signal: the rest goes to the last file */
	if (err == -ENOTSUP) {
		drain_session__stats(iv->ds, &st);
		session__stop(s, session__fail(s, EXIT_RUNTIME, "cannot end interval %u: the "
					       "stack sets cannot be switched (membarrier: %s)",
					       iv->n, strerror(-st.switch_err)));
		return 0;
	}
	if (err)
		return err;
	interval__counters(iv, s, end_s, sum, max);
	status = interval__write(iv, s);
	if (status) {
		session__stop(s, status);
		return 0;
	}
	drain_session__restart(iv->ds);
	iv->start_s = end_s;
	iv->start_wall = wall;
	return 0;
}

int interval__finish(struct interval *iv, struct session *s)
{
	struct profile *p = iv->p;
	uint64_t sum[STAT__MAX], max[STAT__MAX], sideband_lost = p->sideband_lost;
	int status;

	/* the whole run's, read by drain_session__profile after the last drain */
	memcpy(sum, p->stats, sizeof(sum));
	memcpy(max, p->busiest, sizeof(max));
	interval__counters(iv, s, session__seconds(s), sum, max);
	status = interval__write(iv, s);
	/* the whole run's again, for the summary */
	memcpy(p->stats, sum, sizeof(sum));
	memcpy(p->busiest, max, sizeof(max));
	p->sideband_lost = sideband_lost;
	p->duration = session__seconds(s);
	return status;
}

static void interval__end(struct session *s, void *priv)
{
	struct interval *iv = priv;

	(void)s;
	if (iv->timerfd >= 0)
		close(iv->timerfd);
	iv->timerfd = -1;
}

const struct session_hooks interval_hooks = {
	.open = interval__open,
	.start = interval__start,
	.fd = interval__fd,
	.ready = interval__ready,
	.end = interval__end,
};
