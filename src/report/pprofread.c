// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* pprof's profile.proto read back into a profile; see pprofread.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arena.h"
#include "array.h"
#include "escape.h"
#include "pbread.h"
#include "pprof-proto.h"
#include "pprofread.h"
#include "u64map.h"

struct pr_str {
	const uint8_t *at;
	size_t len;
	char *s; /* unescaped and NUL-terminated, made on first use */
};

struct pr_type {
	uint64_t type, unit; /* string indexes */
};

struct pr_mapping {
	uint64_t start, offset, file, build_id;
	uint32_t bin; /* the profile's bin id; 0: not made yet */
};

struct pr_function {
	uint64_t name, file, system_name, start_line;
};

struct pr_location {
	const uint8_t *at; /* its message */
	size_t len;
	uint32_t first, nr; /* its frames in pprofread.frames, root first */
	bool decoded;
};

struct pprofread {
	struct profile *p;
	struct pr_str *strs;
	size_t nr_strs, cap_strs;
	struct pr_type *types;
	size_t nr_types, cap_types;
	uint64_t default_type; /* default_sample_type's string index; 0: none */
	struct pr_mapping *maps;
	size_t nr_maps, cap_maps;
	struct pr_function *funcs;
	size_t nr_funcs, cap_funcs;
	struct pr_location *locs;
	size_t nr_locs, cap_locs;
	struct u64map map_ids, func_ids, loc_ids; /* id -> 1 + index */
	struct frame *frames; /* every decoded location's */
	size_t nr_frames, cap_frames;
	struct frame *stack; /* the sample's, root first */
	size_t cap_stack;
	uint64_t *ids; /* the sample's location ids, leaf first */
	size_t nr_ids, cap_ids;
	struct arena names; /* names made for locations without lines */
	uint64_t budget;    /* frames the samples may still add */
	size_t sample;      /* 1 + the index of the sample being read */
	char *why;
	size_t size;
};

static int __attribute__((format(printf, 2, 3)))
pprofread__bad(struct pprofread *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->size, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

bool pprofread__gzip(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

/* @bytes for a message: "640 KiB", "64.0 MiB" */
static void pprofread__size(char *buf, size_t size, uint64_t bytes)
{
	if (bytes < 1 << 20)
		snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
	else
		snprintf(buf, size, "%.1f MiB", bytes / (double)(1 << 20));
}

uint64_t pprofread__inflate_bound(size_t len, uint64_t max)
{
	uint64_t bound;

	if (max)
		return max;
	bound = len < PPROFREAD_INFLATE_MAX / PPROFREAD_INFLATE_RATIO ?
			(uint64_t)len * PPROFREAD_INFLATE_RATIO :
			PPROFREAD_INFLATE_MAX;
	return bound < PPROFREAD_INFLATE_MIN ? PPROFREAD_INFLATE_MIN : bound;
}

/*
 * One run of inflate over the gzip data at @in: into @out, of @room bytes,
 * or (@out NULL) through a small buffer, only counted. *@total: the bytes
 * it inflates to; -EFBIG as soon as that passes @room.
 */
static int pprofread__inflate_run(struct pprofread *r, const uint8_t *in, size_t len,
				  uint8_t *out, uint64_t room, uint64_t *total)
{
	uint8_t scratch[16 << 10];
	z_stream z = { 0 };
	uint64_t n = 0, give;
	int ret, err = 0;

	/* 16 + MAX_WBITS: a gzip wrapper, no zlib or raw deflate */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)in;
	do {
		size_t left = len - (size_t)(z.next_in - in);

		z.avail_in = left > UINT32_MAX ? UINT32_MAX : (uInt)left;
		give = out ? room - n : sizeof(scratch);
		z.next_out = out ? out + n : scratch;
		z.avail_out = give > UINT32_MAX ? UINT32_MAX : (uInt)give;
		give = z.avail_out;
		ret = inflate(&z, Z_NO_FLUSH);
		n += give - z.avail_out;
		/* past @room: counted past it, or @out full and inflate wanting more */
		if (n > room || (out && ret == Z_BUF_ERROR && !z.avail_out)) {
			err = -EFBIG;
			break;
		}
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_BUF_ERROR && !z.avail_in) {
			err = pprofread__bad(r, "truncated gzip data: its %zu bytes end before "
					     "the stream does", len);
			break;
		}
		if (ret == Z_MEM_ERROR) {
			err = -ENOMEM;
			break;
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR) {
			err = pprofread__bad(r, "bad gzip data (zlib: %s): expected a gzipped "
					     "pprof profile", z.msg ? z.msg : "error");
			break;
		}
	} while (1);
	inflateEnd(&z);
	*total = n;
	return err;
}

