/*
 * range-loops: main -> loops and clear, round after round until the
 * duration ends.
 *
 * loops() runs a hot loop of 4 * ROUND_ITERS iterations, then a cold loop
 * of ROUND_ITERS iterations of the same body, each loop written on one
 * source line (marked HOT and COLD for the tests to find): 80% of loops'
 * time is on the HOT line and 20% on the COLD line, whatever the CPU's
 * speed. clear() then calls libc's memset on a buffer (an IFUNC: the code
 * it runs is an implementation such as __memset_avx2_unaligned_erms), a
 * few percent of the time. A PIE, so two copies run at two load addresses.
 */
#include <string.h>

#include "workload.h"

#define ROUND_ITERS 100000
#define CLEAR_BYTES (1024 * 1024)

volatile unsigned long sink;
/* volatile: the compiler cannot see the size, so memset stays a call to libc */
volatile size_t clear_bytes = CLEAR_BYTES;
static char buf[CLEAR_BYTES];

__attribute__((noinline)) void loops(unsigned long n)
{
	for (unsigned long i = 0; i < 4 * n; i++) sink += i; /* HOT */
	for (unsigned long i = 0; i < n; i++) sink += i; /* COLD */
}

__attribute__((noinline)) void clear(int round)
{
	memset(buf, round, clear_bytes);
	sink += buf[round % CLEAR_BYTES];
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	for (int round = 0; now() < end; round++) {
		loops(ROUND_ITERS);
		clear(round);
	}
	return 0;
}
