/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * JIT symbol maps, /tmp/perf-PID.map: lines "START SIZE name" (hex, with or
 * without 0x; the name is the rest of the line). Written by node
 * --perf-basic-prof, python -X perf, perf-map-agent... Entries are appended
 * and address ranges reused: where entries overlap, the latest wins. The
 * file is untrusted input read as root: only one owned by the process's
 * user or by root is read, at most --jit-map-max bytes of it and one entry
 * per PERFMAP_BYTES_PER_ENTRY of that, in chunks; an entry whose size
 * wraps or passes PERFMAP_SIZE_MAX ends at the next entry's start (at most
 * PERFMAP_SIZE_MAX on), so it cannot swallow the names of the others; a
 * lookup is one binary search.
 */
#ifndef BPFPROF_PERFMAP_H
#define BPFPROF_PERFMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define PERFMAP_SIZE_MAX (UINT64_C(1) << 30) /* no JIT function is bigger */
#define PERFMAP_BYTES_PER_ENTRY 64           /* of the byte cap: the entry cap */

struct perfmap;

/*
 * Parse a map from @f, at most @max_bytes of it. Malformed lines are
 * skipped. NULL + errno (ENOMEM).
 */
struct perfmap *perfmap__parse(FILE *f, uint64_t max_bytes);
/*
 * An empty map, to be filled by perfmap__read_more with at most @max_bytes
 * of a file, and max_bytes / PERFMAP_BYTES_PER_ENTRY entries. NULL on ENOMEM.
 */
struct perfmap *perfmap__new(uint64_t max_bytes);
/*
 * Add the complete lines of @f from its current position to @pm (a line
 * without its newline is being written: left for next time), until the
 * caps. Returns the bytes consumed, or -ENOMEM. Later lines still win
 * overlaps.
 */
ssize_t perfmap__read_more(struct perfmap *pm, FILE *f);
/*
 * The name of the latest entry holding @addr, or NULL (errno ENOMEM when
 * the entries added since the last lookup could not be indexed).
 */
const char *perfmap__lookup(struct perfmap *pm, uint64_t addr);
size_t perfmap__count(const struct perfmap *pm);
/* Entries whose size wrapped or passed PERFMAP_SIZE_MAX (clipped). */
size_t perfmap__oversized(const struct perfmap *pm);
/* Reading stopped at a cap: the rest of the file is ignored. */
bool perfmap__full(const struct perfmap *pm);
void perfmap__free(struct perfmap *pm);

/*
 * Open the map of process @pid: /proc/PID/root/tmp/perf-NSPID.map (its own
 * mount namespace and pid namespace), else /tmp/perf-PID.map when the
 * process is gone. Returns a FILE, or NULL with errno ENOENT (no map) or
 * EPERM (owned by neither the process's user nor root: refused).
 */
FILE *perfmap__open(pid_t pid);

#endif /* BPFPROF_PERFMAP_H */
