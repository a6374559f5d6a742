/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The DWARF unwinder's side in user space. Each binary a target maps gets
 * its CFI compiled into an unwind table (cfitable.c; cached on disk by
 * build-id, cficache.c) by a worker thread (cfiworker.c), so the event
 * loop never waits for one; the table is then copied into the BPF row and
 * page maps, and every process mapping the binary gets its mapping table
 * rewritten to name it. Until then (the table-build latency) the BPF
 * program walks that binary by frame pointers and flags the stack.
 *
 * Memory is bounded by the maps' sizes (--unwind-memory), set before load.
 * A table that does not fit takes the place of the least recently sampled
 * ones (the program stamps each binary with unwind_epoch as it walks
 * through it); one that cannot is left out, and asked for again by the
 * program when a walk goes through its binary (unwind_wanted), which
 * unwinder__tick() answers.
 *
 * With hold (a command bpfprof runs), a process that maps a binary whose
 * table is being built (not read from the disk cache) is stopped (SIGSTOP)
 * until none is: it takes no samples meanwhile, so no stack loses its
 * frames to a cold cache.
 */
#ifndef BPFPROF_UNWINDER_H
#define BPFPROF_UNWINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loader.h"
#include "proc.h"

/* record --unwind */
enum unwind_mode {
	UNWIND_AUTO,  /* DWARF tables where they exist, frame pointers elsewhere (default) */
	UNWIND_DWARF, /* DWARF tables only: a frame without one ends the stack */
	UNWIND_FP,    /* frame pointers only */
};

#define UNWIND_DEFAULT_MEMORY (32ull << 20)

/* The unwind options of the command line. */
struct unwind_opts {
	enum unwind_mode mode;     /* --unwind */
	unsigned long long memory; /* --unwind-memory: bytes of unwind tables */
	bool no_hold;              /* --no-unwind-hold: never stop the command for a table */
};

struct unwinder_opts {
	const char *cache_dir; /* NULL: no disk cache */
	unsigned int max_bins; /* entries of unwind_bins (loader_cfg.unwind_bins) */
	bool hold;             /* stop a process while a table it maps is built */
};

struct unwinder_stats {
	unsigned int tables;      /* tables loaded (again after an eviction included) */
	unsigned int cached;      /* of which read from the disk cache */
	unsigned int no_cfi;      /* binaries without usable CFI (or unreadable) */
	unsigned int full;        /* tables that did not fit, even after evictions */
	unsigned int evicted;     /* tables evicted to make room */
	unsigned int reloaded;    /* evicted or left-out tables loaded when walks asked */
	uint64_t rows;            /* rows loaded */
	uint64_t bytes;           /* bytes of rows and page entries loaded */
	uint64_t build_ns;        /* worker time building or reading tables */
	uint64_t max_build_ns;    /* the longest one */
	const char *max_build_name; /* its binary's name (the unwinder's copy) */
	uint64_t latency_ns;      /* sum over tables of: needed -> in the maps, processes told */
	uint64_t max_latency_ns;  /* the longest one */
	unsigned int latencies;   /* tables latency_ns sums over */
	unsigned int updates;     /* process mapping tables written */
	unsigned int maps_cut;    /* processes that had more mappings than a table holds */
	unsigned int holds;       /* processes stopped while their tables were built */
	uint64_t held_ns;         /* the time they were stopped, summed */
	uint64_t max_held_ns;     /* the longest stop */
};

struct unwinder;

/* The processes' mappings come from @pt. NULL + errno. */
struct unwinder *unwinder__new(struct loader *l, struct proc_table *pt,
			       const struct unwinder_opts *o);
void unwinder__free(struct unwinder *u);

/*
 * Write @tgid's mapping table from its newest image, asking the worker
 * for the table of every binary it maps that has none yet. 0 or -errno (a
 * binary without a table is not an error: its frames use frame pointers).
 */
int unwinder__sync(struct unwinder *u, pid_t tgid);
/*
 * @tgid's mappings changed: its table is written at the next
 * unwinder__flush(), once for a batch of side-band records. 0 or -ENOMEM.
 */
int unwinder__mark(struct unwinder *u, pid_t tgid);
/* unwinder__sync() each process marked. 0 or the first error. */
int unwinder__flush(struct unwinder *u);
/* Forget @tgid's mappings (it exited). */
void unwinder__drop(struct unwinder *u, pid_t tgid);
/* Continue every process held for a table and hold none from now on (sampling is over). */
void unwinder__unhold(struct unwinder *u);
/* Binary @id is freed (no process maps it): its table leaves the maps. */
void unwinder__forget_binary(struct unwinder *u, unsigned int id);

/* Readable when tables built by the worker wait for unwinder__complete(). */
int unwinder__fd(const struct unwinder *u);
/* Put the finished tables in the maps and tell the processes mapping them. 0 or -errno. */
int unwinder__complete(struct unwinder *u);
/*
 * unwinder__complete() until no table is being built: 0, or -EINTR as soon
 * as @stop_fd (-1: none) is readable, with tables still being built, or
 * another -errno.
 */
int unwinder__wait(struct unwinder *u, int stop_fd);
/* Every half second or so: advance the epoch, load the tables walks asked for. */
void unwinder__tick(struct unwinder *u);

const struct unwinder_stats *unwinder__stats(const struct unwinder *u);
/* Start the latency figures afresh (when sampling starts). */
void unwinder__reset_latency(struct unwinder *u);

#endif /* BPFPROF_UNWINDER_H */
