// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --pid/--tid (no ranges, up to INT_MAX) and --cpu (ranges, up to the
 * highest online CPU) lists: idlist__parse. The first byte picks which;
 * the rest is the list, parsed onto a list that already holds ids.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "fuzzinput.h"
#include "idlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* CPU lists are bounded by the online CPUs; 4095 is a large machine */
	static const int cpu_max[] = { 0, 1, 63, 4095 };
	struct idlist list = { 0 };
	int ranges, max, err;
	size_t i, before;
	int *old;
	char *s;

	if (!size)
		return 0;
	ranges = data[0] & 1;
	max = ranges ? cpu_max[(data[0] >> 1) & 3] : INT_MAX;
	s = fuzz_input__string(data + 1, size - 1);
	if (!s)
		return 0;
	if (idlist__parse(&list, "0,7", max < 7 ? max : 7, 0))
		assert(max < 7);
	before = list.nr;
	old = list.ids;
	err = idlist__parse(&list, s, max, ranges);
	assert(!err || err == -EINVAL || err == -ERANGE || err == -ENOMEM);
	if (err) {
		assert(list.nr == before && list.ids == old); /* unchanged */
	} else {
		assert(list.nr >= before);
		for (i = 0; i < list.nr; i++) {
			assert(list.ids[i] >= 0 && list.ids[i] <= max);
			assert(!i || list.ids[i - 1] < list.ids[i]); /* sorted, no duplicates */
			assert(idlist__has(&list, list.ids[i]));
		}
	}
	idlist__free(&list);
	free(s);
	return 0;
}
