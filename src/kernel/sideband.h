/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The side band: a PERF_COUNT_SW_DUMMY event per CPU whose ring buffer
 * carries MMAP2 (executable mappings, with dev/inode), COMM, FORK and EXIT
 * records, decoded here into calls of struct sideband_ops in the order of
 * their times: a child's exec and mappings often land in another CPU's
 * ring than the fork that made it, and read ring by ring they would come
 * first.
 */
#ifndef BPFPROF_SIDEBAND_H
#define BPFPROF_SIDEBAND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "idlist.h"

struct sb_mmap {
	pid_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino;
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

/*
 * One dummy event and ring of @pages data pages (a power of 2) per CPU; no
 * CPUs: no rings, records come from sideband__parse alone.
 */
struct sideband *sideband__open(const struct idlist *cpus, unsigned int pages);
void sideband__free(struct sideband *sb);
size_t sideband__nr_fds(const struct sideband *sb);
int sideband__fd(const struct sideband *sb, size_t i);
/*
 * Read every ring and decode, in time order, the records a millisecond
 * old or older; younger ones wait, in case an older one is still being
 * written on another CPU. Returns records decoded or -errno.
 */
int sideband__read(struct sideband *sb, const struct sideband_ops *ops, void *ctx);
/* The same for every record, however young (once sampling has stopped). */
int sideband__drain(struct sideband *sb, const struct sideband_ops *ops, void *ctx);
/*
 * Take the records of a ring's data area, @size bytes (a multiple of 8) at
 * @data (8-aligned), from stream byte *@tail to @head (free-running, as
 * the ring's data_tail and data_head: a record may wrap around the end of
 * the area), as sideband__read takes those of its rings: they wait to be
 * handed out by the next read or drain. Nothing is read outside the area
 * or past @head. A record whose kind is not decoded, or that does not
 * hold together (shorter than its fixed part and time, a file name or
 * comm without a NUL before its end, a mapping that wraps) is skipped; a
 * size no record can have (below a header, not a multiple of 8, past
 * @head) ends the walk: the rest is skipped. *@tail becomes @head, or on
 * -ENOMEM the record that stays for the next call. 0 or -ENOMEM.
 */
int sideband__parse(struct sideband *sb, const void *data, size_t size, uint64_t *tail,
		    uint64_t head);
/*
 * Milliseconds until waiting records may be decoded (INT_MAX at most: a
 * time far ahead waits for the drain), -1 when none wait.
 */
int sideband__wait_ms(const struct sideband *sb);
/* Records read after a newer one (put back in order), and those that came
 * too late for it (decoded after a newer one). */
uint64_t sideband__reordered(const struct sideband *sb);
uint64_t sideband__late(const struct sideband *sb);
/* Records the kernel reported lost (rings full). */
uint64_t sideband__lost(const struct sideband *sb);

#endif /* BPFPROF_SIDEBAND_H */
