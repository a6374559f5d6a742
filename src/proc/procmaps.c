// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The lines of /proc/PID/maps and the paths they name: pure, no table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "array.h"
#include "proc.h"

bool proc_maps__anon_path(const char *path)
{
	/* the files behind shared anonymous memory, "(deleted)" or not */
	static const char *const anon_files[] = { "/dev/zero", "/anon_hugepage" };
	static const char deleted[] = " (deleted)";

	if (path[0] != '/')
		return strcmp(path, "[vdso]") != 0;
	if (!strncmp(path, "//anon", 6))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(anon_files); i++) {
		size_t n = strlen(anon_files[i]);

		if (!strncmp(path, anon_files[i], n) &&
		    (!path[n] || !strcmp(path + n, deleted)))
			return true;
	}
	return false;
}

int proc_maps__parse_line(char *line, struct map_event *ev)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[5];
	int pos = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &pos) < 7 ||
	    !pos || end <= start)
		return -EINVAL;
	if (strlen(perms) != 4 || perms[2] != 'x')
		return 0;
	memset(ev, 0, sizeof(*ev));
	ev->start = start;
	ev->end = end;
	ev->pgoff = pgoff;
	ev->dev = makedev(maj, min);
	ev->ino = ino;
	ev->path = line + pos;
	line[pos + strcspn(line + pos, "\n")] = '\0';
	return 1;
}
