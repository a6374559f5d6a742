/*
 * fp-three: main -> run_workload -> split -> leaf_a | leaf_b | leaf_c.
 *
 * Each round split() calls leaf_a 5 times, leaf_b 3 times and leaf_c 2
 * times, and every call spins for one slot of the thread's CPU time (2 ms,
 * read with cpu_now()), so the leaves take 50%, 30% and 20% of the CPU
 * time whatever their loops cost per iteration on a given CPU. The slots
 * end at absolute CPU-time deadlines: a slot that overruns its deadline by
 * part of a check interval shortens the next one, so the split holds over
 * a run to within one check interval. Single-threaded. Built with clang
 * and frame pointers in every function (leaves included) and no sibling
 * calls, so a frame-pointer walk yields exactly leaf_X;split;run_workload;main
 * (the clock is read by an inline system call in the leaf itself, so even
 * the kernel's frames of that read sit under leaf_X).
 */
#include "workload.h"

#define SLOT 0.002 /* CPU seconds per call of a leaf */
#define CHECK_ITERS 20000 /* iterations between reads of the CPU clock */

volatile unsigned long sink;

/* the thread CPU time at which the current slot ends */
static double deadline;

__attribute__((noinline)) void leaf_a(void)
{
	deadline += SLOT;
	while (cpu_now() < deadline)
		for (unsigned long i = 0; i < CHECK_ITERS; i++)
			sink += i;
}

__attribute__((noinline)) void leaf_b(void)
{
	deadline += SLOT;
	while (cpu_now() < deadline)
		for (unsigned long i = 0; i < CHECK_ITERS; i++)
			sink += i + 1;
}

__attribute__((noinline)) void leaf_c(void)
{
	deadline += SLOT;
	while (cpu_now() < deadline)
		for (unsigned long i = 0; i < CHECK_ITERS; i++)
			sink += i + 2;
}

/* One round: 10 slots, 5:3:2. */
__attribute__((noinline)) void split(void)
{
	leaf_a();
	leaf_b();
	leaf_c();
	leaf_a();
	leaf_b();
	leaf_a();
	leaf_c();
	leaf_a();
	leaf_b();
	leaf_a();
}

__attribute__((noinline)) void run_workload(double seconds)
{
	double end = now() + seconds;

	deadline = cpu_now();
	while (now() < end)
		split();
}

int main(int argc, char **argv)
{
	run_workload(parse_duration(argc, argv));
	return 0;
}
