// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pprof's profile.proto, gzipped, as `go tool pprof` and the pprof web UI
 * read it. Sample types "samples/count" and, for a clock event
 * (cpu-clock, task-clock), "cpu/nanoseconds" (count × period), with
 * period_type, period and duration_nanos; a profile of several events
 * has "EVENT/count" for each instead, then for each clock event
 * "EVENT/nanoseconds" (type and unit: go tool pprof selects a sample type
 * by its type alone), and a stack's samples of every event are one sample
 * with those values; its default_sample_type is the first event's count.
 * Each stack is a sample, leaf
 * first, labelled comm (string), pid (--per-pid, --per-thread) and tid
 * (--per-thread). Frame kinds are data here, not name suffixes: each
 * binary is a mapping (path, build-id, has_* as its frames are), the
 * kernel's frames "[kernel.kallsyms]", JIT frames and code outside any
 * file "[anon]"; a location is a frame and the calls inlined into it, one
 * Line each (the innermost first), so locations have no address (0): one
 * per distinct frame group. Names are escaped as in folded stacks (valid
 * UTF-8, no control bytes). The encoded fields go to zlib's deflate as
 * they are made (repeated fields may come in any order), so the writer
 * holds its tables, never the whole file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "array.h"
#include "escape.h"
#include "hash.h"
#include "output.h"
#include "pprof-proto.h"
#include "protobuf.h"
#include "u64map.h"


/* Compressed output is flushed past this many encoded bytes. */
#define PPROF_CHUNK (256 << 10)

/* A location: a frame and the calls inlined into it, p->ids[at, at + nr), root first. */
struct pprof_loc {
	uint32_t at, nr;
};

struct pprof_func {
	const char *name, *file, *system_name; /* the profile's (interned) strings */
	uint32_t start_line;
};

struct pprof {
	const struct profile *p;
	FILE *f;
	z_stream z;
	bool z_open;
	struct protobuf out;      /* encoded, not yet compressed */
	struct protobuf msg, sub; /* the message being built, and one inside it */
	const char **strs;        /* the string table (escaped copies are in owned) */
	size_t nr_strs, cap_strs;
	char **owned;
	size_t nr_owned, cap_owned;
	struct u64map by_str;  /* a string's hash -> 1 + its index */
	uint32_t *frame_func;  /* each profile frame's function id */
	struct pprof_func *funcs;
	size_t nr_funcs, cap_funcs;
	struct u64map by_func; /* hash of a function's fields -> its id */
	struct pprof_loc *locs;
	size_t nr_locs, cap_locs;
	struct u64map by_loc;  /* hash of a frame group -> location id */
	uint64_t *loc_ids;     /* one sample's, leaf first */
	size_t cap_loc_ids;
	int64_t s_comm, s_pid, s_tid; /* label keys' string ids */
};

