/*
 * unwind-plt SECONDS (and unwind-plt-now, the same program linked with
 * -Wl,-z,now against libunwind-plt-now.so; unwind-plt is linked lazy,
 * -Wl,-z,lazy, against libunwind-plt.so): main -> call_loop, which
 * alternates two phases of 5 ms of the thread's CPU time (cpu_now()):
 *   - a tight loop calling the library's empty plt_leaf() through the
 *     executable's PLT (plt_leaf@plt in the executable);
 *   - a call of the library's plt_outer(), itself a tight loop calling
 *     plt_leaf() through the library's own PLT (plt_leaf@plt in the
 *     library).
 * The two loops have the same shape: four calls, each through the stub's
 * indirect jump, and returns, with no memory access to wait for. So each stub
 * takes a large share of its phase's samples by construction (each phase
 * is half the CPU time), whatever the CPU. Leaf to root, a sample is one of
 *   plt_leaf, call_loop, main, <libc start frames>, _start
 *   <plt_leaf's PLT stub in the executable>, call_loop, main, ...
 *   plt_leaf, plt_outer, call_loop, main, ...
 *   <plt_leaf's PLT stub in the library>, plt_outer, call_loop, main, ...
 *   plt_outer, call_loop, main, ...
 *   call_loop, main, ...
 * where the libc start frames are __libc_start_call_main and
 * __libc_start_main_impl: the stack never breaks at a PLT stub. Built by
 * gcc -O2 -fomit-frame-pointer; the library finds itself through the
 * executable's RUNPATH ($ORIGIN).
 */
#include "workload.h"

#define PHASE_CPU 0.005 /* CPU seconds per phase */
#define CALLS_PER_CHECK 20000 /* calls between reads of the CPU clock */

volatile unsigned long sink;

unsigned long plt_leaf(unsigned long x);
unsigned long plt_outer(unsigned long n);

__attribute__((noinline, noclone)) unsigned long call_loop(double end)
{
	double deadline = cpu_now();
	unsigned long n = 0;

	while (now() < end) {
		/* through the executable's PLT */
		for (deadline += PHASE_CPU; cpu_now() < deadline;)
			for (unsigned long i = 0; i < CALLS_PER_CHECK / 4; i++)
				n = plt_leaf(plt_leaf(plt_leaf(plt_leaf(n + i))));
		/* through the library's PLT */
		for (deadline += PHASE_CPU; cpu_now() < deadline;)
			n += plt_outer(CALLS_PER_CHECK / 4);
	}
	return n;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	sink += call_loop(end);
	return 0;
}
