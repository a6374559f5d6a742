/*
 * unwind-frames: frames whose CFA rules are not "rsp + constant" at a small
 * offset. Round after round until the duration ends:
 *   main -> big_frame -> with_alloca -> realign_local -> realign_drap -> frames_leaf
 * - big_frame has a 100 KiB local array (CFA = rsp + ~100 KiB);
 * - with_alloca allocates a varying size with alloca() (gcc then keeps a
 *   frame pointer there: CFA = rbp + 16);
 * - realign_local has a 64-byte-aligned local, so it realigns its stack
 *   (and $-64, %rsp; CFA from rbp);
 * - realign_drap has both a 64-byte-aligned local and an alloca(): gcc
 *   realigns through a DRAP register (r10) and describes the CFA with
 *   DW_CFA_def_cfa_expression (DW_OP_breg6 (rbp): -8; DW_OP_deref), which
 *   reads memory (gcc 12; force_align_arg_pointer alone realigns nothing
 *   on x86-64);
 * - frames_leaf spins a chunk.
 * After each call every function works on its own buffer for a while, so
 * samples are taken in each of them, not only in the leaf: about 60% in
 * frames_leaf and 10% in each of the other four. Leaf to root, a sample in
 * frames_leaf is
 *   frames_leaf, realign_drap, realign_local, with_alloca, big_frame, main,
 *   __libc_start_call_main, __libc_start_main_impl, _start
 * and a sample in one of the others is that stack from the function on.
 * Built by gcc -O2 -fomit-frame-pointer.
 */
#include <alloca.h>

#include "workload.h"

#ifndef BIG_FRAME /* -DBIG_FRAME=... to try other sizes */
#define BIG_FRAME (100 * 1024)
#endif
#define LEAF_ITERS 60000
#define MID_ITERS 10000

volatile unsigned long sink;

__attribute__((noinline, noclone)) unsigned long frames_leaf(volatile char *p)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < LEAF_ITERS; i++)
		sink += i + p[i & 63], n++;
	return n;
}

/* realigned stack + variable-size allocation: the CFA goes through DRAP */
__attribute__((noinline, noclone)) unsigned long realign_drap(volatile char *p)
{
	_Alignas(64) volatile char local[64];
	volatile char *q = alloca(64 + (p[0] & 63));
	unsigned long r;

	for (int i = 0; i < 64; i++)
		local[i] = p[i], q[i] = p[i];
	r = frames_leaf(local);
	for (unsigned long i = 0; i < MID_ITERS; i++)
		sink += i ^ local[i & 63] ^ q[i & 63];
	return r + 1;
}

__attribute__((noinline, noclone)) unsigned long realign_local(unsigned long seed)
{
	_Alignas(64) volatile char local[256];
	unsigned long r;

	for (int i = 0; i < 256; i++)
		local[i] = (char)(seed + i);
	r = realign_drap(local);
	for (unsigned long i = 0; i < MID_ITERS; i++)
		sink += i ^ local[i & 255];
	return r + 1;
}

__attribute__((noinline, noclone)) unsigned long with_alloca(unsigned long size)
{
	volatile char *p = alloca(size);
	unsigned long r;

	for (unsigned long i = 0; i < size; i++)
		p[i] = (char)i;
	r = realign_local(size);
	for (unsigned long i = 0; i < MID_ITERS; i++)
		sink += i ^ p[i % size];
	return r + 1;
}

__attribute__((noinline, noclone)) unsigned long big_frame(unsigned long round)
{
	volatile char big[BIG_FRAME];
	unsigned long r;

	for (unsigned long i = 0; i < BIG_FRAME; i += 4096)
		big[i] = (char)(round + i);
	big[BIG_FRAME - 1] = (char)round;
	r = with_alloca(64 + round % 4096);
	for (unsigned long i = 0; i < MID_ITERS; i++)
		sink += i ^ big[(i * 4096 + round) % BIG_FRAME];
	return r + 1;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);

	for (unsigned long round = 0; now() < end; round++)
		sink += big_frame(round);
	return 0;
}
