// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* LOCATION and --if arguments of bpfprof watch: watchspec__parse, __parse_if and their promises. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzinput.h"
#include "watchspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = fuzz_input__string(data, size);
	struct watch_term terms[WATCH_MAX_TERMS];
	struct watchspec w;
	const char *why = NULL;
	unsigned int nr = 0;
	char buf[256];
	int err;

	if (!arg)
		return 0;
	memset(&w, 0xa5, sizeof(w));
	err = watchspec__parse(arg, &w, &why);
	assert(err == 0 || err == -EINVAL || err == -ENOMEM);
	if (err == -EINVAL) {
		struct watchspec untouched;

		assert(why && *why);
		memset(&untouched, 0xa5, sizeof(untouched));
		assert(!memcmp(&w, &untouched, sizeof(w)));
	}
	if (!err) {
		bool sym = w.kind != WATCH_ABS_ADDR;

		assert(sym == !!w.symbol);
		assert(!w.symbol || *w.symbol);
		assert(w.kind == WATCH_BIN_SYM ? w.binary && *w.binary : !w.binary);
		assert(!w.len || w.len == 1 || w.len == 2 || w.len == 4 || w.len == 8);
		assert(w.count >= 1);
		watchspec__free(&w);
		watchspec__free(&w);
	}
	buf[0] = '\0';
	err = watchspec__parse_if(arg, terms, &nr, buf, sizeof(buf));
	assert(err == 0 || err == -EINVAL || err == -ENOMEM);
	assert(nr <= WATCH_MAX_TERMS);
	if (err == -EINVAL)
		assert(buf[0]);
	for (unsigned int i = 0; !err && i < nr; i++) {
		assert(terms[i].operand <= WATCH_PID && terms[i].cmp <= WATCH_GE);
		assert(terms[i].operand != WATCH_REG || terms[i].reg <= WATCH_REG_IP);
	}
	free(arg);
	return 0;
}
