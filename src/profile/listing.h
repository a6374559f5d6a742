/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof range` output: per range, every instruction with its samples,
 * function and offset, source line and disassembly; the hottest source
 * lines; the processes it was counted in. Built once after sampling stops
 * (listing.c: BPF counts, names, lines, code bytes) into plain data that
 * the writers (output-listing.c, ...) read without touching BPF or /proc.
 */
#ifndef BPFPROF_LISTING_H
#define BPFPROF_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "bpfprof.h"

/* The order of a range's rows (range --sort). */
enum listing_sort {
	SORT_ADDRESS, /* instructions in address order (default) */
	SORT_SAMPLES, /* hottest first */
};

/* One instruction (or, without the code, one sampled address). */
struct listing_row {
	uint64_t addr;    /* listing address: ELF vaddr in a binary, else absolute */
	uint64_t count;
	const char *func; /* the function holding it; NULL: none */
	uint64_t func_off;
	const char *file; /* source file (base name); NULL: unknown */
	uint32_t line;
	char *text;       /* disassembly; NULL: none */
};

/* Samples of one source line. */
struct listing_src {
	const char *file;
	uint32_t line;
	uint64_t count;
};

/* Samples of one place the range was counted in: a process, or the kernel (tgid 0). */
struct listing_proc {
	pid_t tgid;
	const char *comm; /* NULL: unknown */
	uint64_t count;
};

struct listing_range {
	const char *arg;     /* as given */
	const char *kind;    /* "kernel symbol", ... */
	const char *binary;  /* its path (or the name given); NULL: the kernel, absolute */
	const char *other;   /* another file of that name the targets map (not counted) */
	const char *symbol;  /* the function named or at its start; NULL: none */
	const char *impl;    /* an IFUNC's selected function; NULL: not an IFUNC */
	uint64_t start, end; /* listing addresses; end == start: unresolved */
	bool unmapped;       /* no target mapped its binary: nothing was counted */
	const char *not_counted; /* why a binary mapped during the run got no
				    place (unknown symbol there...); NULL: none */
	uint64_t samples;
	struct listing_row *rows; /* by address */
	size_t nr_rows;
	struct listing_src *srcs; /* hottest first */
	size_t nr_srcs;
	struct listing_proc *procs; /* those with samples, most first */
	size_t nr_procs;
	size_t nr_insts;     /* the places it was counted in */
	const char *no_code; /* why there is no disassembly, or NULL */
	const char *no_source; /* why no row has a source line, or NULL */
};

struct listing {
	struct listing_range *ranges;
	size_t nr;
	uint64_t stats[STAT__MAX]; /* the BPF program's counters, all CPUs */
	double duration;           /* seconds sampled */
};

void listing__free(struct listing *ls);

/*
 * A range's rows in the order of --sort (by address, or hottest first and
 * then by address): an array of pointers into lr->rows, malloc'd; NULL on
 * ENOMEM.
 */
const struct listing_row **listing__range_rows(const struct listing_range *lr,
					       enum listing_sort sort);

/* Samples of the targets: seen, less idle and filtered ones. */
uint64_t listing__target_samples(const struct listing *ls);

#endif /* BPFPROF_LISTING_H */
