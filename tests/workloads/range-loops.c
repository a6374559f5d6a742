/*
 * range-loops: main -> loops and clear, round after round until the
 * duration ends.
 *
 * loops() runs a hot loop for 4 ms of the thread's CPU time, then a cold
 * loop of the same body for 1 ms, each loop (with its reads of the CPU
 * clock, cpu_now()) written on one source line, marked HOT and COLD for
 * the tests to find: 80% of loops' time is on the HOT line and 20% on the
 * COLD line, whatever one iteration costs on a given CPU. A phase that
 * overruns its deadline by part of a check interval shortens the next
 * one, so the split holds over a run.
 * clear() then calls libc's memset on a 1 MiB buffer (an IFUNC: the code it
 * runs is an implementation such as __memset_avx2_unaligned_erms) for
 * 0.25 ms of CPU time, about 5% of the time. A PIE, so two copies run at two load addresses.
 */
#include <string.h>

#include "workload.h"

#define HOT_CPU 0.004 /* CPU seconds per round on the HOT line */
#define COLD_CPU 0.001 /* and on the COLD line */
#define CHECK_ITERS 20000 /* iterations between reads of the CPU clock */
#define CLEAR_CPU 0.00025 /* CPU seconds per round in clear() (about 5%) */
#define CLEAR_BYTES (1024 * 1024)

volatile unsigned long sink;
/* volatile: the compiler cannot see the size, so memset stays a call to libc */
volatile size_t clear_bytes = CLEAR_BYTES;
static char buf[CLEAR_BYTES];

/* how far loops()' last phase ran past its deadline (taken off the next) */
static double over;

__attribute__((noinline)) void loops(void)
{
	double end, t;

	for (end = cpu_now() + HOT_CPU - over; (t = cpu_now()) < end;) for (unsigned long i = 0; i < CHECK_ITERS; i++) sink += i; /* HOT */
	for (end += COLD_CPU; (t = cpu_now()) < end;) for (unsigned long i = 0; i < CHECK_ITERS; i++) sink += i; /* COLD */
	over = t - end;
}

__attribute__((noinline)) void clear(int round)
{
	for (double end = cpu_now() + CLEAR_CPU; cpu_now() < end;)
		memset(buf, round, clear_bytes);
	sink += buf[round % CLEAR_BYTES];
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	for (int round = 0; now() < end; round++) {
		loops();
		clear(round);
	}
	return 0;
}
