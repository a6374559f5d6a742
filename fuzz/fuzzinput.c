// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzzinput.h"

char *fuzz_input__string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

int fuzz_input__memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while (done < size) {
		n = write(fd, data + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			n = n < 0 ? -errno : -EIO;
			close(fd);
			return (int)n;
		}
		done += n;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	return fd;
}

FILE *fuzz_input__file(const uint8_t *data, size_t size)
{
	int fd = fuzz_input__memfd(data, size);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return f;
}
