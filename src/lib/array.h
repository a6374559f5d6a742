/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Arrays: the element count of a fixed one; one way to grow one, by doubling. */
#ifndef BPFPROF_ARRAY_H
#define BPFPROF_ARRAY_H

#include <stddef.h>

/* The number of elements of the array (not pointer) @a (libiberty's is the same). */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Make *@arr (a malloc'd array of *@cap elements of @elem bytes) hold at
 * least @need elements, doubling from 8; *@arr and *@cap are updated only
 * on success. 0 or -ENOMEM (also when the size would overflow).
 */
int array__grow(void **arr, size_t *cap, size_t need, size_t elem);

#endif /* BPFPROF_ARRAY_H */
