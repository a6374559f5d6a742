/*
 * jit-shared SECONDS: runs code in shared anonymous memory
 * (MAP_SHARED | MAP_ANONYMOUS, as Python's mmap.mmap(-1, ...) and JITs that
 * map their code twice get it), which /proc/PID/maps shows as
 * "/dev/zero (deleted)", for the duration, after writing /tmp/perf-PID.map
 * to name it jit_hot (the map is left for the test to remove: bpfprof
 * reads it after the exit). The code is a countdown loop at page + 0x100.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload.h"

#define CODE_OFF 0x100
#define LOOP_ITERS 100000

/* mov rax, rdi; 1: dec rax; jnz 1b; ret */
static const unsigned char countdown[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8,
					   0x75, 0xfb, 0xc3 };

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv), end;
	unsigned char *page;
	long (*fn)(long);
	char path[64];
	FILE *f;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return 1;
	memcpy(page + CODE_OFF, countdown, sizeof(countdown));
	fn = (long (*)(long))(page + CODE_OFF);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx %zx jit_hot\n", (unsigned long)(uintptr_t)fn, sizeof(countdown));
	if (fclose(f))
		return 1;
	end = now() + seconds;
	while (now() < end)
		fn(LOOP_ITERS);
	return 0;
}
