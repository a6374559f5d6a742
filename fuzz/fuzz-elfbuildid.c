// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The build-id note of an ELF file (PT_NOTE segments, SHT_NOTE sections): buildid__read_fd. */
#include <assert.h>
#include <errno.h>
#include <unistd.h>

#include "buildid.h"
#include "fuzzinput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_input__memfd(data, size);
	uint8_t id[BUILD_ID_MAX];
	int n;

	if (fd < 0)
		return 0;
	n = buildid__read_fd(fd, id, sizeof(id));
	assert((n >= 1 && n <= BUILD_ID_MAX) || n == -ENOENT || n == -ENOEXEC || n == -EIO);
	/* a short buffer takes the id's first bytes */
	n = buildid__read_fd(fd, id, 3);
	assert((n >= 1 && n <= 3) || n == -ENOENT || n == -ENOEXEC || n == -EIO);
	close(fd);
	return 0;
}
