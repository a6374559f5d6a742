/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The side band: a PERF_COUNT_SW_DUMMY event per CPU whose ring buffer
 * carries MMAP2 (executable mappings, with build-ids), COMM, FORK and EXIT
 * records, decoded here into calls of struct sideband_ops.
 */
#ifndef BPFPROF_SIDEBAND_H
#define BPFPROF_SIDEBAND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "numlist.h"

struct sb_mmap {
	pid_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min; /* 0 when a build-id came instead */
	uint64_t ino;
	const uint8_t *build_id; /* NULL when maj/min/ino came instead */
	size_t build_id_len;
	uint32_t prot, flags;
	const char *filename;
};

struct sideband_ops {
	void (*mmap)(void *ctx, const struct sb_mmap *m);
	void (*comm)(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec);
	void (*fork)(void *ctx, pid_t ppid, pid_t pid, pid_t tid);
	void (*exit)(void *ctx, pid_t pid, pid_t tid);
};

struct sideband;

/* One dummy event and ring of @pages data pages (a power of 2) per CPU. */
struct sideband *sideband__open(const struct idlist *cpus, unsigned int pages);
void sideband__free(struct sideband *sb);
size_t sideband__nr_fds(const struct sideband *sb);
int sideband__fd(const struct sideband *sb, size_t i);
/* Decode every pending record of every ring. Returns records read or -errno. */
int sideband__read(struct sideband *sb, const struct sideband_ops *ops, void *ctx);
/* Records the kernel reported lost (rings full). */
uint64_t sideband__lost(const struct sideband *sb);

#endif /* BPFPROF_SIDEBAND_H */
