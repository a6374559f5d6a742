/*
 * threads: main starts N threads (argv[2], default 2), each running
 * thread_spin (busy) for the duration, then joins them. For --per-thread:
 * expect N distinct comm-PID/TID roots with thread_spin under them.
 */
#include <pthread.h>
#include "workload.h"

#define CHUNK_ITERS 100000
#define MAX_THREADS 1024

volatile unsigned long sink;

static double end_time;

__attribute__((noinline)) void *thread_spin(void *arg)
{
	while (now() < end_time)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
	return arg;
}

int main(int argc, char **argv)
{
	static pthread_t tids[MAX_THREADS];
	double seconds = parse_duration(argc, argv);
	int n = argc > 2 ? atoi(argv[2]) : 2;

	if (n < 1 || n > MAX_THREADS) {
		fprintf(stderr, "%s: thread count must be 1..%d\n", argv[0], MAX_THREADS);
		return 2;
	}
	end_time = now() + seconds;
	for (int i = 0; i < n; i++) {
		if (pthread_create(&tids[i], NULL, thread_spin, NULL)) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
