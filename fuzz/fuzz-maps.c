// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One line of /proc/PID/maps: proc_maps__parse_line. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzinput.h"
#include "proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_input__string(data, size);
	size_t len = line ? strlen(line) : 0;
	struct map_event ev;
	int ret;

	if (!line)
		return 0;
	ret = proc_maps__parse_line(line, &ev);
	assert(ret == 1 || ret == 0 || ret == -EINVAL);
	if (ret == 1) {
		assert(ev.start < ev.end);
		assert(ev.path >= line && ev.path <= line + len);
		assert(!strchr(ev.path, '\n'));
	}
	free(line);
	return 0;
}
