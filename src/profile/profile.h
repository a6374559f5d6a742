/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The aggregated, symbolized profile: plain data that every output format
 * reads. Filled by the drains while sampling runs and once after it stops,
 * one stack per distinct stack; knows nothing of BPF or /proc.
 */
#ifndef BPFPROF_PROFILE_H
#define BPFPROF_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "bpfprof.h"
#include "u64map.h"

enum frame_kind {
	FRAME_USER,
	FRAME_KERNEL,
	FRAME_INLINE, /* a call inlined into the frame before it (user code) */
	FRAME_JIT,    /* named by a JIT's perf map */
	FRAME_MARK,   /* "[truncated]", "[user]", ...: not code */
};

struct frame {
	const char *name; /* owned by whoever symbolized it */
	enum frame_kind kind;
	uint32_t line;    /* 0: unknown */
	const char *file; /* source file (DWARF's path), NULL: unknown */
};

struct profile_stack {
	uint32_t tgid, tid; /* tid 0 unless per-thread */
	char comm[BPFPROF_COMM_LEN];
	struct frame *frames; /* root first */
	uint32_t nr;
	uint64_t count;
	size_t next; /* profile.c's: 1 + the next stack of the same hash; 0: none */
};

struct profile {
	struct profile_stack *stacks;
	size_t nr, cap;
	uint64_t stats[STAT__MAX]; /* the BPF program's counters, all CPUs */
	uint64_t busiest[STAT__MAX]; /* each counter on the CPU where it was highest */
	uint64_t sideband_lost;    /* process/mapping records lost */
	double duration;           /* seconds sampled */
	unsigned int ncpus;        /* CPUs sampled */
	struct u64map index;       /* profile.c's: hash of a stack -> 1 + its first index */
};

/*
 * Add @st: its count to the stack of the same process, thread, comm and
 * frames (by name, kind, file and line) when there is one, else a copy of
 * @st (its frames are copied too). So a stack drained many times is one
 * stack. 0 or -ENOMEM.
 */
int profile__add(struct profile *p, const struct profile_stack *st);
uint64_t profile__samples(const struct profile *p);
uint64_t profile__lost(const struct profile *p);
void profile__free(struct profile *p);

#endif /* BPFPROF_PROFILE_H */
