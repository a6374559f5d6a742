/*
 * multievent: the ground truth of several events in one run (record -e A
 * -e B). main -> run -> compute | fault_pages | writer, by mode:
 *
 *   multievent SECONDS faults  compute() spins for 80% of the thread's CPU
 *                              time; fault_pages() maps fresh anonymous
 *                              pages and touches each once (a page fault a
 *                              page), then unmaps them, for the other 20%.
 *                              After start-up every page fault is in
 *                              fault_pages; most CPU time is in compute.
 *   multievent SECONDS writes  compute() as above, and writer() stores to
 *                              the global `counter` once per slot (a data
 *                              breakpoint on it traps each time: a few
 *                              hundred stores a second); prints "writes N".
 *
 * Slots end at absolute CPU-time deadlines (cpu_now()), so the split holds
 * whatever a loop costs. Built -no-pie: `nm` gives counter's address as it
 * is at run time (mem:ADDR:w).
 */
#include <string.h>
#include <sys/mman.h>

#include "workload.h"

#define SLOT 0.002       /* CPU seconds per call */
#define CHECK_ITERS 20000 /* iterations between reads of the CPU clock */
#define PAGE 4096
#define CHUNK_PAGES 256  /* pages mapped, touched and unmapped at a time */

volatile unsigned long sink;
volatile unsigned long counter; /* the watched global (writes mode) */

static double deadline;
static unsigned long writes;

__attribute__((noinline)) void compute(void)
{
	deadline += SLOT;
	while (cpu_now() < deadline)
		for (unsigned long i = 0; i < CHECK_ITERS; i++)
			sink += i;
}

/* Fresh pages touched until the slot's deadline: each touch is a page fault. */
__attribute__((noinline)) void fault_pages(void)
{
	deadline += SLOT;
	while (cpu_now() < deadline) {
		char *m = mmap(NULL, CHUNK_PAGES * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			abort();
		for (int i = 0; i < CHUNK_PAGES; i++)
			((volatile char *)m)[i * PAGE] = 1;
		munmap(m, CHUNK_PAGES * PAGE);
	}
}

/* One store to counter, then spin out the slot. */
__attribute__((noinline)) void writer(void)
{
	counter = counter + 1;
	writes++;
	deadline += SLOT;
	while (cpu_now() < deadline)
		for (unsigned long i = 0; i < CHECK_ITERS; i++)
			sink += i + 1;
}

/* 4 slots of compute, then 1 of @other: 80/20. */
__attribute__((noinline)) void run(double seconds, void (*other)(void))
{
	double end = now() + seconds;

	deadline = cpu_now();
	while (now() < end) {
		for (int i = 0; i < 4; i++)
			compute();
		other();
	}
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv);
	const char *mode = argc > 2 ? argv[2] : "";

	if (!strcmp(mode, "faults")) {
		run(seconds, fault_pages);
	} else if (!strcmp(mode, "writes")) {
		run(seconds, writer);
		printf("writes %lu\n", writes);
	} else {
		fprintf(stderr, "usage: %s SECONDS faults|writes\n", argv[0]);
		return 2;
	}
	return 0;
}
