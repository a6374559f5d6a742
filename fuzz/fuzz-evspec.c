// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* -e EVENT: evspec__parse, and the name it gives back for what it parsed. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evspec.h"
#include "fuzzinput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_input__string(data, size);
	struct perf_event_attr attr;
	const char *name;
	int err;

	if (!spec)
		return 0;
	memset(&attr, 0, sizeof(attr));
	err = evspec__parse(spec, &attr);
	assert(err == 0 || err == -EINVAL);
	if (!err) {
		/* what parsed has a canonical name, which parses to the same event */
		name = evspec__name(attr.type, attr.config);
		assert(name);
		struct perf_event_attr again = { 0 };

		assert(evspec__parse(name, &again) == 0);
		assert(again.type == attr.type && again.config == attr.config);
		(void)evspec__is_hardware(&attr);
	}
	free(spec);
	return 0;
}