/*
 * The gzip data at @buf inflated into *@out (malloc'd), at most
 * pprofread__inflate_bound(@len, @max) bytes. Counted first, through a small buffer, then
 * inflated into memory of exactly that size: a bomb is refused having held
 * nothing, a profile costs its own size (inflating twice costs CPU time).
 */
static int pprofread__inflate(struct pprofread *r, const void *buf, size_t len, uint64_t max,
			      uint8_t **out, size_t *out_len)
{
	uint64_t bound = pprofread__inflate_bound(len, max), n, again;
	char sz[32], lim[32];
	uint8_t *o;
	int err;

	err = pprofread__inflate_run(r, buf, len, NULL, bound, &n);
	if (err == -EFBIG) {
		pprofread__size(lim, sizeof(lim), bound);
		pprofread__size(sz, sizeof(sz), len);
		if (max)
			snprintf(r->why, r->size, "gzip data inflates past %s, the bound "
				 "--max-input sets: give it a larger SIZE to read more", lim);
		else
			snprintf(r->why, r->size, "gzip data inflates past %s, the bound for "
				 "%s of gzip (%u times it, at least %llu MiB, at most %llu MiB): "
				 "raise it with --max-input=SIZE", lim, sz,
				 PPROFREAD_INFLATE_RATIO, PPROFREAD_INFLATE_MIN >> 20,
				 PPROFREAD_INFLATE_MAX >> 20);
		return err;
	}
	if (err)
		return err;
	if (n > SIZE_MAX - 1 || !(o = malloc(n ? n : 1)))
		return -ENOMEM;
	err = pprofread__inflate_run(r, buf, len, o, n, &again);
	if (!err && again != n)
		err = pprofread__bad(r, "gzip data inflated to %" PRIu64 " bytes, then %" PRIu64,
				     n, again);
	if (err) {
		free(o);
		return err == -EFBIG ? pprofread__bad(r, "gzip data inflated to more the second "
						      "time") : err;
	}
	*out = o;
	*out_len = n;
	return 0;
}

/* The index of id @id in @ids (what: "location"); -EBADMSG when there is none. */
static int pprofread__find(struct pprofread *r, const struct u64map *ids, uint64_t id,
			   const char *what, size_t *idx)
{
	uintptr_t v = id ? (uintptr_t)u64map__get(ids, id) : 0;

	*idx = 0;
	if (!v)
		return pprofread__bad(r, "sample %zu: %s id %" PRIu64 " is not in the profile",
				      r->sample, what, id);
	*idx = v - 1;
	return 0;
}

/* A new id @id of @what at index @idx of its table; a repeated or zero id is an error. */
static int pprofread__add_id(struct pprofread *r, struct u64map *ids, uint64_t id, size_t idx,
			     const char *what)
{
	if (!id || u64map__get(ids, id))
		return pprofread__bad(r, "%s id %" PRIu64 " is %s: expected unique ids from 1",
				      what, id, id ? "repeated" : "zero");
	return u64map__set(ids, id, (void *)(uintptr_t)(idx + 1));
}

/* String @idx, unescaped; -EBADMSG when out of range or holding a NUL. */
static int pprofread__str(struct pprofread *r, uint64_t idx, const char **s)
{
	struct pr_str *st;

	if (idx >= r->nr_strs)
		return pprofread__bad(r, "string index %" PRIu64 " is out of range: the string "
				      "table has %zu strings", idx, r->nr_strs);
	st = &r->strs[idx];
	if (!st->s) {
		if (memchr(st->at, '\0', st->len))
			return pprofread__bad(r, "string %" PRIu64 " holds a NUL byte: expected "
					      "text", idx);
		st->s = malloc(st->len + 1);
		if (!st->s)
			return -ENOMEM;
		escape__undo(st->s, (const char *)st->at, st->len);
	}
	*s = st->s;
	return 0;
}

