// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The profile as one JSON document (-f json), for scripts: the run, its
 * totals and every counter of lost samples by name, then tables of the
 * distinct processes, binaries and frames, then the stacks, each a count,
 * the index of its process and the indexes of its frames, root first (and
 * with several -e events, a table of the events and each stack's). A
 * frame (name, kind, source file and line, binary) is written once however
 * many stacks hold it, so 65,536 stacks of 20 frames are a few megabytes.
 * Names, files and paths are written as they are, JSON-escaped (json.c:
 * bytes that are not UTF-8 become U+FFFD), not "\xHH" as in the text
 * formats; kinds are a field, not name suffixes. man/bpfprof-record.1 (JSON
 * OUTPUT) documents every field; a change of a field's meaning or a
 * removal increments JSON_VERSION.
 */
#include <errno.h>

#include "json.h"
#include "output.h"

#define JSON_VERSION 1
#define JSON_INDENT 2
/* the document's members and each table's items on lines of their own */
#define JSON_LEVELS 2

static const char *const kinds[] = {
	[FRAME_USER] = "user",
	[FRAME_KERNEL] = "kernel",
	[FRAME_INLINE] = "inline",
	[FRAME_JIT] = "jit",
	[FRAME_MARK] = "mark",
};

/* What was sampled, how, for how long. */
static void profile_json__run(struct json_writer *w, const struct profile *p,
			      const struct output_opts *o)
{
	const struct output_run *run = &o->run;

	json__field_string(w, "target", run->target);
	json__field_string(w, "event", run->event);
	json__field_u64_if(w, "frequency_hz", run->rate && !run->period, run->rate);
	json__field_u64_if(w, "period", run->rate && run->period, run->rate);
	json__field_u64_if(w, "period_ns", o->period_ns, o->period_ns);
	json__field_double(w, "duration_s", p->duration, 3);
	json__field_u64(w, "cpus", p->ncpus);
}

/* The program's counters: samples seen, kept, and lost by cause. */
static void profile_json__counters(struct json_writer *w, const struct profile *p)
{
	const uint64_t *st = p->stats;

	json__key(w, "counters");
	json__begin_object(w);
	json__field_u64(w, "seen", st[STAT_SEEN]);
	json__field_u64(w, "kept", st[STAT_KEPT]);
	json__field_u64(w, "idle", st[STAT_IDLE]);
	json__field_u64(w, "filtered", st[STAT_FILTERED]);
	json__field_u64(w, "outside_ranges", st[STAT_OUT_OF_RANGE]);
	json__field_u64(w, "user_stack_unreadable", st[STAT_USTACK_FAULT]);
	json__field_u64(w, "kernel_stack_unreadable", st[STAT_KSTACK_FAULT]);
	json__field_u64(w, "truncated", st[STAT_TRUNCATED]);
	json__field_u64(w, "watch_dropped_by_if", st[STAT_WATCH_DROPPED]);
	json__field_u64(w, "watch_after_count", st[STAT_WATCH_OVER]);
	json__end_object(w);
	json__key(w, "lost");
	json__begin_object(w);
	json__field_u64(w, "samples", profile__lost(p));
	json__field_u64(w, "stacks_map_full", st[STAT_DROP_STACKS_FULL]);
	json__field_u64(w, "counts_map_full", st[STAT_DROP_COUNTS_FULL]);
	json__field_u64(w, "no_scratch", st[STAT_DROP_SCRATCH]);
	json__field_u64(w, "range_stacks", st[STAT_STACKS_LOST]);
	json__field_u64(w, "forks_not_followed", st[STAT_TARGETS_FULL]);
	json__field_u64(w, "watch_unknown_address", st[STAT_WATCH_UNKNOWN]);
	json__field_u64(w, "watch_ip_or_value", st[STAT_WATCH_MAP_FULL]);
	json__field_u64(w, "sideband_records", p->sideband_lost);
	json__end_object(w);
}

/* Several events: each one's name, samples and counters; the stacks say whose they are. */
static void profile_json__events(struct json_writer *w, const struct profile *p)
{
	if (p->nr_events < 2)
		return;
	json__key(w, "events");
	json__begin_array(w);
	for (size_t i = 0; i < p->nr_events; i++) {
		const struct profile_event *e = &p->events[i];

		json__begin_object(w);
		json__field_string(w, "name", e->name);
		json__field_u64_if(w, "period_ns", e->period_ns, e->period_ns);
		json__field_u64(w, "samples", profile__event_samples(p, i));
		json__field_u64(w, "seen", e->stats[EVENT_STAT_SEEN]);
		json__field_u64(w, "kept", e->stats[EVENT_STAT_KEPT]);
		json__field_u64(w, "lost", e->stats[EVENT_STAT_LOST]);
		json__end_object(w);
	}
	json__end_array(w);
}

static void profile_json__processes(struct json_writer *w, const struct profile *p,
				    const struct output_opts *o)
{
	json__key(w, "processes");
	json__begin_array(w);
	for (size_t i = 0; i < p->nr_procs; i++) {
		const struct profile_proc *pr = &p->procs[i];

		json__begin_object(w);
		json__field_string(w, "comm", pr->comm);
		json__field_u64_if(w, "pid", o->per_pid || pr->tgid, pr->tgid);
		json__field_u64_if(w, "tid", o->per_thread || pr->tid, pr->tid);
		json__end_object(w);
	}
	json__end_array(w);
}

static void profile_json__binaries(struct json_writer *w, const struct profile *p)
{
	json__key(w, "binaries");
	json__begin_array(w);
	for (size_t i = 0; i < p->nr_bins; i++) {
		json__begin_object(w);
		json__field_string(w, "path", p->bins[i].path);
		json__field_string(w, "build_id", p->bins[i].build_id);
		json__end_object(w);
	}
	json__end_array(w);
}

static void profile_json__frames(struct json_writer *w, const struct profile *p)
{
	json__key(w, "frames");
	json__begin_array(w);
	for (size_t i = 0; i < p->nr_frames; i++) {
		const struct frame *fr = &p->frames[i];
		bool line = fr->file && fr->line;

		json__begin_object(w);
		json__field_string(w, "name", fr->name);
		json__field_string(w, "kind", kinds[fr->kind]);
		json__field_string(w, "file", line ? fr->file : NULL);
		json__field_u64_if(w, "line", line, fr->line);
		if (fr->start_line)
			json__field_u64(w, "start_line", fr->start_line);
		if (fr->system_name)
			json__field_string(w, "system_name", fr->system_name);
		json__field_u64_if(w, "binary", fr->bin, fr->bin - 1);
		json__end_object(w);
	}
	json__end_array(w);
}

static void profile_json__stacks(struct json_writer *w, const struct profile *p)
{
	json__key(w, "stacks");
	json__begin_array(w);
	for (size_t i = 0; i < p->nr; i++) {
		const struct profile_stack *st = &p->stacks[i];

		json__begin_object(w);
		json__field_u64(w, "count", st->count);
		if (p->nr_events > 1)
			json__field_u64(w, "event", st->event);
		json__field_u64(w, "process", st->proc);
		json__key(w, "frames");
		json__begin_array(w);
		for (uint32_t j = 0; j < st->nr; j++)
			json__u64(w, p->ids[st->at + j]);
		json__end_array(w);
		json__end_object(w);
	}
	json__end_array(w);
}

static int profile_json__write(FILE *f, const struct profile *p, const struct output_opts *o,
			       size_t *rows)
{
	struct json_writer w;
	int err;

	json__init(&w, f, JSON_INDENT, JSON_LEVELS);
	json__begin_object(&w);
	json__field_u64(&w, "version", JSON_VERSION);
	profile_json__run(&w, p, o);
	json__field_u64(&w, "samples", profile__samples(p));
	profile_json__counters(&w, p);
	profile_json__events(&w, p);
	profile_json__processes(&w, p, o);
	profile_json__binaries(&w, p);
	profile_json__frames(&w, p);
	profile_json__stacks(&w, p);
	json__end_object(&w);
	err = json__finish(&w);
	/* the summary's unique stacks: those of the profile, as for pprof */
	if (!err && rows)
		*rows = p->nr;
	return err;
}

const struct output_format output_profile_json = {
	.name = "json",
	.ext = ".json",
	.default_file = "bpfprof.json",
	.takes = OUTPUT_PROFILE,
	.write_profile = profile_json__write,
	.needs_lines = true,
	.needs_bins = true,
};
