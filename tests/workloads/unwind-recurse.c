/*
 * unwind-recurse SECONDS [DEPTH]: main -> recurse, which calls itself until
 * DEPTH (default 500) recurse frames are on the stack, and the innermost
 * calls spin_leaf, which spins until the duration ends. Leaf to root every
 * sample is
 *   spin_leaf, recurse x DEPTH, main, __libc_start_call_main,
 *   __libc_start_main_impl, _start
 * (DEPTH + 5 frames), deeper than any --max-depth: a profile shows the
 * innermost frames (spin_leaf, then recurse ...) up to the limit, marked
 * truncated. Built by gcc -O2 -fomit-frame-pointer; each level does work
 * after its call, so the recursion is neither a loop nor a tail call.
 */
#include "workload.h"

#define CHUNK_ITERS 100000
#define DEFAULT_DEPTH 500

volatile unsigned long sink;

__attribute__((noinline, noclone)) unsigned long spin_leaf(double end)
{
	unsigned long n = 0;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i, n++;
	return n;
}

__attribute__((noinline, noclone)) unsigned long recurse(int depth, double end)
{
	unsigned long r = depth > 1 ? recurse(depth - 1, end) : spin_leaf(end);

	sink += r;
	return r + 1;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);
	int depth = argc > 2 ? atoi(argv[2]) : DEFAULT_DEPTH;

	if (depth < 1 || depth > 100000) {
		fprintf(stderr, "%s: depth must be 1..100000\n", argv[0]);
		return 2;
	}
	sink += recurse(depth, end);
	return 0;
}
