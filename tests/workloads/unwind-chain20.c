/*
 * unwind-chain20: main -> f01 -> f02 -> ... -> f20, and f20 spins until the
 * duration ends. Built by gcc -O2 -fomit-frame-pointer (no frame pointers
 * anywhere), so only a DWARF (.eh_frame) unwinder sees the whole stack.
 * Nearly every sample is in f20 and its stack, leaf to root, is exactly
 *   f20 f19 ... f02 f01 main __libc_start_call_main __libc_start_main_impl _start
 * (root first in folded output: _start;__libc_start_main_impl;
 * __libc_start_call_main;main;f01;...;f20). Every link does work after its
 * call (a volatile sink), so no call becomes a tail call; noclone keeps gcc
 * from renaming them (.constprop, .isra).
 */
#include "workload.h"

#define CHUNK_ITERS 100000

volatile unsigned long sink;

__attribute__((noinline, noclone)) unsigned long f20(double end)
{
	unsigned long n = 0;

	while (now() < end) /* spin, checking the clock once per chunk */
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i, n++;
	return n;
}

#define LINK(name, next)                                              \
	__attribute__((noinline, noclone)) unsigned long name(double end) \
	{                                                             \
		unsigned long r = next(end);                          \
		sink += r;                                            \
		return r + 1;                                         \
	}

LINK(f19, f20)
LINK(f18, f19)
LINK(f17, f18)
LINK(f16, f17)
LINK(f15, f16)
LINK(f14, f15)
LINK(f13, f14)
LINK(f12, f13)
LINK(f11, f12)
LINK(f10, f11)
LINK(f09, f10)
LINK(f08, f09)
LINK(f07, f08)
LINK(f06, f07)
LINK(f05, f06)
LINK(f04, f05)
LINK(f03, f04)
LINK(f02, f03)
LINK(f01, f02)

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	sink += f01(end);
	return 0;
}
