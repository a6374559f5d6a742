/*
 * inline-chain: main -> run_workload -> hot_caller, into which outer_step()
 * is inlined, into which inner_mix() is inlined; inner_mix's loop takes
 * nearly all the time. With inline frames the stack reads
 * ...;run_workload;hot_caller;outer_step_[i];inner_mix_[i], and with source
 * lines each frame's line is where the next one is called (the lines marked
 * CALL_OUTER and CALL_INNER) and the leaf's is the loop (HOT_LOOP). The
 * tests find those lines with grep. Built by clang (frame pointers, no
 * .debug_aranges) and by gcc (.debug_aranges; gcc sets up no frame in a
 * leaf, so only the end of the stack is exact there).
 */
#include "workload.h"

volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long inner_mix(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005UL + (x >> 13); /* HOT_LOOP */
	return x;
}

static inline __attribute__((always_inline)) unsigned long outer_step(unsigned long x)
{
	x ^= x >> 7;
	return inner_mix(x); /* CALL_INNER */
}

__attribute__((noinline)) void hot_caller(void)
{
	for (unsigned long r = 0; r < 100; r++)
		sink = outer_step(sink + r); /* CALL_OUTER */
}

__attribute__((noinline)) void run_workload(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		hot_caller();
}

int main(int argc, char **argv)
{
	run_workload(parse_duration(argc, argv));
	return 0;
}
