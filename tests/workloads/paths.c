/*
 * paths: 65,536 distinct call paths. 16 functions a0..a15 each call all
 * of b0..b15, each of those all of c0..c15, each of those all of the
 * leaves d0..d15: main;sweep;aI;bJ;cK;dL, 16^4 paths. Every leaf visit
 * spins LEAF_CPU of its thread's CPU time (cpu_now()), more than a period of a
 * 19,999 Hz sampler, so a sampler that loses nothing sees every path
 * visited. Threads (argv[2], default: the CPUs online) split the a's
 * between them and sweep them again and again until the duration is
 * over; a sweep of all paths takes 65,536 * LEAF_CPU / THREADS of CPU time
 * (2 s on two idle CPUs). Prints the sweeps done (whole ones) and the
 * distinct paths whose leaf ran to its end at least once: "sweeps N paths N".
 */
#include <pthread.h>
#include <unistd.h>
#include "workload.h"

#define FAN 16
#define LEAF_CPU 60e-6
#define CHUNK_ITERS 2000
#define MAX_THREADS 64

volatile unsigned long sink;

static double end_time;
static int nthreads;
static volatile int stop;

__attribute__((noinline)) static void spin(void)
{
	double end = cpu_now() + LEAF_CPU;

	do
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
	while (cpu_now() < end);
}

typedef void (*fn)(void);

static __thread unsigned int at[3]; /* the a, b and c running */
static unsigned char visited[FAN * FAN * FAN * FAN];

#define LEAF(n)                                                             \
	__attribute__((noinline)) void d##n(void)                            \
	{                                                                    \
		spin();                                                      \
		visited[at[0] << 12 | at[1] << 8 | at[2] << 4 | n] = 1;      \
	}
#define LEVEL(p, q, level, n)                                               \
	__attribute__((noinline)) void p##n(void)                            \
	{                                                                    \
		at[level] = n;                                               \
		for (int i = 0; i < FAN && !stop; i++)                       \
			q##_fns[i]();                                        \
	}
#define SIXTEEN(m, ...)                                                   \
	m(__VA_ARGS__ 0) m(__VA_ARGS__ 1) m(__VA_ARGS__ 2) m(__VA_ARGS__ 3)  \
	m(__VA_ARGS__ 4) m(__VA_ARGS__ 5) m(__VA_ARGS__ 6) m(__VA_ARGS__ 7)  \
	m(__VA_ARGS__ 8) m(__VA_ARGS__ 9) m(__VA_ARGS__ 10) m(__VA_ARGS__ 11) \
	m(__VA_ARGS__ 12) m(__VA_ARGS__ 13) m(__VA_ARGS__ 14) m(__VA_ARGS__ 15)
#define NAMES(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9, \
	p##10, p##11, p##12, p##13, p##14, p##15

SIXTEEN(LEAF, )
static const fn d_fns[FAN] = { NAMES(d) };
SIXTEEN(LEVEL, c, d, 2, )
static const fn c_fns[FAN] = { NAMES(c) };
SIXTEEN(LEVEL, b, c, 1, )
static const fn b_fns[FAN] = { NAMES(b) };
SIXTEEN(LEVEL, a, b, 0, )
static const fn a_fns[FAN] = { NAMES(a) };

static int sweeps[MAX_THREADS];

/* Thread @arg's share of the a's, again and again until the end. */
__attribute__((noinline)) void *sweep(void *arg)
{
	long t = (long)arg;

	while (now() < end_time) {
		for (int i = t; i < FAN && !stop; i += nthreads) {
			a_fns[i]();
			if (now() >= end_time)
				stop = 1;
		}
		if (!stop)
			sweeps[t]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static pthread_t tids[MAX_THREADS];
	double seconds = parse_duration(argc, argv);
	int least = 1 << 30, paths = 0;

	nthreads = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (nthreads < 1 || nthreads > MAX_THREADS || FAN % nthreads) {
		fprintf(stderr, "%s: thread count must divide %d\n", argv[0], FAN);
		return 2;
	}
	end_time = now() + seconds;
	for (long i = 1; i < nthreads; i++)
		if (pthread_create(&tids[i], NULL, sweep, (void *)i)) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	sweep((void *)0);
	for (int i = 1; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	for (int i = 0; i < nthreads; i++)
		least = sweeps[i] < least ? sweeps[i] : least;
	for (size_t i = 0; i < sizeof(visited); i++)
		paths += visited[i];
	printf("sweeps %d paths %d\n", least, paths);
	return 0;
}
