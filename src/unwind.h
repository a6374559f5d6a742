/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The DWARF unwinder's side in user space: each binary a target maps gets
 * its CFI compiled into an unwind table (cfitable.c; cached on disk by
 * build-id, cficache.c), copied into the BPF row and page maps once; each
 * target process gets the table of its executable mappings (sorted, each
 * naming its binary's table and load bias), rewritten whenever the side
 * band reports a new mapping or an exec. The BPF program (bpf/unwind.bpf.h)
 * walks stacks with them. Memory is bounded by the maps' sizes, set before
 * load: a binary that does not fit gets no table (frame pointers there),
 * and is counted.
 */
#ifndef BPFPROF_UNWIND_H
#define BPFPROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loader.h"
#include "proc.h"

struct unwinder_opts {
	const char *cache_dir; /* NULL: no disk cache */
	unsigned int max_bins; /* entries of unwind_bins (loader_cfg.unwind_bins) */
};

struct unwinder_stats {
	unsigned int tables;      /* binaries with a table loaded */
	unsigned int cached;      /* of which read from the disk cache */
	unsigned int no_cfi;      /* binaries without usable CFI (or unreadable) */
	unsigned int full;        /* binaries whose table did not fit in the maps */
	uint64_t rows;            /* rows loaded */
	uint64_t bytes;           /* bytes of rows and page entries loaded */
	uint64_t build_ns;        /* time spent building or reading tables */
	uint64_t max_build_ns;    /* the longest one */
	const char *max_build_name; /* its binary's name */
	unsigned int updates;     /* process mapping tables written */
	unsigned int maps_cut;    /* processes with more mappings than a table holds */
};

struct unwinder;

struct unwinder *unwinder__new(struct loader *l, const struct unwinder_opts *o);
void unwinder__free(struct unwinder *u);

/*
 * Write @tgid's mapping table from its newest image in @pt, first loading
 * the table of every binary it maps that has none yet. 0 or -errno (a
 * binary without a table is not an error: its frames use frame pointers).
 */
int unwinder__sync(struct unwinder *u, struct proc_table *pt, pid_t tgid);
/* Forget @tgid's mappings (it exited). */
void unwinder__drop(struct unwinder *u, pid_t tgid);

const struct unwinder_stats *unwinder__stats(const struct unwinder *u);

#endif /* BPFPROF_UNWIND_H */
