// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* RANGE arguments of bpfprof range: rangespec__parse and its promises. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzinput.h"
#include "rangespec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = fuzz_input__string(data, size);
	struct rangespec r;
	const char *why = NULL;
	int err;

	if (!arg)
		return 0;
	memset(&r, 0xa5, sizeof(r));
	err = rangespec__parse(arg, &r, &why);
	assert(err == 0 || err == -EINVAL || err == -ENOMEM);
	if (err == -EINVAL) {
		struct rangespec untouched;

		assert(why && *why);
		memset(&untouched, 0xa5, sizeof(untouched));
		assert(!memcmp(&r, &untouched, sizeof(r)));
	}
	if (!err) {
		bool addr = r.kind == RANGE_KERNEL_ADDR || r.kind == RANGE_BIN_ADDR ||
			    r.kind == RANGE_ABS_ADDR;
		bool bin = r.kind == RANGE_BIN_SYM || r.kind == RANGE_BIN_ADDR;

		assert(range_spec__kind_name(r.kind));
		assert(addr ? r.end > r.start : !r.start && !r.end);
		assert(addr == !r.symbol);
		assert(!r.symbol || *r.symbol);
		assert(bin ? r.binary && *r.binary : !r.binary);
		assert(!r.binary || r.binary_is_path == !!strchr(r.binary, '/'));
		rangespec__free(&r);
		rangespec__free(&r);
	}
	free(arg);
	return 0;
}
