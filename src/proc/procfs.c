// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Small files of /proc and /sys, read the same way wherever they are needed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "number.h"
#include "procfs.h"

char *procfs__read_line(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return NULL;
	len = getline(&line, &cap, f);
	fclose(f);
	if (len <= 0) {
		free(line);
		errno = EIO;
		return NULL;
	}
	if (line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

unsigned long long procfs__read_ull(const char *path, unsigned long long fallback)
{
	unsigned long long v;
	char *text = procfs__read_line(path);

	if (!text || number__parse_ull(text, 1, ULLONG_MAX, &v))
		v = fallback;
	free(text);
	return v;
}

int procfs__kernel_version(unsigned int *major, unsigned int *minor)
{
	char *line = procfs__read_line("/proc/sys/kernel/osrelease");
	int n;

	if (!line)
		return -errno;
	n = sscanf(line, "%u.%u", major, minor);
	free(line);
	return n == 2 ? 0 : -EINVAL;
}

pid_t procfs__tgid(pid_t tid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int tgid = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	free(line);
	fclose(f);
	return tgid;
}

int procfs__online_cpus(struct idlist *cpus, char **text)
{
	char *line = procfs__read_line("/sys/devices/system/cpu/online");
	int err;

	if (!line)
		return -errno;
	err = idlist__parse(cpus, line, INT_MAX - 1, 1);
	if (!err && text)
		*text = line;
	else
		free(line);
	return err;
}
