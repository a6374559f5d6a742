/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The aggregated, symbolized profile: plain data that every output format
 * reads. Filled by the drains while sampling runs and once after it stops,
 * one stack per distinct stack; knows nothing of BPF or /proc.
 *
 * Compact, because a long or wide run holds hundreds of thousands of
 * stacks: each distinct frame and each process is kept once, and a stack
 * is a count, a process id and a run of frame ids in one shared array.
 */
#ifndef BPFPROF_PROFILE_H
#define BPFPROF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "bpfprof.h"

enum frame_kind {
	FRAME_USER,
	FRAME_KERNEL,
	FRAME_INLINE, /* a call inlined into the frame before it (user code) */
	FRAME_JIT,    /* named by a JIT's perf map */
	FRAME_MARK,   /* "[truncated]", "[user]", ...: not code */
};

struct frame {
	const char *name; /* in a profile: the profile's copy */
	enum frame_kind kind;
	uint32_t line;    /* 0: unknown */
	const char *file; /* source file (DWARF's path), NULL: unknown */
	/* in a profile with keep_bins: 1 + the profile.bins index of the
	   code's binary (the kernel's, a JIT's); 0: none (marks), or not kept */
	uint32_t bin;
	/* the function's declaration line (DWARF); 0: unknown; kept only
	   with keep_bins (the output shows it) */
	uint32_t start_line;
	/* the symbol as the binary spells it (mangled) where name is its
	   demangling; NULL: name is that; kept only with keep_bins */
	const char *system_name;
};

/* A stack to add, as the drains build it. */
struct profile_sample {
	uint32_t tgid, tid;   /* tid 0 unless per-thread */
	const char *comm;     /* NUL-terminated; the first BPFPROF_COMM_LEN - 1 bytes are kept */
	const struct frame *frames; /* root first */
	uint32_t nr;
	uint64_t count;
	uint32_t event;       /* profile.events index (0 with one event) */
};

/* The process (or thread) of stacks. */
struct profile_proc {
	uint32_t tgid, tid;
	char comm[BPFPROF_COMM_LEN];
};

/*
 * The binary (mapping) of frames: a file by path and build-id, or one of
 * the pseudo-binaries "[kernel.kallsyms]" and "[anon]" (JIT code, code
 * outside any file). Kept only with keep_bins (pprof), once each.
 */
struct profile_bin {
	const char *path;     /* the profile's copy */
	const char *build_id; /* lower-case hex, the profile's copy; NULL: none */
};

/* A distinct stack: 24 bytes, a long run holds hundreds of thousands. */
struct profile_stack {
	uint64_t count;
	uint32_t at;   /* its frames: profile.frames[profile.ids[at + i]], i < nr, root first */
	uint32_t nr;
	uint32_t proc; /* profile.procs[proc] */
	uint32_t event; /* profile.events[event]; 0 with one event */
};

/*
 * An event of a profile of several (record -e A -e B): the stacks of each
 * are apart, the writers show which (folded: a first frame; pprof: a
 * value; top: a column). Owned by whoever sampled them, not the profile.
 */
struct profile_event {
	const char *name;
	uint64_t period_ns; /* a clock event's sample period; 0: it counts no time */
	uint64_t stats[EVENT_STAT__MAX];   /* its BPF counters, all CPUs, the whole run */
	uint64_t busiest[EVENT_STAT__MAX]; /* each on the CPU where it was highest */
};

/*
 * Distinct items found by a hash: profile.c's. An open-addressed table of
 * (32 bits of the hash, 1 + the item's index) in 8 bytes a slot, at most
 * three quarters full: about 11 bytes an item where a map of 64-bit keys
 * and pointers plus a chain took 25 to 47.
 */
struct profile_index {
	uint64_t *slots; /* 0: empty */
	size_t cap, nr;  /* cap: 0 or a power of two */
};

struct profile {
	struct profile_stack *stacks;
	size_t nr, cap;
	struct frame *frames; /* every distinct frame (name, kind, line, file) */
	size_t nr_frames, cap_frames;
	struct profile_proc *procs; /* every distinct process (tgid, tid, comm) */
	size_t nr_procs, cap_procs;
	uint32_t *ids; /* the stacks' frames */
	size_t nr_ids, cap_ids;
	struct profile_bin *bins; /* with keep_bins: every distinct binary of frames */
	size_t nr_bins, cap_bins;
	const char **strs; /* every distinct name, file and binary, each copied once */
	size_t nr_strs, cap_strs;
	struct arena names; /* where the copies are */
	/* with several events: each stack's is one of these; else NULL, 0 */
	struct profile_event *events;
	size_t nr_events;
	uint64_t stats[STAT__MAX]; /* the BPF program's counters, all CPUs */
	uint64_t busiest[STAT__MAX]; /* each counter on the CPU where it was highest */
	uint64_t sideband_lost;    /* process/mapping records lost */
	double duration;           /* seconds sampled */
	unsigned int ncpus;        /* CPUs sampled */
	struct profile_index by_stack, by_frame, by_proc, by_str, by_bin;
	bool drop_lines; /* keep no source file or line: the output shows none */
	bool keep_bins;  /* the drains set each frame's bin: the output shows them */
	/*
	 * read back from a file that names no process (folded stacks, a pprof
	 * without comm labels): the stacks have no process frame, every
	 * stack's process is one with an empty comm
	 */
	bool no_procs;
	/*
	 * a differential profile (bpfprof diff): per stack, its count in the
	 * base profile (stacks[i].count is the new one's); NULL otherwise, so
	 * a recorded profile holds nothing more per stack
	 */
	uint64_t *base;
	size_t cap_base;
};

/*
 * Add @s: its count to the stack of the same event, process, thread, comm and
 * frames (by name, kind, file and line) when there is one, else a new
 * stack. So a stack drained many times is one stack. Names and files are
 * copied (once each): @s's may be freed after the call; with drop_lines
 * the frames' files and lines are left out (stacks that differ only there
 * are one). 0, -ENOMEM, or -E2BIG past 2^32 - 1 distinct stacks, frames,
 * processes or frames of all stacks together.
 */
int profile__add(struct profile *p, const struct profile_sample *s);
/* The same, with the index of the stack @s was added to in *@stack. */
int profile__add_at(struct profile *p, const struct profile_sample *s, uint32_t *stack);
/*
 * The id (1 + its index in bins) of the binary @path with build-id
 * @build_id (hex, NULL: none), a new one when it is not in @p yet; both
 * copied. 0, -ENOMEM or -E2BIG.
 */
int profile__bin(struct profile *p, const char *path, const char *build_id, uint32_t *id);
/* Frame @i (root first) of @st. */
static inline const struct frame *profile__frame(const struct profile *p,
						 const struct profile_stack *st, uint32_t i)
{
	return &p->frames[p->ids[st->at + i]];
}
static inline const struct profile_proc *profile__proc(const struct profile *p,
						       const struct profile_stack *st)
{
	return &p->procs[st->proc];
}
uint64_t profile__samples(const struct profile *p);
/* The samples of event @event (every stack's with one event or none). */
uint64_t profile__event_samples(const struct profile *p, uint32_t event);
uint64_t profile__lost(const struct profile *p);
/* The bytes @p holds: its arrays as allocated, its hash chains, its names. */
size_t profile__memory(const struct profile *p);
void profile__free(struct profile *p);

#endif /* BPFPROF_PROFILE_H */
