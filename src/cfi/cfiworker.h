/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unwind tables built off the event loop: one thread takes binaries in the
 * order they are submitted, reads each table from the disk cache or
 * builds it (cficache__get), and hands the result back. The event loop
 * polls cfi_worker__fd() and takes the results; it alone touches the BPF
 * maps. The thread keeps the process's priority: a lower one would leave
 * the table-build latency unbounded beside a busy workload.
 */
#ifndef BPFPROF_CFIWORKER_H
#define BPFPROF_CFIWORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfitable.h"

struct cfi_result {
	unsigned int id;        /* as submitted */
	struct cfi_table *table; /* the caller's to free; NULL: see err */
	int err;                /* 0, or the errno of cficache__get */
	bool cached;            /* read from the disk cache */
	uint64_t build_ns;      /* time the thread spent on it */
};

struct cfi_worker;

/* The thread is started here; @cache_dir (may be NULL: no cache) is copied. NULL + errno. */
struct cfi_worker *cfi_worker__new(const char *cache_dir);
/* Stop the thread (after the table in progress) and free what is left. */
void cfi_worker__free(struct cfi_worker *w);

/* Build the table of the ELF file at @fd (duplicated: the caller keeps its own). 0 or -errno. */
int cfi_worker__submit(struct cfi_worker *w, unsigned int id, int fd);
/* The same for an ELF image in memory that outlives the worker (the vDSO's); no cache. */
int cfi_worker__submit_image(struct cfi_worker *w, unsigned int id, const void *image,
			     size_t size);
/* Readable (POLLIN) while results wait to be taken. */
int cfi_worker__fd(const struct cfi_worker *w);
/* The oldest result into *@r: 0, or -EAGAIN when there is none yet. */
int cfi_worker__take(struct cfi_worker *w, struct cfi_result *r);
/* Tables submitted and not yet taken. */
size_t cfi_worker__pending(const struct cfi_worker *w);

#endif /* BPFPROF_CFIWORKER_H */
