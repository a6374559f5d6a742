/*
 * short-child: the parent runs parent_spin (busy) for the whole duration;
 * about 0.3 s after start (or at once when the duration is shorter) it
 * forks ONE child that runs child_spin (busy) for 100 ms of its own CPU
 * time (cpu_now(): about 100 samples at 999 Hz however busy the machine)
 * and exits. The parent reaps it and prints nothing. A profile longer than
 * the child's life must still symbolize child_spin.
 */
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"

#define FORK_AFTER 0.3
#define CHILD_CPU 0.1
#define CHUNK_ITERS 20000

volatile unsigned long sink;

__attribute__((noinline)) void parent_spin(double end)
{
	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
}

__attribute__((noinline)) void child_spin(double cpu)
{
	double end = cpu_now() + cpu;

	while (cpu_now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i + 1;
}

int main(int argc, char **argv)
{
	double start = now();
	double end = start + parse_duration(argc, argv);
	double fork_at = start + FORK_AFTER < end ? start + FORK_AFTER : end;
	pid_t pid;

	parent_spin(fork_at);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		child_spin(CHILD_CPU);
		_exit(0);
	}
	parent_spin(end);
	if (waitpid(pid, NULL, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	return 0;
}
