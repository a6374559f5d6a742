/*
 * burn: the benchmark workload. Runs burn_loop on argv[2] threads (default:
 * the number of online CPUs) for argv[1] seconds, then prints ONE line on
 * stdout: the total number of completed work units. A unit is a fixed chunk
 * of register-only integer work, so units per second measure how much CPU
 * the workload got (the slowdown under a profiler).
 */
#include <pthread.h>
#include <unistd.h>
#include "workload.h"

#define UNIT_ITERS 1000
#define UNITS_PER_CHECK 1000
#define MAX_THREADS 1024

volatile unsigned long sink;

static double end_time;

/* One unit: a fixed amount of xorshift arithmetic in registers. */
__attribute__((noinline)) unsigned long burn_unit(unsigned long x)
{
	for (int i = 0; i < UNIT_ITERS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

__attribute__((noinline)) void *burn_loop(void *arg)
{
	unsigned long *units = arg;
	unsigned long x = 88172645463325252UL;

	while (now() < end_time) {
		for (int i = 0; i < UNITS_PER_CHECK; i++)
			x = burn_unit(x);
		*units += UNITS_PER_CHECK;
	}
	sink = x;
	return NULL;
}

int main(int argc, char **argv)
{
	static pthread_t tids[MAX_THREADS];
	static unsigned long units[MAX_THREADS];
	double seconds = parse_duration(argc, argv);
	long n = argc > 2 ? atol(argv[2]) : sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long total = 0;

	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr, "%s: thread count must be 1..%d\n", argv[0], MAX_THREADS);
		return 2;
	}
	end_time = now() + seconds;
	for (long i = 0; i < n; i++) {
		if (pthread_create(&tids[i], NULL, burn_loop, &units[i])) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	}
	for (long i = 0; i < n; i++) {
		pthread_join(tids[i], NULL);
		total += units[i];
	}
	printf("%lu\n", total);
	return 0;
}
