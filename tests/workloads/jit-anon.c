/*
 * jit-anon SECONDS MAP: runs code in an anonymous executable page, as a JIT
 * does, for the duration, after writing /tmp/perf-PID.map to name it (the
 * map is left for the test to remove: bpfprof reads it after the exit).
 * The code is a countdown loop at page + 0x100. MAP is what the map says:
 *   hostile  the code named "jit\x1b[2J\x07bell\x88end" (ESC, BEL, a raw 0x88)
 *   huge     the code named jit_hot, then a last line "0 ffffffffffffffff
 *            swallow": an entry of impossible size written later
 *   big=MB   MB megabytes of filler entries below the page, then jit_hot
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

static void write_map(const char *what, uintptr_t code)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		exit(1);
	if (!strcmp(what, "hostile")) {
		fprintf(f, "%lx %zx jit\x1b[2J\abell\x88" "end\n", (unsigned long)code,
			sizeof(countdown));
	} else if (!strcmp(what, "huge")) {
		fprintf(f, "%lx %zx jit_hot\n", (unsigned long)code, sizeof(countdown));
		fprintf(f, "0 ffffffffffffffff swallow\n");
	} else if (!strncmp(what, "big=", 4)) {
		unsigned long bytes = strtoul(what + 4, NULL, 10) << 20, n = 0;

		/* "ADDR 10 filler_entry_N\n", 0x10 apart below the page */
		for (unsigned long i = 0; n < bytes; i++)
			n += fprintf(f, "%lx 10 filler_entry_%lu\n", 0x10000 + i * 0x10, i);
		fprintf(f, "%lx %zx jit_hot\n", (unsigned long)code, sizeof(countdown));
	} else {
		exit(2);
	}
	if (fclose(f))
		exit(1);
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv), end;
	unsigned char *page;
	long (*fn)(long);

	if (argc < 3)
		return 2;
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		return 1;
	memcpy(page + CODE_OFF, countdown, sizeof(countdown));
	fn = (long (*)(long))(page + CODE_OFF);
	write_map(argv[2], (uintptr_t)fn);
	end = now() + seconds;
	while (now() < end)
		fn(LOOP_ITERS);
	return 0;
}