/* Compress what is encoded so far; @finish: the end of the file. */
static int pprof__flush(struct pprof *w, bool finish)
{
	unsigned char buf[64 << 10];
	int ret;

	if (w->out.err)
		return w->out.err;
	w->z.next_in = w->out.buf;
	w->z.avail_in = (uInt)w->out.len;
	do {
		w->z.next_out = buf;
		w->z.avail_out = sizeof(buf);
		ret = deflate(&w->z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (ret == Z_STREAM_ERROR)
			return -EIO;
		if (fwrite(buf, 1, sizeof(buf) - w->z.avail_out, w->f) !=
		    sizeof(buf) - w->z.avail_out)
			return -EIO;
	} while (w->z.avail_out == 0 || (finish && ret != Z_STREAM_END));
	protobuf__reset(&w->out);
	return 0;
}

/* w->msg as top-level field @field; compressed once enough is encoded. */
static int pprof__emit(struct pprof *w, uint32_t field)
{
	int err = protobuf__message(&w->out, field, &w->msg);

	protobuf__reset(&w->msg);
	if (err)
		return err;
	return w->out.len >= PPROF_CHUNK ? pprof__flush(w, false) : 0;
}

/* The string table index of @s (NULL: ""), appended when new; escaped as folded names are. */
static int pprof__str(struct pprof *w, const char *s, int64_t *id)
{
	uint64_t h;
	uintptr_t found;
	char *copy = NULL;

	if (!s || !*s) {
		*id = 0;
		return 0;
	}
	h = hash__str(HASH_BASIS, s);
	found = (uintptr_t)u64map__get(&w->by_str, h);
	if (found && !strcmp(w->strs[found - 1], s)) {
		*id = (int64_t)found - 1;
		return 0;
	}
	if (escape__needed(s)) {
		copy = escape__dup(s);
		if (!copy || array__grow((void **)&w->owned, &w->cap_owned, w->nr_owned + 1,
					 sizeof(*w->owned))) {
			free(copy);
			return -ENOMEM;
		}
		w->owned[w->nr_owned++] = copy;
	}
	if (array__grow((void **)&w->strs, &w->cap_strs, w->nr_strs + 1, sizeof(*w->strs)))
		return -ENOMEM;
	/* the table keeps the original, to compare; the file gets the escaped one */
	w->strs[w->nr_strs] = s;
	if (!found && u64map__set(&w->by_str, h, (void *)(uintptr_t)(w->nr_strs + 1)))
		return -ENOMEM;
	*id = (int64_t)w->nr_strs++;
	return protobuf__string(&w->out, PROFILE_STRING_TABLE, copy ? copy : s);
}

/* A ValueType message ("samples", "count") as top-level field @field. */
static int pprof__value_type(struct pprof *w, uint32_t field, const char *type,
			     const char *unit)
{
	int64_t t, u;
	int err = pprof__str(w, type, &t) ?: pprof__str(w, unit, &u);

	if (err)
		return err;
	protobuf__uint(&w->msg, VALUE_TYPE_TYPE, (uint64_t)t);
	protobuf__uint(&w->msg, VALUE_TYPE_UNIT, (uint64_t)u);
	return pprof__emit(w, field);
}

/* Every binary as a mapping (id: its bin id), its has_* flags as its frames are. */
static int pprof__mappings(struct pprof *w)
{
	const struct profile *p = w->p;
	/* per bin: bit 0 some frame unnamed, 1 a file, 2 a line, 3 an inlined call */
	uint8_t *seen = calloc(p->nr_bins + 1, 1);
	int err = 0;

	if (!seen)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_frames; i++) {
		const struct frame *fr = &p->frames[i];

		if (fr->bin > p->nr_bins)
			continue;
		seen[fr->bin] |= pprof_proto__unnamed(fr->name) | !!fr->file << 1 | !!fr->line << 2 |
				 (fr->kind == FRAME_INLINE) << 3;
	}
	for (size_t i = 0; i < p->nr_bins && !err; i++) {
		const struct profile_bin *b = &p->bins[i];
		uint8_t s = seen[i + 1];
		int64_t file, id;

		err = pprof__str(w, b->path, &file) ?: pprof__str(w, b->build_id, &id);
		if (err)
			break;
		protobuf__uint(&w->msg, MAPPING_ID, i + 1);
		protobuf__uint(&w->msg, MAPPING_FILENAME, (uint64_t)file);
		if (id)
			protobuf__uint(&w->msg, MAPPING_BUILD_ID, (uint64_t)id);
		protobuf__uint(&w->msg, MAPPING_HAS_FUNCTIONS, !(s & 1));
		protobuf__uint(&w->msg, MAPPING_HAS_FILENAMES, !!(s & 2));
		protobuf__uint(&w->msg, MAPPING_HAS_LINE_NUMBERS, !!(s & 4));
		protobuf__uint(&w->msg, MAPPING_HAS_INLINE_FRAMES, !!(s & 8));
		err = pprof__emit(w, PROFILE_MAPPING);
	}
	free(seen);
	return err;
}

/* The profile's strings are interned: one pointer per distinct string. */
static bool pprof_func__same(const struct pprof_func *a, const struct pprof_func *b)
{
	return a->name == b->name && a->file == b->file && a->system_name == b->system_name &&
	       a->start_line == b->start_line;
}

/*
 * A function for every distinct (name, system name, file, start line) of
 * the frames; frame_func maps frames to them. A frame without a system
 * name (its name is not a demangling) has its name as that.
 */
