/*
 * Helpers shared by the test workloads: the duration argument, a monotonic
 * clock and the thread's CPU clock. Every workload takes its run time in
 * seconds as argv[1] (decimal allowed) and exits on its own.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The CPU time this thread has run, in seconds (CLOCK_THREAD_CPUTIME_ID):
 * the ground truth of workloads that split their time between parts. A
 * part spins until this clock reaches its deadline, so its share of the
 * samples is its share of CPU time, whatever one iteration of its loop
 * costs on a given CPU. The read is an inline `syscall` instruction (the
 * vDSO has no thread clock; the call is one system call either way): a
 * frame-pointer walk from inside the kernel then sees the calling function
 * itself, not a frameless libc wrapper that would hide it. Costs about a
 * microsecond, so callers check it every few tens of microseconds of work
 * at most.
 */
static inline __attribute__((always_inline)) double cpu_now(void)
{
	struct timespec ts;
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"((long)SYS_clock_gettime), "D"((long)CLOCK_THREAD_CPUTIME_ID), "S"(&ts)
		     : "rcx", "r11", "memory");
	if (ret)
		abort();
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
