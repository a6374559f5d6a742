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
/* The @i-th format's -f name; NULL past the last. */
const char *output__format_name(unsigned int i);
/* The format named @name: 0, or -ENOENT. */
int output__format_by_name(const char *name, enum output_format *format);
/* The format a file's extension implies ("x.folded"); folded when none does. */
enum output_format output__format_by_file(const char *file);

/* folded stacks (output-folded.c) */
extern const struct output_ops output_folded;
/* One folded line without its count ("comm;a;b_[k]"), malloc'd; NULL on ENOMEM. */
char *fold__line(const struct profile_stack *st, const struct output_opts *o);

#endif /* BPFPROF_OUTPUT_H */
