/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A protocol buffers decoder for input from outside (pprof files): one
 * field at a time from a buffer, every varint, length and fixed-size value
 * checked against the bytes left, nothing allocated. Wire types 0 (varint),
 * 1 (fixed64), 2 (length-delimited) and 5 (fixed32); groups (3, 4), which
 * proto3 has no use for, and field number 0 are errors. The encoder beside
 * it is output/protobuf.c.
 */
#ifndef BPFPROF_PBREAD_H
#define BPFPROF_PBREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pbread_wire {
	PBREAD_VARINT = 0,
	PBREAD_FIXED64 = 1,
	PBREAD_LEN = 2,
	PBREAD_FIXED32 = 5,
};

/* A message's bytes being read: [at, end). */
struct pbread {
	const uint8_t *at, *end;
};

struct pbread_field {
	uint32_t num;
	enum pbread_wire wire;
	uint64_t v;           /* varint, fixed64 and fixed32 values */
	const uint8_t *data;  /* length-delimited: its bytes */
	size_t len;
};

/* A reader of the @len bytes at @buf. */
static inline struct pbread pbread__init(const void *buf, size_t len)
{
	return (struct pbread){ buf, (const uint8_t *)buf + len };
}

/*
 * The next field of @r into @f: 1, or 0 at the end of the message, or
 * -EBADMSG (a varint longer than 10 bytes or past the end, a length past
 * the end, a group or an unknown wire type, field number 0) with what was
 * wrong in *@why (a static string); @r is then left where the bad field starts.
 */
int pbread__next(struct pbread *r, struct pbread_field *f, const char **why);
/* One varint of @r (a packed repeated field's): 0 or -EBADMSG. */
int pbread__varint(struct pbread *r, uint64_t *v);
/* Are all of @r's bytes read? */
static inline bool pbread__done(const struct pbread *r)
{
	return r->at >= r->end;
}
/* The values of a repeated varint field: packed (wire type 2) or one (wire type 0). */
struct pbread_values {
	struct pbread r; /* packed: the values left */
	uint64_t one;
	bool has_one;
};

/* The values of field @f into @it: 0, or -EBADMSG when @f is neither a varint nor packed. */
int pbread__values(struct pbread_values *it, const struct pbread_field *f);
/* The next value of @it: 1, 0 at the end, or -EBADMSG (a bad varint). */
int pbread__value(struct pbread_values *it, uint64_t *v);

#endif /* BPFPROF_PBREAD_H */
