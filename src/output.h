/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Output formats behind one small ops struct; writers see only the profile. */
#ifndef BPFPROF_OUTPUT_H
#define BPFPROF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "profile.h"

struct output_opts {
	bool per_pid;    /* process frame "comm-PID" */
	bool per_thread; /* process frame "comm-PID/TID" */
	bool lines;      /* "name file.c:LINE" where the line is known */
};

struct output_ops {
	const char *name;
	/* 0 or -errno; never prints anything but the profile */
	int (*write)(FILE *f, const struct profile *p, const struct output_opts *o);
};

const struct output_ops *output__ops(enum output_format format);

/* folded stacks (output-folded.c) */
extern const struct output_ops output_folded;
/* One folded line without its count ("comm;a;b_[k]"), malloc'd; NULL on ENOMEM. */
char *fold__line(const struct profile_stack *st, const struct output_opts *o);

#endif /* BPFPROF_OUTPUT_H */
