/*
 * unwind-cold SECONDS: main -> cold_outer -> cold_mid -> cold_leaf, which
 * spins until the thread has run SECONDS of CPU time (cpu_now()). Built by
 * gcc -O2 -fomit-frame-pointer with unwind-cold-fill.S, whose CFI makes
 * this executable's unwind table large (about a million rows): with an
 * empty unwind cache it takes a while to build, and until it is in, no
 * walk gets out of the frameless leaf. A sample is, leaf to root,
 *   cold_leaf cold_mid cold_outer main <libc start frames> _start
 */
#include "workload.h"

volatile unsigned long sink;

__attribute__((noinline, noclone)) unsigned long cold_leaf(double end)
{
	unsigned long n = 0;

	while (cpu_now() < end) /* spin */
		for (int i = 0; i < 20000; i++)
			sink += i, n++;
	return n;
}

__attribute__((noinline, noclone)) unsigned long cold_mid(double end)
{
	unsigned long n = cold_leaf(end);

	sink += n;
	return n + 1;
}

__attribute__((noinline, noclone)) unsigned long cold_outer(double end)
{
	unsigned long n = cold_mid(end);

	sink += n;
	return n + 1;
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv);

	sink += cold_outer(cpu_now() + seconds);
	return 0;
}
