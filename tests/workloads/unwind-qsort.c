/*
 * unwind-qsort: main -> sort_rounds, which shuffles an array of 1024 ints
 * and sorts it with libc's qsort, round after round until the duration
 * ends; the comparator cmp_spin spins a fixed chunk on every call, so
 * nearly all the time is in cmp_spin, called back from inside libc. Built
 * by gcc -O2 -fomit-frame-pointer; libc has no frame pointers either. Leaf
 * to root, a sample in cmp_spin is
 *   cmp_spin, libc's merge sort (msort_with_tmp, recursive, several frames),
 *   __qsort_r (qsort), sort_rounds, main, __libc_start_call_main,
 *   __libc_start_main_impl, _start
 * (glibc 2.36 names; whether a `qsort` frame shows depends on libc's own
 * tail call into __qsort_r).
 */
#include "workload.h"

#define N 1024
#define CMP_ITERS 200

volatile unsigned long sink;

static int values[N];

__attribute__((noinline, noclone)) int cmp_spin(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	for (int i = 0; i < CMP_ITERS; i++) /* spin */
		sink += i;
	return (x > y) - (x < y);
}

__attribute__((noinline, noclone)) unsigned long sort_rounds(double end)
{
	unsigned long rounds = 0, r = 12345;

	while (now() < end) {
		for (int i = 0; i < N; i++) {
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			values[i] = (int)(r >> 33);
		}
		qsort(values, N, sizeof(values[0]), cmp_spin);
		sink += values[rounds % N];
		rounds++;
	}
	return rounds;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	sink += sort_rounds(end);
	return 0;
}