/* Field @f of a @what message is a varint (@len false) or length-delimited. */
static int pprofread__wire(struct pprofread *r, const struct pbread_field *f, bool len,
			   const char *what)
{
	if (f->wire == (len ? PBREAD_LEN : PBREAD_VARINT))
		return 0;
	return pprofread__bad(r, "field %" PRIu32 " of a %s has wire type %d: expected %s", f->num,
			      what, f->wire, len ? "bytes (2)" : "a varint (0)");
}

/* The next field of @rd, a message of @what: 1, 0 at its end, -EBADMSG. */
static int pprofread__next(struct pprofread *r, struct pbread *rd, struct pbread_field *f,
			   const char *what)
{
	const char *why = NULL;
	int ret = pbread__next(rd, f, &why);

	if (ret < 0)
		return pprofread__bad(r, "not a pprof profile: bad protobuf in %s %s: %s",
				      *what == 'a' ? "an" : "a", what, why);
	return ret;
}

/* A ValueType message. */
static int pprofread__value_type(struct pprofread *r, const struct pbread_field *mf,
				 struct pr_type *t)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct pbread_field f;
	int ret;

	*t = (struct pr_type){ 0 };
	while ((ret = pprofread__next(r, &rd, &f, "value type")) > 0) {
		if (f.num != VALUE_TYPE_TYPE && f.num != VALUE_TYPE_UNIT)
			continue;
		ret = pprofread__wire(r, &f, false, "value type");
		if (ret)
			return ret;
		*(f.num == VALUE_TYPE_TYPE ? &t->type : &t->unit) = f.v;
	}
	return ret;
}

static int pprofread__mapping(struct pprofread *r, const struct pbread_field *mf)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct pr_mapping m = { 0 };
	struct pbread_field f;
	uint64_t id = 0;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "mapping")) > 0) {
		uint64_t *dst = f.num == MAPPING_ID ? &id :
				f.num == MAPPING_MEMORY_START ? &m.start :
				f.num == MAPPING_FILE_OFFSET ? &m.offset :
				f.num == MAPPING_FILENAME ? &m.file :
				f.num == MAPPING_BUILD_ID ? &m.build_id : NULL;

		if (!dst)
			continue;
		ret = pprofread__wire(r, &f, false, "mapping");
		if (ret)
			return ret;
		*dst = f.v;
	}
	if (ret)
		return ret;
	if (array__grow((void **)&r->maps, &r->cap_maps, r->nr_maps + 1, sizeof(*r->maps)))
		return -ENOMEM;
	r->maps[r->nr_maps] = m;
	return pprofread__add_id(r, &r->map_ids, id, r->nr_maps++, "mapping");
}

static int pprofread__function(struct pprofread *r, const struct pbread_field *mf)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct pr_function fn = { 0 };
	struct pbread_field f;
	uint64_t id = 0;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "function")) > 0) {
		uint64_t *dst = f.num == FUNCTION_ID ? &id :
				f.num == FUNCTION_NAME ? &fn.name :
				f.num == FUNCTION_SYSTEM_NAME ? &fn.system_name :
				f.num == FUNCTION_FILENAME ? &fn.file :
				f.num == FUNCTION_START_LINE ? &fn.start_line : NULL;

		if (!dst)
			continue;
		ret = pprofread__wire(r, &f, false, "function");
		if (ret)
			return ret;
		*dst = f.v;
	}
	if (ret)
		return ret;
	if (array__grow((void **)&r->funcs, &r->cap_funcs, r->nr_funcs + 1, sizeof(*r->funcs)))
		return -ENOMEM;
	r->funcs[r->nr_funcs] = fn;
	return pprofread__add_id(r, &r->func_ids, id, r->nr_funcs++, "function");
}

/* A location's id now; its frames when a sample first names it. */
static int pprofread__location_id(struct pprofread *r, const struct pbread_field *mf)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct pbread_field f;
	uint64_t id = 0;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "location")) > 0) {
		if (f.num != LOCATION_ID)
			continue;
		ret = pprofread__wire(r, &f, false, "location");
		if (ret)
			return ret;
		id = f.v;
	}
	if (ret)
		return ret;
	if (array__grow((void **)&r->locs, &r->cap_locs, r->nr_locs + 1, sizeof(*r->locs)))
		return -ENOMEM;
	r->locs[r->nr_locs] = (struct pr_location){ mf->data, mf->len };
	return pprofread__add_id(r, &r->loc_ids, id, r->nr_locs++, "location");
}