static int pprof__functions(struct pprof *w)
{
	const struct profile *p = w->p;

	w->frame_func = calloc(p->nr_frames ? p->nr_frames : 1, sizeof(*w->frame_func));
	if (!w->frame_func)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_frames; i++) {
		const struct frame *fr = &p->frames[i];
		const struct pprof_func fn = { fr->name, fr->file, fr->system_name, fr->start_line };
		uint64_t h = hash__mix(hash__mix(HASH_BASIS, (uintptr_t)fn.name), (uintptr_t)fn.file);
		uintptr_t found;
		int64_t name, file, sys;
		int err;

		h = hash__mix(hash__mix(h, (uintptr_t)fn.system_name), fn.start_line);
		found = (uintptr_t)u64map__get(&w->by_func, h);
		if (found && pprof_func__same(&w->funcs[found - 1], &fn)) {
			w->frame_func[i] = found;
			continue;
		}
		if (array__grow((void **)&w->funcs, &w->cap_funcs, w->nr_funcs + 1,
				sizeof(*w->funcs)))
			return -ENOMEM;
		w->funcs[w->nr_funcs++] = fn;
		if (!found && u64map__set(&w->by_func, h, (void *)(uintptr_t)w->nr_funcs))
			return -ENOMEM;
		w->frame_func[i] = w->nr_funcs;
		err = pprof__str(w, fn.name, &name) ?: pprof__str(w, fn.file, &file) ?:
		      pprof__str(w, fn.system_name ? fn.system_name : fn.name, &sys);
		if (err)
			return err;
		protobuf__uint(&w->msg, FUNCTION_ID, w->nr_funcs);
		protobuf__uint(&w->msg, FUNCTION_NAME, (uint64_t)name);
		protobuf__uint(&w->msg, FUNCTION_SYSTEM_NAME, (uint64_t)sys);
		if (file)
			protobuf__uint(&w->msg, FUNCTION_FILENAME, (uint64_t)file);
		if (fn.start_line)
			protobuf__uint(&w->msg, FUNCTION_START_LINE, fn.start_line);
		err = pprof__emit(w, PROFILE_FUNCTION);
		if (err)
			return err;
	}
	return 0;
}

/* The location id of frames p->ids[at, at + nr), a new location when it is new. */
static int pprof__location(struct pprof *w, uint32_t at, uint32_t nr, uint64_t *id)
{
	const struct profile *p = w->p;
	const uint32_t *ids = &p->ids[at];
	uint64_t h = hash__mix(HASH_BASIS, nr);
	uintptr_t found;

	for (uint32_t i = 0; i < nr; i++)
		h = hash__mix(h, ids[i]);
	found = (uintptr_t)u64map__get(&w->by_loc, h);
	if (found && w->locs[found - 1].nr == nr &&
	    !memcmp(&p->ids[w->locs[found - 1].at], ids, nr * sizeof(*ids))) {
		*id = found;
		return 0;
	}
	if (array__grow((void **)&w->locs, &w->cap_locs, w->nr_locs + 1, sizeof(*w->locs)))
		return -ENOMEM;
	w->locs[w->nr_locs++] = (struct pprof_loc){ at, nr };
	if (!found && u64map__set(&w->by_loc, h, (void *)(uintptr_t)w->nr_locs))
		return -ENOMEM;
	*id = w->nr_locs;
	protobuf__uint(&w->msg, LOCATION_ID, w->nr_locs);
	if (p->frames[ids[0]].bin)
		protobuf__uint(&w->msg, LOCATION_MAPPING_ID, p->frames[ids[0]].bin);
	/* one Line per frame, the innermost inlined call first */
	for (uint32_t i = nr; i-- > 0;) {
		const struct frame *fr = &p->frames[ids[i]];

		protobuf__reset(&w->sub);
		protobuf__uint(&w->sub, LINE_FUNCTION_ID, w->frame_func[ids[i]]);
		if (fr->line)
			protobuf__uint(&w->sub, LINE_LINE, fr->line);
		protobuf__message(&w->msg, LOCATION_LINE, &w->sub);
	}
	return pprof__emit(w, PROFILE_LOCATION);
}

/* A string label @key = @s (string id) or a number label @key = @num. */
static void pprof__label(struct pprof *w, int64_t key, int64_t s, uint64_t num)
{
	protobuf__reset(&w->sub);
	protobuf__uint(&w->sub, LABEL_KEY, (uint64_t)key);
	if (s)
		protobuf__uint(&w->sub, LABEL_STR, (uint64_t)s);
	else
		protobuf__uint(&w->sub, LABEL_NUM, num);
	protobuf__message(&w->msg, SAMPLE_LABEL, &w->sub);
}

