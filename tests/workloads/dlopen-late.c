/*
 * dlopen-late SECONDS DELAY: spins in before_dlopen() (main -> before_dlopen)
 * for DELAY seconds, then dlopen()s libchain15.so from its own directory and
 * runs its chain_run() (15 frames deep, the leaf spinning) until SECONDS
 * have passed since the start. It prints "loaded" on stdout right after the
 * dlopen, and at the end the CPU time it spent in each part (from
 * cpu_now()), the ground truth of a test's shares:
 *   cpu: before_dlopen 0.998 s, chain_run 2.001 s
 * The library is not mapped before the delay ends: a profiler must find it
 * while the process runs.
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

volatile unsigned long sink;

__attribute__((noinline)) void before_dlopen(double until)
{
	while (now() < until)
		for (int i = 0; i < 10000; i++)
			sink += i;
}

int main(int argc, char **argv)
{
	double start = now(), duration = parse_duration(argc, argv), delay;
	char self[PATH_MAX], lib[PATH_MAX + 32];
	unsigned long (*run)(double);
	ssize_t n;
	double cpu0, cpu1, cpu2;
	void *h;

	cpu0 = cpu_now();
	delay = argc > 2 ? atof(argv[2]) : 1;
	before_dlopen(start + delay);
	cpu1 = cpu_now();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return 1;
	self[n] = 0;
	snprintf(lib, sizeof(lib), "%s/libchain15.so", dirname(self));
	h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen-late: %s\n", dlerror());
		return 1;
	}
	*(void **)&run = dlsym(h, "chain_run");
	if (!run)
		return 1;
	printf("loaded\n");
	fflush(stdout);
	cpu2 = cpu_now();
	sink += run(start + duration);
	printf("cpu: before_dlopen %.3f s, chain_run %.3f s\n", cpu1 - cpu0, cpu_now() - cpu2);
	return 0;
}
