/*
 * unwind-forks: for argv[1] seconds the parent forks one child after
 * another and waits for it; each child runs burn at the end of a frameless
 * chain main -> child_main -> f1 -> f2 -> f3 -> burn (gcc -O2
 * -fomit-frame-pointer, no sibling calls, like unwind-chain20) for 2 ms of
 * its CPU time and exits. So nearly every sample is in a process a few
 * milliseconds old, whose stack is, root first,
 *   _start;__libc_start_main_impl;__libc_start_call_main;main;child_main;f1;f2;f3;burn
 * A frame-pointer walk breaks at the first frameless frame: only a DWARF
 * walk gives that, from the child's first sample on (tests/unwind.bats).
 */
#include <sys/wait.h>
#include <unistd.h>
#include "workload.h"

#define CHILD_CPU 2e-3
#define CHUNK_ITERS 2000

#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

volatile unsigned long sink;

KEEP void burn(double end)
{
	do
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
	while (cpu_now() < end);
}

KEEP void f3(double end)
{
	burn(end);
	sink++;
}

KEEP void f2(double end)
{
	f3(end);
	sink++;
}

KEEP void f1(double end)
{
	f2(end);
	sink++;
}

KEEP void child_main(void)
{
	f1(cpu_now() + CHILD_CPU);
	sink++;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	while (now() < end) {
		pid_t pid = fork();

		if (pid == 0) {
			child_main();
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	return 0;
}
