/*
 * unwind-plt SECONDS (and unwind-plt-now, the same program linked with
 * -Wl,-z,now against libunwind-plt-now.so; unwind-plt is linked lazy,
 * -Wl,-z,lazy, against libunwind-plt.so): main -> call_loop, which calls the
 * library's plt_outer() through the executable's PLT millions of times a
 * second; plt_outer calls plt_leaf through the library's PLT. Every call
 * is short, so many samples land in a PLT stub (plt_outer@plt in the
 * executable, plt_leaf@plt in the library) rather than in a function.
 * Leaf to root, a sample is one of
 *   plt_leaf, plt_outer, call_loop, main, <libc start frames>, _start
 *   plt_outer, call_loop, main, ...
 *   <plt_leaf's PLT stub in the library>, plt_outer, call_loop, main, ...
 *   <plt_outer's PLT stub in the executable>, call_loop, main, ...
 *   call_loop, main, ...
 * where the libc start frames are __libc_start_call_main and
 * __libc_start_main_impl: the stack never breaks at a PLT stub. Built by
 * gcc -O2 -fomit-frame-pointer; the library finds itself through the
 * executable's RUNPATH ($ORIGIN).
 */
#include "workload.h"

#define CALLS_PER_CHECK 1000000

volatile unsigned long sink;

unsigned long plt_outer(unsigned long x);

__attribute__((noinline, noclone)) unsigned long call_loop(double end)
{
	unsigned long n = 0;

	while (now() < end)
		for (unsigned long i = 0; i < CALLS_PER_CHECK; i++)
			n += plt_outer(i);
	return n;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	sink += call_loop(end);
	return 0;
}