/* Pass one: everything but the samples. */
static int pprofread__tables(struct pprofread *r, const uint8_t *buf, size_t len,
			     struct pprofread_info *info, struct pr_type *period_type)
{
	struct pbread rd = pbread__init(buf, len);
	struct pbread_field f;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "profile")) > 0) {
		bool bytes = f.num != PROFILE_DURATION_NANOS && f.num != PROFILE_PERIOD &&
			     f.num != PROFILE_DEFAULT_SAMPLE_TYPE;

		if ((f.num > PROFILE_PERIOD && f.num != PROFILE_DEFAULT_SAMPLE_TYPE) ||
		    (f.num > PROFILE_STRING_TABLE && f.num < PROFILE_DURATION_NANOS))
			continue; /* fields bpfprof has no use for */
		ret = pprofread__wire(r, &f, bytes, "profile");
		if (ret)
			return ret;
		switch (f.num) {
		case PROFILE_SAMPLE_TYPE:
			if (array__grow((void **)&r->types, &r->cap_types, r->nr_types + 1,
					sizeof(*r->types)))
				return -ENOMEM;
			ret = pprofread__value_type(r, &f, &r->types[r->nr_types++]);
			break;
		case PROFILE_MAPPING:
			ret = pprofread__mapping(r, &f);
			break;
		case PROFILE_LOCATION:
			ret = pprofread__location_id(r, &f);
			break;
		case PROFILE_FUNCTION:
			ret = pprofread__function(r, &f);
			break;
		case PROFILE_STRING_TABLE:
			if (array__grow((void **)&r->strs, &r->cap_strs, r->nr_strs + 1,
					sizeof(*r->strs)))
				return -ENOMEM;
			r->strs[r->nr_strs++] = (struct pr_str){ f.data, f.len };
			break;
		case PROFILE_DURATION_NANOS:
			r->p->duration = f.v / 1e9;
			break;
		case PROFILE_PERIOD_TYPE:
			ret = pprofread__value_type(r, &f, period_type);
			break;
		case PROFILE_PERIOD:
			info->period_ns = f.v;
			break;
		case PROFILE_DEFAULT_SAMPLE_TYPE:
			r->default_type = f.v;
			break;
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (!r->nr_strs || r->strs[0].len)
		return pprofread__bad(r, "not a pprof profile: %s", r->nr_strs ?
				      "the string table does not start with \"\"" :
				      "no string table");
	if (!r->nr_types)
		return pprofread__bad(r, "not a pprof profile: no sample types");
	for (size_t i = 0; i < r->nr_types; i++) {
		const char *s;

		ret = pprofread__str(r, r->types[i].type, &s) ?:
		      pprofread__str(r, r->types[i].unit, &s);
		if (ret)
			return ret;
	}
	return 0;
}

/* Mapping @m's bin id in the profile, made on first use. */
static int pprofread__bin(struct pprofread *r, struct pr_mapping *m, const char **path)
{
	const char *build_id;
	int err = pprofread__str(r, m->file, path) ?: pprofread__str(r, m->build_id, &build_id);

	if (err || m->bin)
		return err;
	return profile__bin(r->p, *path, *build_id ? build_id : NULL, &m->bin);
}

/* A location without lines: "[BINARY+0xOFFSET]", as bpfprof names code without a symbol. */
static int pprofread__anon_name(struct pprofread *r, const struct pr_mapping *m,
				const char *path, uint64_t addr, const char **name)
{
	const char *base = path ? strrchr(path, '/') : NULL;
	char buf[128];

	base = base ? base + 1 : path && *path ? path : "unknown";
	if (m && addr >= m->start)
		addr = addr - m->start + m->offset;
	snprintf(buf, sizeof(buf), "[%.80s+0x%" PRIx64 "]", base, addr);
	*name = arena__strdup(&r->names, buf);
	return *name ? 0 : -ENOMEM;
}

/* The frames of location @l (a frame and the calls inlined into it), root first. */
static int pprofread__decode(struct pprofread *r, struct pr_location *l)
{
	struct pbread rd = pbread__init(l->at, l->len);
	struct pr_mapping *m = NULL;
	const char *path = NULL;
	struct pbread_field f;
	uint64_t map_id = 0, addr = 0;
	size_t first = r->nr_frames;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "location")) > 0) {
		struct pbread ld;
		struct pbread_field lf;
		uint64_t fid = 0, line = 0, start = 0;
		const char *name = "", *file = "", *sys = "";
		size_t idx;

		if (f.num == LOCATION_MAPPING_ID || f.num == LOCATION_ADDRESS) {
			ret = pprofread__wire(r, &f, false, "location");
			if (ret)
				break;
			*(f.num == LOCATION_ADDRESS ? &addr : &map_id) = f.v;
			continue;
		}
		if (f.num != LOCATION_LINE)
			continue;
		ret = pprofread__wire(r, &f, true, "location");
		if (ret)
			break;
		ld = pbread__init(f.data, f.len);
		while ((ret = pprofread__next(r, &ld, &lf, "line")) > 0) {
			if (lf.num != LINE_FUNCTION_ID && lf.num != LINE_LINE)
				continue;
			ret = pprofread__wire(r, &lf, false, "line");
			if (ret)
				break;
			*(lf.num == LINE_LINE ? &line : &fid) = lf.v;
		}
		if (!ret && fid) {
			ret = pprofread__find(r, &r->func_ids, fid, "function", &idx);
			if (!ret)
				ret = pprofread__str(r, r->funcs[idx].name, &name) ?:
				      pprofread__str(r, r->funcs[idx].file, &file) ?:
				      pprofread__str(r, r->funcs[idx].system_name, &sys);
			start = ret ? 0 : r->funcs[idx].start_line;
		}
		if (ret)
			break;
		if (array__grow((void **)&r->frames, &r->cap_frames, r->nr_frames + 1,
				sizeof(*r->frames)))
			return -ENOMEM;
		/* a line above 2^32 - 1, or a negative one, is not known; a
		   system name is kept where it is not the name itself */
		r->frames[r->nr_frames++] = (struct frame){
			.name = *name ? name : "[unknown]", .kind = FRAME_INLINE,
			.file = *file ? file : NULL, .line = line <= UINT32_MAX ? line : 0,
			.start_line = start <= UINT32_MAX ? start : 0,
			.system_name = *sys && strcmp(sys, name) ? sys : NULL };
	}
	if (ret)
		return ret;
	if (map_id) {
		size_t idx;

		ret = pprofread__find(r, &r->map_ids, map_id, "mapping", &idx);
		if (ret)
			return ret;
		m = &r->maps[idx];
		ret = pprofread__bin(r, m, &path);
		if (ret)
			return ret;
	}
	if (r->nr_frames == first) { /* no lines: named after its address */
		if (array__grow((void **)&r->frames, &r->cap_frames, r->nr_frames + 1,
				sizeof(*r->frames)))
			return -ENOMEM;
		r->frames[r->nr_frames] = (struct frame){ .kind = FRAME_INLINE };
		ret = pprofread__anon_name(r, m, path, addr, &r->frames[r->nr_frames++].name);
		if (ret)
			return ret;
	}
	/* Lines come innermost first: root first, the outermost is the frame itself */
	for (size_t i = first, j = r->nr_frames - 1; i < j; i++, j--) {
		struct frame t = r->frames[i];

		r->frames[i] = r->frames[j];
		r->frames[j] = t;
	}
	for (size_t i = first; i < r->nr_frames; i++)
		r->frames[i].bin = m ? m->bin : 0;
	{
		struct frame *fr = &r->frames[first];
		const char *n = fr->name;

		if (path && !strcmp(path, "[kernel.kallsyms]"))
			fr->kind = FRAME_KERNEL;
		else if (path && !strcmp(path, "[anon]") && !pprof_proto__unnamed(n))
			fr->kind = FRAME_JIT;
		else if (!m && pprof_proto__mark(n))
			fr->kind = FRAME_MARK;
		else
			fr->kind = FRAME_USER;
	}
	l->first = (uint32_t)first;
	l->nr = (uint32_t)(r->nr_frames - first);
	l->decoded = true;
	return 0;
}

