/*
 * unwind-threads SECONDS: main starts one thread and both run
 * spin_outer -> spin_inner (spin_inner spinning) for the duration, then
 * main joins the thread. Leaf to root, a sample of the started thread is
 *   spin_inner, spin_outer, thread_main, start_thread, __clone3
 * (a thread's stack ends at libc's thread start routine: start_thread,
 * called from __clone3, whose CFI marks the end of the stack), and a
 * sample of the main thread is
 *   spin_inner, spin_outer, main, __libc_start_call_main,
 *   __libc_start_main_impl, _start
 * about half each on two CPUs. Built by gcc -O2 -fomit-frame-pointer
 * (libc has no frame pointers either).
 */
#include <pthread.h>

#include "workload.h"

#define CHUNK_ITERS 100000

volatile unsigned long sink;

__attribute__((noinline, noclone)) unsigned long spin_inner(double end)
{
	unsigned long n = 0;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i, n++;
	return n;
}

__attribute__((noinline, noclone)) unsigned long spin_outer(double end)
{
	unsigned long r = spin_inner(end);

	sink += r;
	return r + 1;
}

__attribute__((noinline, noclone)) void *thread_main(void *arg)
{
	sink += spin_outer(*(double *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	static double end;
	pthread_t tid;

	end = now() + parse_duration(argc, argv);
	if (pthread_create(&tid, NULL, thread_main, &end)) {
		fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
		return 1;
	}
	sink += spin_outer(end);
	pthread_join(tid, NULL);
	return 0;
}
