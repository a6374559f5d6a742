/*
 * short-child: the parent runs parent_spin (busy) for the whole duration;
 * about 0.3 s after start (or at once when the duration is shorter) it
 * forks ONE child that runs child_spin (busy) for 100 ms of its own CPU
 * time (cpu_now(): about 100 samples at 999 Hz however busy the machine)
 * and exits. The parent reaps it and prints nothing. A profile longer than
 * the child's life must still symbolize child_spin.
 *
 * short-child SECONDS usr1: the parent spins until it gets SIGUSR1 (a test
 * sends it once the profiler samples), forks the child then, and spins
 * SECONDS more.
 */
#include <signal.h>
#include <string.h>
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

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

int main(int argc, char **argv)
{
	double start = now();
	double seconds = parse_duration(argc, argv);
	double end = start + seconds;
	double fork_at = start + FORK_AFTER < end ? start + FORK_AFTER : end;
	pid_t pid;

	if (argc > 2 && strcmp(argv[2], "usr1") == 0) {
		signal(SIGUSR1, on_usr1);
		while (!got_usr1)
			parent_spin(now() + 0.001);
		end = now() + seconds;
	} else {
		parent_spin(fork_at);
	}
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
