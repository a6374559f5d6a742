/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * bpfprof list: every event bpfprof can name (catalog.c), each probed on
 * this machine, filtered by PATTERNs and --available, written to standard
 * output as text or JSON (listprint.c). No BPF, no session.
 */
#ifndef BPFPROF_LIST_H
#define BPFPROF_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_opts {
	char *const *patterns; /* any of them matches; none: every event */
	size_t nr_patterns;
	bool available; /* only the events that open here */
	bool json;
	const char *root; /* the sysfs PMU root; NULL: this machine's */
};

/*
 * List the events. 0; -ENOENT when no event matches (why says, with the
 * nearest names); another -errno with why when the PMUs cannot be read or
 * the list not written.
 */
int list__run(const struct list_opts *o, char *why, size_t size);

#endif /* BPFPROF_LIST_H */
