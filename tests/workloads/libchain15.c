/*
 * libchain15.so: loaded by dlopen-late after its delay. chain_run() calls
 * chain_01 -> chain_02 -> ... -> chain_15, and chain_15 spins until the
 * given end time: every sample taken while it runs has the 15 frames
 * chain_15 (leaf) ... chain_01, chain_run, then the caller's. Built by gcc
 * with -O2 -fomit-frame-pointer (no frame pointers); every call is
 * followed by work, so none becomes a tail call.
 */
#include <time.h>

volatile unsigned long chain_sink;

static double clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long chain_15(double end)
{
	unsigned long n = 0;

	while (clock_now() < end) /* spin */
		for (int i = 0; i < 10000; i++)
			chain_sink += i, n++;
	return n;
}

#define LINK(name, next)                                              \
	__attribute__((noinline)) unsigned long name(double end)      \
	{                                                             \
		unsigned long r = next(end);                          \
		chain_sink += r;                                      \
		return r + 1;                                         \
	}

LINK(chain_14, chain_15)
LINK(chain_13, chain_14)
LINK(chain_12, chain_13)
LINK(chain_11, chain_12)
LINK(chain_10, chain_11)
LINK(chain_09, chain_10)
LINK(chain_08, chain_09)
LINK(chain_07, chain_08)
LINK(chain_06, chain_07)
LINK(chain_05, chain_06)
LINK(chain_04, chain_05)
LINK(chain_03, chain_04)
LINK(chain_02, chain_03)
LINK(chain_01, chain_02)
LINK(chain_run, chain_01)