/* Stack @st as a sample: its locations leaf first, its @nr @values and labels. */
static int pprof__sample(struct pprof *w, const struct profile_stack *st,
			 const uint64_t *values, size_t nr, const struct output_opts *o)
{
	const struct profile *p = w->p;
	const struct profile_proc *pr = profile__proc(p, st);
	size_t n = 0;
	int64_t comm = 0;
	int err;

	if (array__grow((void **)&w->loc_ids, &w->cap_loc_ids, st->nr > 2 ? st->nr : 2,
			sizeof(*w->loc_ids)))
		return -ENOMEM;
	/* groups from the leaf: an inlined call belongs to the frame before it */
	for (uint32_t end = st->nr; end > 0;) {
		uint32_t start = end - 1;

		while (start > 0 && profile__frame(p, st, start)->kind == FRAME_INLINE)
			start--;
		err = pprof__location(w, st->at + start, end - start, &w->loc_ids[n++]);
		if (err)
			return err;
		end = start;
	}
	/* read back from folded stacks (no_procs): no process, no comm label */
	err = p->no_procs ? 0 : pprof__str(w, pr->comm[0] ? pr->comm : "[unknown comm]", &comm);
	if (err)
		return err;
	protobuf__packed(&w->msg, SAMPLE_LOCATION_ID, w->loc_ids, n);
	protobuf__packed(&w->msg, SAMPLE_VALUE, values, nr);
	if (comm)
		pprof__label(w, w->s_comm, comm, 0);
	if (o->per_pid || o->per_thread)
		pprof__label(w, w->s_pid, 0, pr->tgid);
	if (o->per_thread)
		pprof__label(w, w->s_tid, 0, pr->tid);
	return pprof__emit(w, PROFILE_SAMPLE);
}

/* What every profile has after its sample types: duration, label keys, mappings, functions. */
static int pprof__tables(struct pprof *w)
{
	protobuf__uint(&w->out, PROFILE_DURATION_NANOS, (uint64_t)(w->p->duration * 1e9));
	return pprof__str(w, "comm", &w->s_comm) ?: pprof__str(w, "pid", &w->s_pid) ?:
	       pprof__str(w, "tid", &w->s_tid) ?: pprof__mappings(w) ?: pprof__functions(w);
}

/* Stacks @a and @b alike but for their events? */
static bool pprof__same_stack(const struct profile *p, const struct profile_stack *a,
			      const struct profile_stack *b)
{
	return a->proc == b->proc && a->nr == b->nr &&
	       !memcmp(&p->ids[a->at], &p->ids[b->at], a->nr * sizeof(*p->ids));
}

/*
 * The sample types of several events: "EVENT/count" for each, then for
 * each clock event the type "EVENT/nanoseconds", unit "nanoseconds"
 * (go tool pprof -sample_index= names a type alone, so the two of an
 * event need two names; the counts first keep their indexes); *@nr_ns:
 * how many clock events. The default sample type is the first count.
 */
static int pprof__event_types(struct pprof *w, size_t *nr_ns)
{
	const struct profile *p = w->p;
	int64_t first;
	int err = 0;

	*nr_ns = 0;
	for (size_t i = 0; i < p->nr_events && !err; i++)
		err = pprof__value_type(w, PROFILE_SAMPLE_TYPE, p->events[i].name, "count");
	for (size_t i = 0; i < p->nr_events && !err; i++) {
		char *type;

		if (!p->events[i].period_ns)
			continue;
		if (array__grow((void **)&w->owned, &w->cap_owned, w->nr_owned + 1,
				sizeof(*w->owned)) ||
		    asprintf(&type, "%s/nanoseconds", p->events[i].name) < 0)
			return -ENOMEM;
		/* pprof__str keeps the pointer: the string lives as long as the writer */
		w->owned[w->nr_owned++] = type;
		err = pprof__value_type(w, PROFILE_SAMPLE_TYPE, type, "nanoseconds");
		(*nr_ns)++;
	}
	err = err ?: pprof__str(w, p->events[0].name, &first);
	if (!err)
		protobuf__uint(&w->out, PROFILE_DEFAULT_SAMPLE_TYPE, (uint64_t)first);
	return err;
}

/*
 * A profile of several events: its sample types (pprof__event_types), and a
 * sample for each stack, its events' stacks merged: a count per event,
 * then the nanoseconds of each clock event (count × period).
 */
