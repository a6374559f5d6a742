/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the user asked for, after parsing and cross-option checks. The CLI
 * fills it; everything after reads it as const.
 */
#ifndef BPFPROF_OPTIONS_H
#define BPFPROF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "demangle.h"
#include "numlist.h"

enum output_format {
	FORMAT_FOLDED,
};

enum stack_mode {
	STACKS_BOTH,
	STACKS_USER_ONLY,   /* -U: user frames only (kernel time still counted) */
	STACKS_KERNEL_ONLY, /* -K: kernel frames only */
};

/* record --unwind */
enum unwind_mode {
	UNWIND_AUTO,  /* DWARF tables where they exist, frame pointers elsewhere (default) */
	UNWIND_DWARF, /* DWARF tables only: a frame without one ends the stack */
	UNWIND_FP,    /* frame pointers only */
};

/* bpfprof range -f */
enum listing_format {
	LISTING_TEXT, /* the annotated listing (default) */
	LISTING_JSON, /* one JSON document (-f json, or -o NAME.json) */
};

/* bpfprof range --sort */
enum listing_sort {
	SORT_ADDRESS, /* instructions in address order (default) */
	SORT_SAMPLES, /* hottest first */
};

#define OPT_DEFAULT_FREQ 99
#define OPT_DEFAULT_MAX_STACKS 16384
#define OPT_DEFAULT_UNWIND_MEMORY (32ull << 20)

struct record_opts {
	/* targets; none of pids/tids/cgroup/command given = whole system */
	bool all_cpus;         /* -a (explicit or implied) */
	struct idlist pids;    /* -p: processes, followed into new threads/children */
	struct idlist tids;    /* -t: single threads */
	const char *cgroup;    /* -G: cgroup v2 path (absolute or below the mount) */
	struct idlist cpus;    /* -C: empty = every online CPU */
	char **command;        /* argv after --, NULL-terminated, or NULL */
	bool idle;             /* --idle: keep samples of pid 0 */

	/* sampling */
	const char *event;     /* -e as given (default "cpu-clock") */
	struct perf_event_attr attr; /* filled from event + freq/period */
	unsigned long long freq;     /* -F, when !use_period */
	unsigned long long period;   /* -c, when use_period */
	bool use_period;
	double duration;       /* -d seconds; 0 = until signal/exit */
	enum stack_mode stacks;
	unsigned int max_depth;  /* frames per user and per kernel stack */
	unsigned int max_stacks; /* counts map entries; stacks map gets 2x */
	enum unwind_mode unwind; /* --unwind */
	unsigned long long unwind_memory; /* --unwind-memory: bytes of unwind tables */
	bool stats;            /* --stats: walk outcomes, tables, BPF run time */

	/* output */
	const char *output;    /* -o; NULL or "-" = stdout */
	enum output_format format;
	bool per_pid;          /* first frame comm-PID */
	bool per_thread;       /* first frame comm-PID/TID; implies per-pid */
	bool quiet;            /* -q: no summary */
	enum demangle_mode demangle; /* --demangle, --no-demangle (default short) */
	bool inlines;          /* inlined-call frames (default; --no-inline) */
	bool lines;            /* --lines: FILE:LINE in frame names */
	const char **debug_dirs; /* --debug-dir roots then /usr/lib/debug, NULL-terminated */
	size_t nr_debug_dirs;

	/* hidden, for bench/: attach a handler that returns at once */
	bool empty_handler;
};

/* bpfprof range: the ranges and the listing; struct record_opts has the rest. */
struct range_opts {
	char **ranges;         /* RANGE arguments as given, checked by rangespec */
	size_t nr_ranges;
	enum listing_format format; /* -f */
	enum listing_sort sort; /* --sort */
	bool disasm;           /* the instruction column (default; --no-disasm) */
	bool source;           /* source lines (default; --no-source) */
	const char *stacks;    /* --stacks=FILE: in-range samples' stacks; NULL: none */
	enum output_format stacks_format; /* from FILE's extension */
};

#endif /* BPFPROF_OPTIONS_H */
