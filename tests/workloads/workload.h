/*
 * Helpers shared by the test workloads: the duration argument and a
 * monotonic clock. Every workload takes its run time in seconds as argv[1]
 * (decimal allowed) and exits on its own.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* argv[1] as seconds (>= 0); exits with status 2 on a missing or bad value. */
static inline double parse_duration(int argc, char **argv)
{
	char *end;
	double d;

	if (argc < 2)
		goto usage;
	d = strtod(argv[1], &end);
	if (end == argv[1] || *end || !(d >= 0) || d > 1e6)
		goto usage;
	return d;
usage:
	fprintf(stderr, "usage: %s SECONDS [ARG]\n", argv[0]);
	exit(2);
}

#endif
