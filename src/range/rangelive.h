/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof range while sampling runs: the page entries of the BPF range
 * check (range_pages) as they change. The entries laid out before the start
 * are stored first; then ranges placed in libraries and processes that
 * appear (the side band) are merged into the entries of their pages, and a
 * process's entries are dropped when it execs (its addresses mean other code
 * then) or when its pid is reused. The program sees each entry whole, old
 * or new: a hash map update replaces the element.
 */
#ifndef BPFPROF_RANGELIVE_H
#define BPFPROF_RANGELIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loader.h"
#include "rangepages.h"

struct range_live;

/* @shift and @slots as the program was loaded with. NULL on ENOMEM. */
struct range_live *range_live__new(struct loader *l, unsigned int shift, unsigned int slots);
void range_live__free(struct range_live *rl);

/* Store the entries laid out before the start. 0 or -errno. */
int range_live__store(struct range_live *rl, const struct range_pages *rp);

/*
 * Merge @n places into their pages. Returns how many places could not be
 * stored whole (a page's slots all used, or the map full: see
 * range_live__missed), or -errno when the map could not be written.
 */
int range_live__add(struct range_live *rl, const struct range_place *places, size_t n);

/* Delete every entry of @tgid (it exec'd, or the pid is another process now). */
void range_live__drop(struct range_live *rl, pid_t tgid);

/* Places not stored whole so far (range_live__add's count, summed). */
uint64_t range_live__missed(const struct range_live *rl);

#endif /* BPFPROF_RANGELIVE_H */
