// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "protobuf.h"

enum protobuf_wire {
	PROTOBUF_VARINT = 0,
	PROTOBUF_LEN = 2,
};

/* Room for @n more bytes. */
static int protobuf__room(struct protobuf *pb, size_t n)
{
	if (pb->err)
		return pb->err;
	if (array__grow((void **)&pb->buf, &pb->cap, pb->len + n, 1))
		pb->err = -ENOMEM;
	return pb->err;
}

/* The bytes of @v as a varint: 7 bits each, low first, the top bit "more". */
static size_t protobuf__varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static int protobuf__varint(struct protobuf *pb, uint64_t v)
{
	if (protobuf__room(pb, 10))
		return pb->err;
	while (v >= 0x80) {
		pb->buf[pb->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	pb->buf[pb->len++] = (uint8_t)v;
	return 0;
}

static int protobuf__tag(struct protobuf *pb, uint32_t field, enum protobuf_wire wire)
{
	return protobuf__varint(pb, (uint64_t)field << 3 | wire);
}

int protobuf__uint(struct protobuf *pb, uint32_t field, uint64_t v)
{
	return protobuf__tag(pb, field, PROTOBUF_VARINT) ?: protobuf__varint(pb, v);
}

int protobuf__bytes(struct protobuf *pb, uint32_t field, const void *data, size_t len)
{
	if (protobuf__tag(pb, field, PROTOBUF_LEN) || protobuf__varint(pb, len) ||
	    protobuf__room(pb, len))
		return pb->err;
	if (len)
		memcpy(pb->buf + pb->len, data, len);
	pb->len += len;
	return 0;
}

int protobuf__string(struct protobuf *pb, uint32_t field, const char *s)
{
	return protobuf__bytes(pb, field, s, s ? strlen(s) : 0);
}

int protobuf__message(struct protobuf *pb, uint32_t field, const struct protobuf *sub)
{
	if (sub->err && !pb->err)
		pb->err = sub->err;
	return protobuf__bytes(pb, field, sub->buf, sub->len);
}

int protobuf__packed(struct protobuf *pb, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (!n)
		return pb->err;
	for (size_t i = 0; i < n; i++)
		len += protobuf__varint_len(v[i]);
	if (protobuf__tag(pb, field, PROTOBUF_LEN) || protobuf__varint(pb, len))
		return pb->err;
	for (size_t i = 0; i < n; i++)
		if (protobuf__varint(pb, v[i]))
			return pb->err;
	return 0;
}

void protobuf__reset(struct protobuf *pb)
{
	pb->len = 0;
	pb->err = 0;
}

void protobuf__free(struct protobuf *pb)
{
	free(pb->buf);
	*pb = (struct protobuf){ 0 };
}
