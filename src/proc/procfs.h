/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Small files of /proc and /sys: one line, a number, a task's process, the online CPUs. */
#ifndef BPFPROF_PROCFS_H
#define BPFPROF_PROCFS_H

#include <sys/types.h>

#include "idlist.h"

/* The first line of @path, malloc'd, without its newline; NULL and errno. */
char *procfs__read_line(const char *path);

/* The number (1 or more) in @path, e.g. a sysctl; @fallback when there is none. */
unsigned long long procfs__read_ull(const char *path, unsigned long long fallback);

/*
 * The running kernel's version, major and minor, from
 * /proc/sys/kernel/osrelease ("6.18.44-..."). 0 or -errno (-EINVAL: not
 * of that form).
 */
int procfs__kernel_version(unsigned int *major, unsigned int *minor);

/* The process (thread group) of task @tid, or -errno (-ESRCH: no such task). */
pid_t procfs__tgid(pid_t tid);

/*
 * The online CPUs into @cpus, and their list as the kernel writes it
 * ("0-1") into *@text (malloc'd) when @text is not NULL. 0 or -errno.
 */
int procfs__online_cpus(struct idlist *cpus, char **text);

#endif /* BPFPROF_PROCFS_H */
