/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A pprof profile (profile.proto, gzipped or not) read into a profile
 * (bpfprof report, diff): bpfprof's own, Go's runtime/pprof's or any other
 * producer's. The input is from outside: gzip is inflated to at most
 * pprofread__inflate_bound bytes (counted before any is kept), every
 * length, string index and id is checked (pbread.c), and a bad file is
 * refused with one line saying why.
 *
 * What bpfprof's pprof writer made data goes back into frame kinds, so that
 * its folded output reads as record's: a location's Lines are a frame and
 * the calls inlined into it (the innermost first), frames of the mapping
 * "[kernel.kallsyms]" are kernel frames, named frames of "[anon]" JIT
 * frames, a location without a mapping named in brackets ("[truncated]")
 * a mark; the labels comm, pid and tid are the process. A profile with no
 * comm label (Go's) gets no_procs: no process frame. Names are unescaped
 * (escape__undo), as bpfprof's writer escaped them.
 */
#ifndef BPFPROF_PPROFREAD_H
#define BPFPROF_PPROFREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/*
 * gzip is inflated to at most 64 times its own size (pprof's gzip makes 5
 * to 20 times; a bomb, 1000), at least 1 MiB and at most 256 MiB, unless
 * the caller says how much (report's --max-input).
 */
#define PPROFREAD_INFLATE_RATIO 64u
#define PPROFREAD_INFLATE_MIN (1ull << 20)
#define PPROFREAD_INFLATE_MAX (256ull << 20)
/* A profile's samples hold at most this many frames a byte of the decoded profile. */
#define PPROFREAD_FRAMES_PER_BYTE 16

/* What the file said beyond its stacks, for the writers. */
struct pprofread_info {
	bool pid, tid;      /* samples had pid (tid) labels: written per process (thread) */
	uint64_t period_ns; /* the period of a cpu/nanoseconds period type; 0: none */
};

/* Does @buf start as gzip does (1f 8b)? */
bool pprofread__gzip(const void *buf, size_t len);

/* The most @len bytes of gzip may inflate to: @max, or by default the bounds above. */
uint64_t pprofread__inflate_bound(size_t len, uint64_t max);

/*
 * Add the samples of the pprof profile in the @len bytes at @buf to @p:
 * each sample's value of the sample type named @value (NULL: the first
 * one), leaf-first locations turned root first; gzip inflated to at most
 * @max_inflated bytes (0: the default bound). 0, or -EBADMSG with why in
 * @why (not gzip or protobuf, truncated, an index or id out of range, no
 * sample types, no such @value: the types it has), -EFBIG past the
 * bounds (the why names the bound and --max-input), -ENOMEM, -E2BIG.
 */
int pprofread__parse(struct profile *p, const void *buf, size_t len, const char *value,
		     uint64_t max_inflated, struct pprofread_info *info, char *why,
		     size_t size);

#endif /* BPFPROF_PPROFREAD_H */