/* What a sample's labels say of its process. */
struct pr_proc {
	const char *comm; /* NULL: no comm label */
	uint64_t pid, tid;
};

static int pprofread__label(struct pprofread *r, const struct pbread_field *mf,
			    struct pr_proc *pr, struct pprofread_info *info)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct pbread_field f;
	uint64_t key = 0, str = 0, num = 0;
	const char *k, *s;
	int ret;

	while ((ret = pprofread__next(r, &rd, &f, "label")) > 0) {
		if (f.num != LABEL_KEY && f.num != LABEL_STR && f.num != LABEL_NUM)
			continue;
		ret = pprofread__wire(r, &f, false, "label");
		if (ret)
			return ret;
		*(f.num == LABEL_KEY ? &key : f.num == LABEL_STR ? &str : &num) = f.v;
	}
	ret = ret ?: pprofread__str(r, key, &k) ?: pprofread__str(r, str, &s);
	if (ret)
		return ret;
	if (!strcmp(k, "comm") && str) {
		pr->comm = s;
	} else if (!strcmp(k, "pid") && !str) {
		pr->pid = num;
		info->pid = true;
	} else if (!strcmp(k, "tid") && !str) {
		pr->tid = num;
		info->tid = true;
	}
	return 0;
}

/* The value @vi of the values in @f (packed, or one) into *@v; *@n counts them. */
static int pprofread__values(struct pprofread *r, const struct pbread_field *f, size_t vi,
			     uint64_t *v, size_t *n)
{
	struct pbread_values it;
	uint64_t x;
	int ret;

	if (pbread__values(&it, f))
		return pprofread__bad(r, "sample %zu: its values have wire type %d: expected "
				      "varints", r->sample, f->wire);
	while ((ret = pbread__value(&it, &x)) > 0) {
		if (*n == vi)
			*v = x;
		++*n;
	}
	if (ret)
		return pprofread__bad(r, "sample %zu: a value is a bad varint", r->sample);
	return 0;
}

