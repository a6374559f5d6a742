// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* protobuf: varints, length-delimited fields, packed repeated varints, byte for byte. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "protobuf.h"

static int same(const struct protobuf *pb, const uint8_t *want, size_t n)
{
	return !pb->err && pb->len == n && !memcmp(pb->buf, want, n);
}

int main(void)
{
	struct protobuf pb = { 0 }, sub = { 0 };
	static const uint8_t one[] = { 0x08, 0x96, 0x01 };
	static const uint8_t zero[] = { 0x10, 0x00 };
	static const uint8_t max[] = { 0x18, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t neg[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t field16[] = { 0x80, 0x01, 0x01 };
	static const uint8_t str[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g' };
	static const uint8_t empty[] = { 0x32, 0x00 };
	static const uint8_t msg[] = { 0x1a, 0x03, 0x08, 0x96, 0x01 };
	static const uint8_t packed[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05 };
	static const uint64_t vals[] = { 3, 270, 86942 };

	/* the examples of the protocol buffers encoding guide */
	protobuf__uint(&pb, 1, 150);
	CHECK(same(&pb, one, sizeof(one)), "field 1 = 150: 08 96 01");
	protobuf__reset(&pb);
	protobuf__uint(&pb, 2, 0);
	CHECK(same(&pb, zero, sizeof(zero)), "a zero is written when asked: 10 00");
	protobuf__reset(&pb);
	protobuf__uint(&pb, 3, UINT64_MAX);
	CHECK(same(&pb, max, sizeof(max)), "2^64 - 1 takes ten bytes");
	protobuf__reset(&pb);
	protobuf__uint(&pb, 1, (uint64_t)(int64_t)-1);
	CHECK(same(&pb, neg, sizeof(neg)), "int64 -1 is ten bytes, as proto3 writes it");
	protobuf__reset(&pb);
	protobuf__uint(&pb, 16, 1);
	CHECK(same(&pb, field16, sizeof(field16)), "field 16: a two-byte tag");
	protobuf__reset(&pb);
	protobuf__string(&pb, 2, "testing");
	CHECK(same(&pb, str, sizeof(str)), "a string: 12 07 \"testing\"");
	protobuf__reset(&pb);
	protobuf__string(&pb, 6, NULL);
	CHECK(same(&pb, empty, sizeof(empty)), "NULL is the empty string");
	protobuf__reset(&pb);
	protobuf__uint(&sub, 1, 150);
	protobuf__message(&pb, 3, &sub);
	CHECK(same(&pb, msg, sizeof(msg)), "an embedded message: 1a 03 08 96 01");
	protobuf__reset(&pb);
	protobuf__packed(&pb, 4, vals, 3);
	CHECK(same(&pb, packed, sizeof(packed)), "packed 3, 270, 86942: 22 06 03 8e 02 9e a7 05");
	protobuf__reset(&pb);
	protobuf__packed(&pb, 4, vals, 0);
	CHECK(!pb.err && pb.len == 0, "an empty packed field is not written");
	/* a long field: a multi-byte length, the buffer grown */
	protobuf__reset(&pb);
	{
		static char big[300];

		memset(big, 'x', sizeof(big) - 1);
		protobuf__string(&pb, 1, big);
		CHECK(!pb.err && pb.len == 3 + 299 && pb.buf[0] == 0x0a && pb.buf[1] == 0xab &&
		      pb.buf[2] == 0x02 && pb.buf[3] == 'x',
		      "299 bytes: length ab 02, then the bytes");
	}
	protobuf__free(&pb);
	protobuf__free(&sub);
	CHECK(pb.buf == NULL && pb.len == 0, "freed");
	return check_done();
}
