/*
 * hostile-names: main -> a function whose symbol name holds ESC, BEL, a
 * backslash and the byte 0x88 ("evil\x1b[31m\a\\name\x88"), busy for the
 * duration. Names from outside must reach no file and no terminal raw
 * (tests/escape.bats).
 */
#include "workload.h"

#define CHUNK_ITERS 100000

volatile unsigned long sink;

__attribute__((noinline)) void hostile(double seconds) __asm__("evil\x1b[31m\a\\name\x88");

__attribute__((noinline)) void hostile(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i;
}

int main(int argc, char **argv)
{
	hostile(parse_duration(argc, argv));
	return 0;
}
