// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pbread: the protobuf decoder reads back what the encoder (protobuf.c)
 * writes, field by field, and refuses every malformed input with -EBADMSG
 * and why, never reading past the buffer (the inputs are exactly sized:
 * ASan sees an overrun).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "escape.h"
#include "pbread.h"
#include "protobuf.h"

/* The first field of the @n bytes at @b (copied to memory of exactly @n bytes). */
static int first(const uint8_t *b, size_t n, struct pbread_field *f, const char **why)
{
	uint8_t *copy = malloc(n ? n : 1);
	struct pbread r;
	int ret;

	if (n) /* b may be NULL then, which memcpy must not get */
		memcpy(copy, b, n);
	r = pbread__init(copy, n);
	*why = NULL;
	ret = pbread__next(&r, f, why);
	free(copy);
	return ret;
}

int main(void)
{
	struct protobuf pb = { 0 }, sub = { 0 };
	static const uint64_t vals[] = { 3, 270, 86942, UINT64_MAX };
	struct pbread_values it;
	struct pbread_field f;
	struct pbread r;
	const char *why;
	uint64_t v, got[4];
	size_t n = 0;
	char out[32];

	/* what the encoder writes, read back */
	protobuf__uint(&pb, 1, 150);
	protobuf__uint(&pb, 16, UINT64_MAX);
	protobuf__string(&pb, 6, "testing");
	protobuf__string(&pb, 6, "");
	protobuf__uint(&sub, 1, 150);
	protobuf__message(&pb, 3, &sub);
	protobuf__packed(&pb, 4, vals, 4);
	r = pbread__init(pb.buf, pb.len);
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 1 && f.wire == PBREAD_VARINT &&
	      f.v == 150, "field 1 = 150");
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 16 && f.v == UINT64_MAX,
	      "field 16 (a two-byte tag) = 2^64 - 1 (ten bytes)");
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 6 && f.wire == PBREAD_LEN &&
	      f.len == 7 && !memcmp(f.data, "testing", 7), "a string");
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 6 && f.len == 0, "an empty string");
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 3 && f.len == 3, "a message");
	{
		struct pbread m = pbread__init(f.data, f.len);
		struct pbread_field g;

		CHECK(pbread__next(&m, &g, &why) == 1 && g.num == 1 && g.v == 150 &&
		      pbread__next(&m, &g, &why) == 0, "its one field, then its end");
	}
	CHECK(pbread__next(&r, &f, &why) == 1 && f.num == 4 && !pbread__values(&it, &f),
	      "a packed field");
	while (pbread__value(&it, &v) == 1 && n < 4)
		got[n++] = v;
	CHECK(n == 4 && !memcmp(got, vals, sizeof(vals)), "its four values");
	CHECK(pbread__next(&r, &f, &why) == 0 && pbread__done(&r), "then the end");

	/* one value where a packed field may be (proto2's unpacked repeated) */
	f = (struct pbread_field){ .num = 4, .wire = PBREAD_VARINT, .v = 7 };
	CHECK(!pbread__values(&it, &f) && pbread__value(&it, &v) == 1 && v == 7 &&
	      pbread__value(&it, &v) == 0, "an unpacked value is one value");
	f = (struct pbread_field){ .num = 4, .wire = PBREAD_FIXED32 };
	CHECK(pbread__values(&it, &f) == -EBADMSG, "a fixed32 is no varint list");
	{
		static const uint8_t bad[] = { 0x80 };

		f = (struct pbread_field){ .num = 4, .wire = PBREAD_LEN, .data = bad, .len = 1 };
		CHECK(!pbread__values(&it, &f) && pbread__value(&it, &v) == -EBADMSG,
		      "a packed varint cut short");
	}

	/* fixed sizes */
	{
		static const uint8_t f64[] = { 0x09, 1, 2, 3, 4, 5, 6, 7, 8 };
		static const uint8_t f32[] = { 0x0d, 1, 2, 3, 4 };

		CHECK(first(f64, sizeof(f64), &f, &why) == 1 && f.v == 0x0807060504030201ull,
		      "fixed64, little-endian");
		CHECK(first(f32, sizeof(f32), &f, &why) == 1 && f.v == 0x04030201,
		      "fixed32, little-endian");
		CHECK(first(f64, 5, &f, &why) == -EBADMSG && why, "a fixed64 cut short");
		CHECK(first(f32, 4, &f, &why) == -EBADMSG && why, "a fixed32 cut short");
	}

	/* malformed */
	{
		static const uint8_t long_varint[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						       0xff, 0xff, 0xff, 0xff, 0x01 };
		static const uint8_t over64[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						  0xff, 0xff, 0xff, 0x02 };
		static const uint8_t cut_varint[] = { 0x08, 0x96 };
		static const uint8_t cut_tag[] = { 0x80 };
		static const uint8_t past_end[] = { 0x12, 0x05, 'a', 'b' };
		static const uint8_t huge_len[] = { 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
						    0xff, 0xff, 0x7f };
		static const uint8_t group[] = { 0x0b };
		static const uint8_t wire6[] = { 0x0e };
		static const uint8_t field0[] = { 0x00, 0x01 };
		static const uint8_t bad_len_varint[] = { 0x12, 0x80 };
		const uint8_t *cases[] = { long_varint, over64, cut_varint, cut_tag, past_end,
					   huge_len, group, wire6, field0, bad_len_varint };
		const size_t sizes[] = { sizeof(long_varint), sizeof(over64), sizeof(cut_varint),
					 sizeof(cut_tag), sizeof(past_end), sizeof(huge_len),
					 sizeof(group), sizeof(wire6), sizeof(field0),
					 sizeof(bad_len_varint) };
		const char *names[] = { "a varint of 11 bytes", "a varint above 2^64 - 1",
					"a varint cut short", "a tag cut short",
					"a length past the end", "a length of 2^63",
					"a group (wire type 3)", "wire type 6", "field number 0",
					"a length that is a bad varint" };

		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			CHECK(first(cases[i], sizes[i], &f, &why) == -EBADMSG && why && *why,
			      "refused: %s (%s)", names[i], why ? why : "no reason");
	}
	{
		static const uint8_t past_end[] = { 0x08, 0x01, 0x12, 0x05, 'a' };

		r = pbread__init(past_end, sizeof(past_end));
		CHECK(pbread__next(&r, &f, &why) == 1 && pbread__next(&r, &f, &why) == -EBADMSG &&
		      r.at == past_end + 2, "a bad field leaves the reader where it starts");
	}
	CHECK(first(NULL, 0, &f, &why) == 0, "an empty message has no field");

	/* escape__undo: what escape.c wrote, undone */
	CHECK(escape__undo(out, "a\\\\b\\x01c", 9) == 5 && !memcmp(out, "a\\b\x01" "c", 6),
	      "\\\\ and \\xHH undone");
	CHECK_STR((escape__undo(out, "\\x00\\q\\x4", 9), out), "\\x00\\q\\x4",
		  "\\x00, unknown escapes and a cut one stay as they are");
	{
		const char *s = "f\x01\x7f\xc2\x80\\\xff;";
		char *e = escape__dup(s);

		escape__undo(out, e, strlen(e));
		CHECK_STR(out, s, "escape__dup, undone: the name it escaped");
		free(e);
	}
	protobuf__free(&pb);
	protobuf__free(&sub);
	return check_done();
}
