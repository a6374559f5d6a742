/*
 * unwind-maps SECONDS [N]: maps its own executable N more times (default
 * 700) as separate executable mappings, then spins in main -> spin_maps
 * for SECONDS. For the unwinder's per-process mapping table, which holds
 * at least 512 mappings and twice the most a target has when bpfprof
 * starts. Built by gcc -O2 -fomit-frame-pointer.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

volatile unsigned long sink;

__attribute__((noinline)) unsigned long spin_maps(double end)
{
	unsigned long n = 0;

	while (now() < end)
		for (int i = 0; i < 10000; i++)
			sink += i, n++;
	return n;
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv);
	int n = argc > 2 ? atoi(argv[2]) : 700;
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0) {
		perror("unwind-maps: /proc/self/exe");
		return 1;
	}
	/* offset 0 every time: no two of them merge into one mapping */
	for (int i = 0; i < n; i++)
		if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
			perror("unwind-maps: mmap");
			return 1;
		}
	sink += spin_maps(now() + seconds);
	return 0;
}
