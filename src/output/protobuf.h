/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A protocol buffers encoder, just what the pprof writer needs: varint
 * fields, length-delimited fields (strings, bytes, messages encoded into a
 * buffer of their own first) and packed repeated varints, appended to a
 * growing buffer. The first failure (ENOMEM) sticks: later calls do
 * nothing and return it, so a message can be built and checked once.
 */
#ifndef BPFPROF_PROTOBUF_H
#define BPFPROF_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

struct protobuf {
	uint8_t *buf;
	size_t len, cap;
	int err; /* 0, or the first -errno */
};

/* Field @field as a varint (wire type 0): uint64, or int64 cast to it. */
int protobuf__uint(struct protobuf *pb, uint32_t field, uint64_t v);
/* Field @field as @len bytes (wire type 2): bytes, a string or a message. */
int protobuf__bytes(struct protobuf *pb, uint32_t field, const void *data, size_t len);
/* A NUL-terminated string (NULL: empty). */
int protobuf__string(struct protobuf *pb, uint32_t field, const char *s);
/* Message @sub (encoded into its own buffer) as field @field. */
int protobuf__message(struct protobuf *pb, uint32_t field, const struct protobuf *sub);
/* Repeated varints @v[0..n) packed into one field (nothing when @n is 0). */
int protobuf__packed(struct protobuf *pb, uint32_t field, const uint64_t *v, size_t n);
/* Empty @pb for the next message, keeping its memory (and clearing its error). */
void protobuf__reset(struct protobuf *pb);
void protobuf__free(struct protobuf *pb);

#endif /* BPFPROF_PROTOBUF_H */
