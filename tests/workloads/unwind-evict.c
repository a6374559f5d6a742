/*
 * unwind-evict SECONDS [PHASES]: PHASES phases (default 4) of SECONDS of
 * the thread's CPU time each (cpu_now(): a phase lasts as long in samples
 * however busy the machine, and longer in wall time when it is), alternating between two libraries whose unwind tables are large
 * (libevict-a.so, libevict-b.so; see libevict.c): phase 0, 2, ... spin in
 * library a, phase 1, 3, ... in library b. With --unwind-memory room for
 * only one of the two tables, each phase makes the other table the least
 * recently sampled, and the eviction test expects it replaced. A sample in
 * a phase is, leaf to root,
 *   evict_S_leaf, evict_S_outer... evict_S_mid, evict_S_outer, run_phases,
 *   main, <libc start frames>, _start
 * (S = a or b). Built by gcc -O2 -fomit-frame-pointer, linked against both
 * libraries, found through RUNPATH $ORIGIN.
 */
#include "workload.h"

unsigned long evict_a_outer(double end);
unsigned long evict_b_outer(double end);

volatile unsigned long sink;

__attribute__((noinline)) unsigned long run_phases(double seconds, int phases)
{
	unsigned long n = 0;

	for (int i = 0; i < phases; i++)
		n += (i % 2 ? evict_b_outer : evict_a_outer)(cpu_now() + seconds);
	return n;
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv);
	int phases = argc > 2 ? atoi(argv[2]) : 4;

	if (phases < 1) {
		fprintf(stderr, "unwind-evict: PHASES must be at least 1\n");
		return 2;
	}
	sink += run_phases(seconds, phases);
	return 0;
}
