/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every output format in one registry (output.c): its -f name, the file
 * extension that implies it, what it takes (a profile or a listing) and its
 * writer. Writers see only that plain data and these options; they never
 * print anything else. A new format is one writer file and one row.
 */
#ifndef BPFPROF_OUTPUT_H
#define BPFPROF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "listing.h"
#include "profile.h"

/* What a writer takes. */
enum output_input {
	OUTPUT_PROFILE, /* stacks and counts (record, range --stacks) */
	OUTPUT_LISTING, /* per-instruction counts of ranges (range) */
};

/*
 * About the run, for a format that describes it (svg's subtitle): filled
 * by the mode before it writes; NULL where unknown.
 */
struct output_run {
	const char *target; /* "make -j2", "pid 1234", "the whole system" */
	const char *event;  /* "cpu-clock" */
	unsigned long long rate; /* Hz, or with .period the events a sample */
	bool period;
};

/* svg's options; zero: the defaults. */
struct output_svg {
	const char *title;    /* NULL: "Flame Graph" ("Icicle Graph" inverted) */
	const char *subtitle; /* NULL: the run, its duration and samples */
	unsigned int width;   /* pixels; 0: 1200 */
	double minwidth;      /* frames narrower (pixels) are left out */
	bool minwidth_given;  /* else 0.1 */
	bool inverted;        /* an icicle graph: the root at the top */
};

/* How the writers show what they take: the -f format and its options. */
struct output_opts {
	const struct output_format *format;
	/* profiles */
	bool per_pid;    /* process frame "comm-PID" */
	bool per_thread; /* process frame "comm-PID/TID" */
	bool lines;      /* "name file.c:LINE" where the line is known */
	uint64_t period_ns; /* a clock event's sample period (pprof's cpu time); 0: not one */
	struct output_svg svg;
	unsigned long long limit; /* top: rows at most; 0: every row */
	struct output_run run;
	/* listings */
	enum listing_sort sort;
	bool disasm; /* the instruction column */
	bool source; /* the source column and the hottest lines */
};

struct output_format {
	const char *name; /* -f NAME */
	const char *ext;  /* the -o FILE extension that implies it; NULL: none */
	const char *default_file; /* written in the working directory without -o */
	enum output_input takes;
	bool needs_lines; /* profiles: keep source lines (profile.drop_lines off) */
	bool needs_bins;  /* profiles: keep each frame's binary (profile.keep_bins) */
	bool binary;      /* not text: never written to a terminal */
	/*
	 * the one that matches .takes; 0 or -errno. *@rows (unless NULL): the
	 * stacks as written, those the format shows alike merged (a folded
	 * file's lines), which is what the summary counts
	 */
	int (*write_profile)(FILE *f, const struct profile *p, const struct output_opts *o,
			     size_t *rows);
	int (*write_listing)(FILE *f, const struct listing *ls, const struct output_opts *o);
};

/*
 * What a profile must keep for the output @o describes (struct profile's
 * flags, set before the drain or reader fills it): source lines only where
 * the output shows them (--lines, or a format that always does: pprof),
 * each frame's binary where the format names it (pprof, json).
 */
static inline bool output__drop_lines(const struct output_opts *o)
{
	return !o->lines && !o->format->needs_lines;
}

static inline bool output__keep_bins(const struct output_opts *o)
{
	return o->format->needs_bins;
}

/* The format of what @in is named @name; NULL: none. */
const struct output_format *output__by_name(enum output_input in, const char *name);
/*
 * The format a file's extension implies ("x.folded", any case), else the
 * first of @in's.
 */
const struct output_format *output__by_file(enum output_input in, const char *file);
/*
 * Can @file hold @in by its name? -EINVAL when its extension names a
 * format bpfprof does not write (out.html, out.pb, perf.data, flame.png), or one of
 * bpfprof's for the other input only (a profile's .folded for a listing), with
 * why in @why, listing the formats @in is written as; else 0 (a name
 * without an extension, or with another one, gets the default format).
 */
int output__check_file(enum output_input in, const char *file, char *why, size_t size);
/* The @i-th name of a profile (listing) format, NULL past the last: cli__join_names. */
const char *output__profile_name(unsigned int i);
const char *output__listing_name(unsigned int i);

/* Folded stacks (output-folded.c). */
extern const struct output_format output_folded;
/* pprof's protobuf, gzipped (output-pprof.c). */
extern const struct output_format output_pprof;
/* An interactive flame graph, one SVG file (output-svg.c). */
extern const struct output_format output_svg;
/* A flat table of functions, self and total samples (output-top.c). */
extern const struct output_format output_top;
/* The profile as one JSON document (output-profile-json.c). */
extern const struct output_format output_profile_json;
/* The annotated text listing (output-listing.c). */
extern const struct output_format output_listing_text;
/* The listing as one JSON document (output-listing-json.c). */
extern const struct output_format output_listing_json;

#endif /* BPFPROF_OUTPUT_H */
