/*
 * libevict-a.so and libevict-b.so (this file built with -DSIDE=a and
 * -DSIDE=b): libraries with large unwind tables, for the eviction test of
 * tests/unwind.bats. Each has FILLERS functions that only make its CFI big
 * (each pushes callee-saved registers: several rows apiece), and a short
 * chain that spins: evict_S_outer -> evict_S_mid -> evict_S_leaf, where
 * evict_S_leaf spins until the thread's CPU clock (cpu_now()) reaches the
 * given end. Built by gcc -O2
 * -fomit-frame-pointer (no frame pointers): without the library's table a
 * walk cannot get out of it.
 */
#include "workload.h"

#define CAT_(a, b, c) a##b##c
#define CAT(a, b, c) CAT_(a, b, c)
#define NAME(s) CAT(evict_, SIDE, s)

volatile unsigned long NAME(_sink);

/* used by the fillers: an external call keeps their registers live across it */
__attribute__((noinline)) unsigned long NAME(_mix)(unsigned long x)
{
	return x * 2654435761u ^ NAME(_sink);
}

#define FILLER(n)                                                                   \
	__attribute__((noinline, used)) unsigned long NAME(_fill##n)(unsigned long x, \
								      unsigned long y)      \
	{                                                                           \
		unsigned long a = NAME(_mix)(x), b = NAME(_mix)(y + n);             \
		unsigned long c = NAME(_mix)(a ^ b), d = NAME(_mix)(c + x);         \
		return a + b * c + d * n + NAME(_mix)(a + b + c + d);              \
	}
#define F10(n) FILLER(n##0) FILLER(n##1) FILLER(n##2) FILLER(n##3) FILLER(n##4) \
	FILLER(n##5) FILLER(n##6) FILLER(n##7) FILLER(n##8) FILLER(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) \
	F10(n##6) F10(n##7) F10(n##8) F10(n##9)
#define F1000(n) F100(n##0) F100(n##1) F100(n##2) F100(n##3) F100(n##4) F100(n##5) \
	F100(n##6) F100(n##7) F100(n##8) F100(n##9)

F1000(1)
F1000(2)

__attribute__((noinline)) unsigned long NAME(_leaf)(double end)
{
	unsigned long n = 0;

	while (cpu_now() < end) /* spin */
		for (int i = 0; i < 20000; i++)
			NAME(_sink) += i, n++;
	return n;
}

__attribute__((noinline)) unsigned long NAME(_mid)(double end)
{
	unsigned long n = NAME(_leaf)(end);

	NAME(_sink) += n;
	return n + 1;
}

__attribute__((noinline)) unsigned long NAME(_outer)(double end)
{
	unsigned long n = NAME(_mid)(end);

	NAME(_sink) += n;
	return n + 1;
}
