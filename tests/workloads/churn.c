/*
 * churn: keeps creating short-lived processes and threads for the
 * duration. Each round forks a child that runs child_work for CHILD_CPU of
 * its CPU time and exits (every EXEC_EVERY-th child execs /bin/true
 * instead: an exec generation and new mappings), and starts a thread that
 * runs thread_work for THREAD_CPU and exits; the parent reaps both. Prints
 * how many processes and threads it created ("processes N threads N").
 */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"

#define CHILD_CPU 1e-3
#define THREAD_CPU 0.5e-3
#define EXEC_EVERY 16
#define CHUNK_ITERS 2000

volatile unsigned long sink;

static void spin(double cpu)
{
	double end = cpu_now() + cpu;

	do
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
	while (cpu_now() < end);
}

__attribute__((noinline)) void child_work(void)
{
	spin(CHILD_CPU);
}

__attribute__((noinline)) void *thread_work(void *arg)
{
	spin(THREAD_CPU);
	return arg;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);
	unsigned long procs = 0, threads = 0;

	while (now() < end) {
		pthread_t t;
		pid_t pid = fork();

		if (pid == 0) {
			if (procs % EXEC_EVERY == EXEC_EVERY - 1)
				execl("/bin/true", "true", (char *)NULL);
			child_work();
			_exit(0);
		}
		if (pid > 0)
			procs++;
		if (!pthread_create(&t, NULL, thread_work, NULL)) {
			pthread_join(t, NULL);
			threads++;
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	printf("processes %lu threads %lu\n", procs, threads);
	return 0;
}
