/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * JIT symbol maps, /tmp/perf-PID.map: lines "START SIZE name" (hex, with or
 * without 0x; the name is the rest of the line). Written by node
 * --perf-basic-prof, python -X perf, perf-map-agent... Entries are appended
 * and address ranges reused: where entries overlap, the latest wins. The
 * file is untrusted input read as root: only one owned by the process's
 * user or by root is read.
 */
#ifndef BPFPROF_PERFMAP_H
#define BPFPROF_PERFMAP_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct perfmap;

/* Parse a map from @f. Malformed lines are skipped. NULL + errno (ENOMEM). */
struct perfmap *perfmap__parse(FILE *f);
/* An empty map, to be filled by perfmap__read_more. NULL on ENOMEM. */
struct perfmap *perfmap__new(void);
/*
 * Add the complete lines of @f from its current position to @pm (a line
 * without its newline is being written: left for next time). Returns the
 * bytes consumed, or -ENOMEM. Later lines still win overlaps.
 */
ssize_t perfmap__read_more(struct perfmap *pm, FILE *f);
/* The name of the latest entry holding @addr, or NULL. */
const char *perfmap__lookup(const struct perfmap *pm, uint64_t addr);
size_t perfmap__count(const struct perfmap *pm);
void perfmap__free(struct perfmap *pm);

/*
 * Open the map of process @pid: /proc/PID/root/tmp/perf-NSPID.map (its own
 * mount namespace and pid namespace), else /tmp/perf-PID.map when the
 * process is gone. Returns a FILE, or NULL with errno ENOENT (no map) or
 * EPERM (owned by neither the process's user nor root: refused).
 */
FILE *perfmap__open(pid_t pid);

#endif /* BPFPROF_PERFMAP_H */