static int pprof__write_events(struct pprof *w, const struct output_opts *o)
{
	const struct profile *p = w->p;
	size_t ne = p->nr_events, nr = 0, nv = ne, nr_ns;
	uint32_t *first = malloc((p->nr ? p->nr : 1) * sizeof(*first)); /* each sample's stack */
	uint64_t *values = NULL;
	uint64_t *col = calloc(ne, sizeof(*col)); /* each clock event's nanoseconds' value */
	struct u64map by_stack = { 0 }; /* hash of a stack without its event -> 1 + sample */
	int err = first && col ? 0 : -ENOMEM;

	err = err ?: pprof__event_types(w, &nr_ns);
	if (!err) {
		nv = ne + nr_ns;
		for (size_t i = 0, k = ne; i < ne; i++)
			col[i] = p->events[i].period_ns ? k++ : 0;
		values = calloc((p->nr ? p->nr : 1) * nv, sizeof(*values));
		if (!values)
			err = -ENOMEM;
	}
	err = err ?: pprof__tables(w);
	for (size_t i = 0; i < p->nr && !err; i++) {
		const struct profile_stack *st = &p->stacks[i];
		uint64_t h = hash__mix(HASH_BASIS, (uint64_t)st->proc << 32 | st->nr);
		uintptr_t found;

		for (uint32_t j = 0; j < st->nr; j++)
			h = hash__mix(h, p->ids[st->at + j]);
		found = (uintptr_t)u64map__get(&by_stack, h);
		if (!found || !pprof__same_stack(p, &p->stacks[first[found - 1]], st)) {
			first[nr++] = i;
			/* a hash two stacks share keeps the first: the second is a sample of its own */
			if (!found && u64map__set(&by_stack, h, (void *)(uintptr_t)nr))
				err = -ENOMEM;
			found = nr;
		}
		if (st->event < ne) {
			uint64_t *v = &values[(found - 1) * nv];

			v[st->event] += st->count;
			if (col[st->event])
				v[col[st->event]] += st->count * p->events[st->event].period_ns;
		}
	}
	for (size_t i = 0; i < nr && !err; i++)
		err = pprof__sample(w, &p->stacks[first[i]], &values[i * nv], nv, o);
	u64map__free(&by_stack);
	free(first);
	free(values);
	free(col);
	return err ?: pprof__flush(w, true);
}

static int pprof__write(struct pprof *w, const struct output_opts *o)
{
	const struct profile *p = w->p;
	int err;

	/* the string table's first entry is "" */
	if (array__grow((void **)&w->strs, &w->cap_strs, 1, sizeof(*w->strs)))
		return -ENOMEM;
	w->strs[w->nr_strs++] = "";
	err = protobuf__string(&w->out, PROFILE_STRING_TABLE, "");
	if (!err && p->nr_events > 1)
		return pprof__write_events(w, o);
	err = err ?: pprof__value_type(w, PROFILE_SAMPLE_TYPE, "samples", "count");
	if (!err && o->period_ns) {
		err = pprof__value_type(w, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds") ?:
		      pprof__value_type(w, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
		protobuf__uint(&w->out, PROFILE_PERIOD, o->period_ns);
	}
	err = err ?: pprof__tables(w);
	for (size_t i = 0; i < p->nr && !err; i++) {
		const struct profile_stack *st = &p->stacks[i];
		const uint64_t values[2] = { st->count, st->count * o->period_ns };

		err = pprof__sample(w, st, values, o->period_ns ? 2 : 1, o);
	}
	return err ?: pprof__flush(w, true);
}

static void pprof__free(struct pprof *w)
{
	if (w->z_open)
		deflateEnd(&w->z);
	protobuf__free(&w->out);
	protobuf__free(&w->msg);
	protobuf__free(&w->sub);
	for (size_t i = 0; i < w->nr_owned; i++)
		free(w->owned[i]);
	free(w->owned);
	free(w->strs);
	u64map__free(&w->by_str);
	free(w->frame_func);
	free(w->funcs);
	u64map__free(&w->by_func);
	free(w->locs);
	u64map__free(&w->by_loc);
	free(w->loc_ids);
}

static int pprof__write_profile(FILE *f, const struct profile *p, const struct output_opts *o,
				size_t *rows)
{
	struct pprof w = { .p = p, .f = f };
	int err;

	/* windowBits 15 + 16: zlib writes a gzip header and trailer */
	if (deflateInit2(&w.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	w.z_open = true;
	err = pprof__write(&w, o);
	pprof__free(&w);
	if (!err && ferror(f))
		err = -EIO;
	if (!err && rows)
		*rows = p->nr;
	return err;
}

const struct output_format output_pprof = {
	.name = "pprof",
	.ext = ".pb.gz",
	.default_file = "bpfprof.pb.gz",
	.takes = OUTPUT_PROFILE,
	.write_profile = pprof__write_profile,
	.needs_lines = true,
	.needs_bins = true,
	.binary = true,
};
