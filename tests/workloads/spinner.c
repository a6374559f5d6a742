/*
 * spinner: main -> other_busy_loop, busy for the duration. A competing
 * process that a target filter (-p, -- COMMAND) must exclude.
 */
#include "workload.h"

#define CHUNK_ITERS 100000

volatile unsigned long sink;

__attribute__((noinline)) void other_busy_loop(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
}

int main(int argc, char **argv)
{
	other_busy_loop(parse_duration(argc, argv));
	return 0;
}
