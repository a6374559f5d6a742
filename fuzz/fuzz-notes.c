// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Raw ELF notes as /sys/kernel/notes shows them: buildid__from_notes. */
#include <assert.h>
#include <errno.h>

#include "buildid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	int n = buildid__from_notes(data, size, id, sizeof(id));

	assert((n >= 1 && n <= BUILD_ID_MAX) || n == -ENOENT || n == -EINVAL);
	if (n > 0)
		buildid__hex(id, n, hex);
	return 0;
}
