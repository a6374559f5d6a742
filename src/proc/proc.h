/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Processes, their executable mappings and the binaries behind them,
 * as the side band and a /proc scan report them during the run. Each
 * binary is opened once, while a process that maps it still lives
 * (/proc/PID/map_files, then its path resolved inside /proc/PID/root: a
 * regular file, never a host file a container's symlink points at), and is
 * known by device/inode and mount namespace, so a process that exits, a
 * deleted binary or one that exists only in a container's mount namespace
 * can still be symbolized.
 */
#ifndef BPFPROF_PROC_H
#define BPFPROF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buildid.h"

struct binary {
	unsigned int id;   /* 0..nr-1, for per-binary caches; never reused */
	char *path;        /* as mapped, " (deleted)" removed */
	const char *name;  /* basename of path */
	dev_t dev;
	uint64_t ino;      /* 0 = unknown */
	uint8_t build_id[BUILD_ID_MAX];
	size_t build_id_len; /* 0 = none */
	int fd;            /* -1 when no copy of the file could be opened */
	bool denied;       /* fd -1 for permissions: the file's path was there,
			      our user may not read it (EACCES, EPERM) */
	int root_fd;       /* the root of the process it was opened through, when
			      that is in another mount namespace (O_PATH); else -1 */
	uint64_t mnt_ns;   /* that process's mount namespace (inode; 0 = unknown):
			      one binary per file and namespace, never per build-id */
	bool vdso;         /* the kernel's vDSO: no file */
	uint64_t unmapped_ns; /* when a release sweep found it unmapped, unless
				 mapped again since; 0: mapped */
};

struct mapping {
	uint64_t start, end, pgoff;
	struct binary *bin; /* NULL: anonymous memory */
};

/* One executable mapping as a source reports it. */
struct map_event {
	uint64_t start, end, pgoff;
	dev_t dev;
	uint64_t ino;                 /* 0 = unknown */
	const uint8_t *build_id;      /* NULL = unknown */
	size_t build_id_len;
	const char *path;             /* "/usr/lib/...", "[vdso]", "" = anon */
};

/*
 * The same file: one object, else the same build-id when both have one,
 * else the same device and inode.
 */
bool proc_table__same_binary(const struct binary *a, const struct binary *b);

struct proc_table;

/* @track_all: every process; else only those given to proc_table__track. */
struct proc_table *proc_table__new(bool track_all);
void proc_table__free(struct proc_table *pt);

/* Follow @tgid (and the processes it forks) and read its maps now. */
int proc_table__track(struct proc_table *pt, pid_t tgid);
/* Read /proc/PID/maps of every process (track_all mode). */
int proc_table__scan_all(struct proc_table *pt);

/* Side band events. */
int proc_table__mmap(struct proc_table *pt, pid_t tgid, const struct map_event *ev);
int proc_table__comm(struct proc_table *pt, pid_t tgid, pid_t tid, const char *comm,
		     bool exec);
int proc_table__fork(struct proc_table *pt, pid_t ptgid, pid_t tgid, pid_t tid);
/* Process @tgid has exited: it may be forgotten from now on. 0. */
int proc_table__exit(struct proc_table *pt, pid_t tgid);
/*
 * Free what is known of @tgid, an exited process (its mappings, its exec
 * generations; binaries stay), once nothing will be looked up in it: its
 * samples are symbolized. A process forked again with the same pid since
 * its exit is kept. 0, or -ENOENT (unknown, or not exited).
 */
int proc_table__forget(struct proc_table *pt, pid_t tgid);

/*
 * The mapping holding @addr in @tgid. Of several exec generations of the
 * process, the newest whose comm equals @comm, else the newest. NULL when
 * the process or the address is unknown.
 */
const struct mapping *proc_table__find(struct proc_table *pt, pid_t tgid, const char *comm,
				       uint64_t addr);

/* Call @fn for each process known (tracked). */
void proc_table__for_each_process(struct proc_table *pt, void (*fn)(pid_t tgid, void *ctx),
				  void *ctx);
/* Call @fn for each process whose newest image has anonymous executable memory (a JIT). */
void proc_table__for_each_jit(struct proc_table *pt, void (*fn)(pid_t tgid, void *ctx),
			      void *ctx);

typedef int (*proc_mapping_fn)(pid_t tgid, const struct mapping *m, void *ctx);
/*
 * Call @fn for every executable mapping of every process (its newest exec
 * generation). Stops at the first nonzero return and returns it; else 0.
 */
int proc_table__for_each_mapping(struct proc_table *pt, proc_mapping_fn fn, void *ctx);
/* The same for the mappings of @tgid alone (none when it is unknown). */
int proc_table__for_each_mapping_of(struct proc_table *pt, pid_t tgid, proc_mapping_fn fn,
				    void *ctx);
/* The name (comm) of @tgid's newest exec generation, or NULL when unknown. */
const char *proc_table__comm_of(const struct proc_table *pt, pid_t tgid);

/* The binary ids handed out so far: every binary's id is below it. */
size_t proc_table__nr_binaries(const struct proc_table *pt);

typedef void (*proc_binary_fn)(const struct binary *b, void *ctx);
/*
 * Free the binaries no mapping of any process in the table has referred to
 * (their processes forgotten, or unmapped) since a sweep at least @grace_ns
 * before @now_ns (monotonic): a file mapped again within the grace, as a
 * program run over and over is, keeps its binary and what was read of it.
 * @fn is called for each first, so that what is kept by binary id can be
 * dropped. A freed binary is reached by no mapping, so nothing can look it
 * up again; a file mapped later is a new binary with a new id (ids are not
 * reused). Returns how many were freed.
 */
size_t proc_table__release_unmapped(struct proc_table *pt, uint64_t now_ns, uint64_t grace_ns,
				    proc_binary_fn fn, void *ctx);
size_t proc_table__nr_processes(const struct proc_table *pt);
/*
 * A mapped file had to be found by its path inside a process's root, and
 * the kernel has no openat2 (before 5.6, or a seccomp filter refuses it):
 * it was not opened, since nothing else keeps the path inside that root.
 */
bool proc_table__no_openat2(const struct proc_table *pt);

/* File offset of @addr in @m: addr - start + pgoff. */
static inline uint64_t mapping__file_offset(const struct mapping *m, uint64_t addr)
{
	return addr - m->start + m->pgoff;
}

/*
 * @path (a map_event's) names memory of no file, as perf's is_anon_memory
 * has it: "" and "[heap]", "[anon:NAME]" (/proc), "//anon" (the side band),
 * and the files the kernel puts behind shared anonymous memory
 * (MAP_SHARED|MAP_ANONYMOUS: "/dev/zero (deleted)"; with MAP_HUGETLB
 * "/anon_hugepage (deleted)"). Its code is named from the process's JIT
 * map. "[vdso]" and other paths are files. Pure.
 */
bool proc_maps__anon_path(const char *path);

/*
 * Parse one /proc/PID/maps line. Returns 1 for an executable mapping
 * (@ev filled; ev->path points into @line), 0 for another mapping,
 * -EINVAL for a malformed line. Pure.
 */
int proc_maps__parse_line(char *line, struct map_event *ev);

#endif /* BPFPROF_PROC_H */