/* The location ids of field @f (packed, or one) appended to r->ids. */
static int pprofread__location_ids(struct pprofread *r, const struct pbread_field *f)
{
	struct pbread_values it;
	uint64_t id;
	int ret;

	if (pbread__values(&it, f))
		return pprofread__bad(r, "sample %zu: its location ids have wire type %d: "
				      "expected varints", r->sample, f->wire);
	while ((ret = pbread__value(&it, &id)) > 0) {
		if (array__grow((void **)&r->ids, &r->cap_ids, r->nr_ids + 1, sizeof(*r->ids)))
			return -ENOMEM;
		r->ids[r->nr_ids++] = id;
	}
	if (ret)
		return pprofread__bad(r, "sample %zu: a location id is a bad varint", r->sample);
	return 0;
}

/* Sample @mf: its value @vi, its stack, its process. */
static int pprofread__sample(struct pprofread *r, const struct pbread_field *mf, size_t vi,
			     struct pprofread_info *info, bool *any_comm)
{
	struct pbread rd = pbread__init(mf->data, mf->len);
	struct profile_sample ps = { 0 };
	struct pr_proc pr = { 0 };
	struct pbread_field f;
	size_t nvals = 0, nr = 0;
	uint64_t value = 0;
	int ret;

	r->nr_ids = 0;
	while ((ret = pprofread__next(r, &rd, &f, "sample")) > 0) {
		if (f.num == SAMPLE_VALUE) {
			ret = pprofread__values(r, &f, vi, &value, &nvals);
		} else if (f.num == SAMPLE_LABEL) {
			ret = pprofread__wire(r, &f, true, "sample") ?:
			      pprofread__label(r, &f, &pr, info);
		} else if (f.num == SAMPLE_LOCATION_ID) {
			ret = pprofread__location_ids(r, &f);
		} else {
			continue; /* a field bpfprof has no use for */
		}
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	if (nvals != r->nr_types)
		return pprofread__bad(r, "sample %zu has %zu values: expected %zu, one per "
				      "sample type", r->sample, nvals, r->nr_types);
	if (value > INT64_MAX)
		return pprofread__bad(r, "sample %zu: value %" PRId64 " is negative: expected a "
				      "count", r->sample, (int64_t)value);
	if (!value)
		return 0;
	/* locations come leaf first: the profile wants the root first */
	for (size_t i = r->nr_ids; i-- > 0;) {
		struct pr_location *l;
		size_t idx;

		ret = pprofread__find(r, &r->loc_ids, r->ids[i], "location", &idx);
		if (ret)
			return ret;
		l = &r->locs[idx];
		ret = l->decoded ? 0 : pprofread__decode(r, l);
		if (ret)
			return ret;
		if (l->nr > r->budget)
			goto too_many;
		r->budget -= l->nr;
		if (array__grow((void **)&r->stack, &r->cap_stack, nr + l->nr,
				sizeof(*r->stack)))
			return -ENOMEM;
		memcpy(&r->stack[nr], &r->frames[l->first], l->nr * sizeof(*r->stack));
		nr += l->nr;
	}
	if (!nr) {
		if (array__grow((void **)&r->stack, &r->cap_stack, 1, sizeof(*r->stack)))
			return -ENOMEM;
		r->stack[nr++] = (struct frame){ .name = "[no stack]", .kind = FRAME_MARK };
	}
	if (nr > UINT32_MAX)
		goto too_many;
	*any_comm |= pr.comm != NULL;
	ps = (struct profile_sample){ .tgid = (uint32_t)pr.pid, .tid = (uint32_t)pr.tid,
				      .comm = pr.comm ? pr.comm : "", .frames = r->stack,
				      .nr = (uint32_t)nr, .count = value };
	return profile__add(r->p, &ps);
too_many:
	snprintf(r->why, r->size, "the samples hold more than %d frames a byte of the profile: "
		 "expected a profile, not a bomb", PPROFREAD_FRAMES_PER_BYTE);
	return -EFBIG;
}

/*
 * The index of the sample type named @value, or the error that lists them;
 * @value NULL: the profile's default_sample_type where it names one of
 * them (as go tool pprof takes it), else the first.
 */
static int pprofread__value_index(struct pprofread *r, const char *value, size_t *vi)
{
	char list[256];
	size_t n = 0;
	const char *s;
	int err;

	*vi = 0;
	for (size_t i = 0; !value && r->default_type && i < r->nr_types; i++) {
		if (r->types[i].type == r->default_type) {
			*vi = i;
			break;
		}
	}
	list[0] = '\0';
	for (size_t i = 0; value && i < r->nr_types; i++) {
		err = pprofread__str(r, r->types[i].type, &s);
		if (err)
			return err;
		if (!strcmp(s, value)) {
			*vi = i;
			return 0;
		}
		if (n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, "%s%.60s", i ? ", " : "", s);
	}
	if (!value)
		return 0;
	return pprofread__bad(r, "no sample type '%.60s' in the profile: expected %s", value, list);
}

static void pprofread__free(struct pprofread *r)
{
	for (size_t i = 0; i < r->nr_strs; i++)
		free(r->strs[i].s);
	free(r->strs);
	free(r->types);
	free(r->maps);
	free(r->funcs);
	free(r->locs);
	u64map__free(&r->map_ids);
	u64map__free(&r->func_ids);
	u64map__free(&r->loc_ids);
	free(r->frames);
	free(r->stack);
	free(r->ids);
	arena__free(&r->names);
}

int pprofread__parse(struct profile *p, const void *buf, size_t len, const char *value,
		     uint64_t max_inflated, struct pprofread_info *info, char *why, size_t size)
{
	struct pprofread r = { .p = p, .why = why, .size = size };
	struct pr_type period_type = { 0 };
	uint8_t *inflated = NULL;
	bool any_comm = false;
	struct pbread rd;
	struct pbread_field f;
	size_t vi;
	int err;

	*info = (struct pprofread_info){ 0 };
	if (pprofread__gzip(buf, len)) {
		err = pprofread__inflate(&r, buf, len, max_inflated, &inflated, &len);
		if (err)
			goto out;
		buf = inflated;
	}
	r.budget = (uint64_t)len * PPROFREAD_FRAMES_PER_BYTE;
	p->keep_bins = true;
	err = pprofread__tables(&r, buf, len, info, &period_type) ?:
	      pprofread__value_index(&r, value, &vi);
	if (err)
		goto out;
	if (info->period_ns) {
		const char *t, *u;

		err = pprofread__str(&r, period_type.type, &t) ?:
		      pprofread__str(&r, period_type.unit, &u);
		if (err)
			goto out;
		if (strcmp(t, "cpu") || strcmp(u, "nanoseconds"))
			info->period_ns = 0;
	}
	/* pass two: the samples, now that every table is known */
	rd = pbread__init(buf, len);
	while (!err && pbread__next(&rd, &f, &(const char *){ NULL }) > 0) {
		if (f.num != PROFILE_SAMPLE)
			continue;
		r.sample++;
		err = pprofread__sample(&r, &f, vi, info, &any_comm);
	}
	p->no_procs = !any_comm;
out:
	pprofread__free(&r);
	free(inflated);
	return err;
}
