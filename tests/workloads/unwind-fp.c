/*
 * unwind-fp: frame-pointer code calling frameless libc, which calls back
 * into frame-pointer code. main -> fp_sort_rounds, which fills an array
 * of 1024 ints and sorts it with libc's qsort, round after round until the
 * duration ends; the comparator fp_cmp calls fp_cmp_work, which spins a
 * fixed chunk, so nearly all the time is in fp_cmp_work. Built by clang
 * with frame pointers in every function (-fno-omit-frame-pointer
 * -mno-omit-leaf-frame-pointer), while libc's sort (msort_with_tmp,
 * __qsort_r) has none and uses rbp as an ordinary register: a
 * frame-pointer walk loses the stack inside libc, a DWARF one does not.
 * Leaf to root a sample in fp_cmp_work is
 *   fp_cmp_work, fp_cmp, msort_with_tmp (several frames), __qsort_r
 *   (qsort), fp_sort_rounds, main, __libc_start_call_main,
 *   __libc_start_main_impl, _start
 */
#include "workload.h"

#define N 1024
#define CMP_ITERS 200

volatile unsigned long sink;

static int values[N];

__attribute__((noinline)) int fp_cmp_work(int x, int y)
{
	for (int i = 0; i < CMP_ITERS; i++) /* spin */
		sink += i;
	return (x > y) - (x < y);
}

__attribute__((noinline)) int fp_cmp(const void *a, const void *b)
{
	int r = fp_cmp_work(*(const int *)a, *(const int *)b);

	sink += r;
	return r;
}

__attribute__((noinline)) unsigned long fp_sort_rounds(double end)
{
	unsigned long rounds = 0, r = 12345;

	while (now() < end) {
		for (int i = 0; i < N; i++) {
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			values[i] = (int)(r >> 33);
		}
		qsort(values, N, sizeof(values[0]), fp_cmp);
		sink += values[rounds % N];
		rounds++;
	}
	return rounds;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	sink += fp_sort_rounds(end);
	return 0;
}
