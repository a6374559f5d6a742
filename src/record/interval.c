// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `record --interval`: a complete profile file per interval (interval.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "outfile.h"

struct interval {
	const char *pattern;
	double seconds;
	struct drain_session *ds;
	const struct output_opts *out;
	unsigned int n;     /* the interval now sampled; the files written */
	double wall;        /* its start (for %t), wall-clock seconds; 0: not known yet */
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

static int interval__write(struct session *s, struct profile *p, void *ctx);

struct interval *interval__new(const char *pattern, double seconds, struct drain_session *ds,
			       const struct output_opts *out)
{
	struct interval *iv = calloc(1, sizeof(*iv));

	if (!iv)
		return NULL;
	*iv = (struct interval){ .pattern = pattern, .seconds = seconds, .ds = ds, .out = out };
	drain_session__set_window(ds, seconds, interval__write, iv);
	return iv;
}

void interval__free(struct interval *iv)
{
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
	char why[OUTFILE_WHY_MAX];
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

/*
 * An interval's end (drain_session__set_window): the profile to its file,
 * whole or not at all. 0 or the exit status.
 */
static int interval__write(struct session *s, struct profile *p, void *ctx)
{
	struct interval *iv = ctx;
	struct outfile *of;
	struct timespec now;
	char why[OUTFILE_WHY_MAX], *name;
	int err, status = 0;

	if (!iv->wall) { /* the first: the run's start, which this interval's is */
		clock_gettime(CLOCK_REALTIME, &now);
		iv->wall = now.tv_sec + now.tv_nsec / 1e9 - session__elapsed(s);
	}
	name = interval__name(iv->pattern, iv->n, (time_t)iv->wall);
	if (!name)
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	of = outfile__open(name, why, sizeof(why));
	if (!of) {
		status = session__fail(s, EXIT_RUNTIME, "cannot write interval %u's profile to "
				       "'%s': %s", iv->n, name, why);
		free(name);
		return status;
	}
	err = iv->out->format->write_profile(outfile__stream(of), p, iv->out, NULL);
	err = err ? outfile__error(of) ?: err : outfile__commit(of);
	if (err)
		status = session__fail(s, EXIT_RUNTIME, "cannot write interval %u's profile to "
				       "%s: %s", iv->n, outfile__name(of), strerror(-err));
	outfile__free(of);
	free(name);
	if (!status) {
		iv->samples += profile__samples(p);
		iv->n++;
		iv->wall += p->duration; /* the next one's start */
	}
	return status;
}

int interval__finish(struct interval *iv, struct session *s, struct profile *p)
{
	uint64_t sum[STAT__MAX], max[STAT__MAX], sideband_lost = p->sideband_lost;
	double seconds = p->duration;
	int status;

	struct profile_event *events = NULL;

	/* the whole run's, read by drain_session__profile after the last drain */
	memcpy(sum, p->stats, sizeof(sum));
	memcpy(max, p->busiest, sizeof(max));
	if (p->nr_events) {
		events = malloc(p->nr_events * sizeof(*events));
		if (!events)
			return session__fail(s, EXIT_RUNTIME, "out of memory");
		memcpy(events, p->events, p->nr_events * sizeof(*events));
	}
	drain_session__last_window(iv->ds);
	status = interval__write(s, p, iv);
	/* the whole run's again, for the summary */
	memcpy(p->stats, sum, sizeof(sum));
	memcpy(p->busiest, max, sizeof(max));
	if (events)
		memcpy(p->events, events, p->nr_events * sizeof(*events));
	free(events);
	p->sideband_lost = sideband_lost;
	p->duration = seconds;
	return status;
}

const struct session_hooks interval_hooks = {
	.open = interval__open,
};
