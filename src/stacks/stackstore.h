/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Stacks taken out of a stack set's stacks map (bpfprof.h), kept in user
 * space by their 128-bit id until the counts that name them are
 * symbolized: each as long as its frames, not --max-depth.
 */
#ifndef BPFPROF_STACKSTORE_H
#define BPFPROF_STACKSTORE_H

#include <stddef.h>

#include "arena.h"
#include "bpfprof.h"
#include "u64map.h"

struct stack_store {
	struct u64map ids;  /* id.lo -> the first stored stack of that lo */
	/* the stacks: chunks of 256 KiB, mappings of their own, given back
	   whole at each clear (a malloc each scattered them through the heap) */
	struct arena stacks;
	size_t nr;
};

/* Keep a copy of @st under @id (nothing when it is there already). 0 or -ENOMEM. */
int stack_store__add(struct stack_store *ss, const struct stack_id *id,
		     const struct stack_trace *st);
/* The stack stored under @id, or NULL. */
const struct stack_trace *stack_store__get(const struct stack_store *ss,
					   const struct stack_id *id);
/* Free every stack; the store is empty and usable again. */
void stack_store__clear(struct stack_store *ss);

#endif /* BPFPROF_STACKSTORE_H */
