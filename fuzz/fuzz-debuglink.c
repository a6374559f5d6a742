// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A binary's pointers to its debug info: the .gnu_debuglink section
 * (debugfile__link) and the MiniDebugInfo of .gnu_debugdata, xz unpacked
 * (debugfile__minidebuginfo), of an ELF file.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debugfile.h"
#include "fuzzinput.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_input__memfd(data, size);
	char name[NAME_MAX + 1], small[8];
	void *image = NULL;
	size_t image_size = 0;
	uint32_t crc;
	int err;

	if (fd < 0)
		return 0;
	err = debugfile__link(fd, name, sizeof(name), &crc);
	assert(!err || err == -ENOENT);
	if (!err)
		assert(*name && strlen(name) < sizeof(name));
	err = debugfile__link(fd, small, sizeof(small), &crc);
	assert(!err || err == -ENOENT);
	if (!err)
		assert(*small && strlen(small) < sizeof(small));
	err = debugfile__minidebuginfo(fd, &image, &image_size);
	assert(!err || err == -ENOENT || err == -EINVAL || err == -ENOMEM);
	if (!err) {
		assert(image || !image_size);
		free(image);
	}
	close(fd);
	return 0;
}
