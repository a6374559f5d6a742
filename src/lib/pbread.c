// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Protocol buffers decoding, every length and value bounds-checked. */
#include <errno.h>

#include "pbread.h"

int pbread__varint(struct pbread *r, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned int i = 0; i < 10; i++) {
		uint8_t b;

		if (r->at + i >= r->end)
			return -EBADMSG;
		b = r->at[i];
		/* the tenth byte holds bit 63 alone */
		if (i == 9 && b > 1)
			return -EBADMSG;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			r->at += i + 1;
			*v = x;
			return 0;
		}
	}
	return -EBADMSG;
}

int pbread__next(struct pbread *r, struct pbread_field *f, const char **why)
{
	struct pbread q = *r;
	uint64_t tag, len;

	if (pbread__done(r))
		return 0;
	if (pbread__varint(&q, &tag)) {
		*why = "a field's tag is a bad varint";
		return -EBADMSG;
	}
	if (tag >> 3 == 0 || tag >> 3 > UINT32_MAX) {
		*why = "a field number is 0 or above 2^32";
		return -EBADMSG;
	}
	*f = (struct pbread_field){ .num = (uint32_t)(tag >> 3), .wire = tag & 7 };
	switch (f->wire) {
	case PBREAD_VARINT:
		if (pbread__varint(&q, &f->v)) {
			*why = "a varint runs past the end or over 10 bytes";
			return -EBADMSG;
		}
		break;
	case PBREAD_FIXED64:
	case PBREAD_FIXED32: {
		size_t n = f->wire == PBREAD_FIXED64 ? 8 : 4;

		if ((size_t)(q.end - q.at) < n) {
			*why = "a fixed-size value runs past the end";
			return -EBADMSG;
		}
		for (size_t i = n; i-- > 0;)
			f->v = f->v << 8 | q.at[i];
		q.at += n;
		break;
	}
	case PBREAD_LEN:
		if (pbread__varint(&q, &len)) {
			*why = "a length is a bad varint";
			return -EBADMSG;
		}
		if (len > (uint64_t)(q.end - q.at)) {
			*why = "a length runs past the end of its message";
			return -EBADMSG;
		}
		f->data = q.at;
		f->len = (size_t)len;
		q.at += len;
		break;
	default:
		*why = "a field has a group or an unknown wire type";
		return -EBADMSG;
	}
	*r = q;
	return 1;
}

int pbread__values(struct pbread_values *it, const struct pbread_field *f)
{
	*it = (struct pbread_values){ 0 };
	if (f->wire == PBREAD_LEN) {
		it->r = pbread__init(f->data, f->len);
		return 0;
	}
	if (f->wire != PBREAD_VARINT)
		return -EBADMSG;
	it->one = f->v;
	it->has_one = true;
	return 0;
}

int pbread__value(struct pbread_values *it, uint64_t *v)
{
	if (it->has_one) {
		it->has_one = false;
		*v = it->one;
		return 1;
	}
	if (pbread__done(&it->r))
		return 0;
	return pbread__varint(&it->r, v) ?: 1;
}
