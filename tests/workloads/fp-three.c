/*
 * fp-three: main -> run_workload -> split -> leaf_a | leaf_b | leaf_c.
 *
 * Each round split() calls leaf_a 5 times, leaf_b 3 times and leaf_c 2
 * times, and every call spins the same fixed chunk of work (~0.2 ms), so the
 * leaves take 50%, 30% and 20% of the CPU time whatever the CPU speed.
 * Single-threaded. Built with clang and frame pointers in every function
 * (leaves included) and no sibling calls, so a frame-pointer walk yields
 * exactly leaf_X;split;run_workload;main.
 */
#include "workload.h"

#define CHUNK_ITERS 100000

volatile unsigned long sink;

__attribute__((noinline)) void leaf_a(void)
{
	for (unsigned long i = 0; i < CHUNK_ITERS; i++)
		sink += i;
}

__attribute__((noinline)) void leaf_b(void)
{
	for (unsigned long i = 0; i < CHUNK_ITERS; i++)
		sink += i + 1;
}

__attribute__((noinline)) void leaf_c(void)
{
	for (unsigned long i = 0; i < CHUNK_ITERS; i++)
		sink += i + 2;
}

/* One round: 10 chunks, 5:3:2. */
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

	while (now() < end)
		split();
}

int main(int argc, char **argv)
{
	run_workload(parse_duration(argc, argv));
	return 0;
}
