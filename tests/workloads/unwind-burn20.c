/*
 * unwind-burn20: the benchmark workload of bench/unwind. Runs in argv[2]
 * processes (default: the number of online CPUs; the first is this one, the
 * others are forked, so every stack is the same) for argv[1] seconds, then
 * prints ONE line on stdout: the total number of completed work units (as
 * tests/workloads/burn does: fewer units means a profiler took CPU time
 * away). Each process works at the end of a 20-deep frameless chain
 * main -> f01 -> ... -> f20 -> burn_unit, built like unwind-chain20 (gcc -O2
 * -fomit-frame-pointer, no sibling calls), so nearly every sample's user
 * stack is, root first,
 *   _start;__libc_start_main_impl;__libc_start_call_main;main;f01;...;f20
 * (and burn_unit when a sample lands in it): 24 or 25 frames. Built twice:
 * frameless by gcc (unwind-burn20) and with frame pointers by clang
 * (unwind-burn20-fp, whose own frames a frame-pointer walk follows).
 */
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"

#define UNIT_ITERS 1000
#define UNITS_PER_CHECK 1000
#define MAX_PROCS 1024

/* gcc may clone a function with constant arguments (f20.constprop.0); clang has no such attribute */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

volatile unsigned long sink;

/* One unit: a fixed amount of xorshift arithmetic in registers. */
KEEP unsigned long burn_unit(unsigned long x)
{
	for (int i = 0; i < UNIT_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* Units completed until the end time. */
KEEP unsigned long f20(double end)
{
	unsigned long x = 88172645463325252UL, units = 0;

	while (now() < end) {
		for (int i = 0; i < UNITS_PER_CHECK; i++)
			x = burn_unit(x);
		units += UNITS_PER_CHECK;
	}
	sink = x;
	return units;
}

/* Work after the call (a volatile sink), so no call becomes a tail call. */
#define LINK(name, next)                                              \
	KEEP unsigned long name(double end)                           \
	{                                                             \
		unsigned long r = next(end);                          \
		sink += r;                                            \
		return r;                                             \
	}

LINK(f19, f20)
LINK(f18, f19)
LINK(f17, f18)
LINK(f16, f17)
LINK(f15, f16)
LINK(f14, f15)
LINK(f13, f14)
LINK(f12, f13)
LINK(f11, f12)
LINK(f10, f11)
LINK(f09, f10)
LINK(f08, f09)
LINK(f07, f08)
LINK(f06, f07)
LINK(f05, f06)
LINK(f04, f05)
LINK(f03, f04)
LINK(f02, f03)
LINK(f01, f02)

int main(int argc, char **argv)
{
	static pid_t pids[MAX_PROCS];
	static int fds[MAX_PROCS];
	double seconds = parse_duration(argc, argv);
	long n = argc > 2 ? atol(argv[2]) : sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long total = 0, units;
	double end;

	if (n < 1 || n > MAX_PROCS) {
		fprintf(stderr, "%s: process count must be 1..%d\n", argv[0], MAX_PROCS);
		return 2;
	}
	end = now() + seconds;
	/* each child reports its units through its own pipe */
	for (long i = 1; i < n; i++) {
		int p[2];

		if (pipe(p) || (pids[i] = fork()) < 0) {
			fprintf(stderr, "%s: cannot start process %ld\n", argv[0], i);
			return 1;
		}
		if (pids[i] == 0) {
			close(p[0]);
			units = f01(end);
			if (write(p[1], &units, sizeof(units)) != sizeof(units))
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		fds[i] = p[0];
	}
	total = f01(end);
	for (long i = 1; i < n; i++) {
		int status;

		if (read(fds[i], &units, sizeof(units)) != sizeof(units) ||
		    waitpid(pids[i], &status, 0) != pids[i] || status != 0) {
			fprintf(stderr, "%s: process %ld failed\n", argv[0], i);
			return 1;
		}
		total += units;
	}
	printf("%lu\n", total);
	return 0;
}
