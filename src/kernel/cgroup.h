/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cgroup v2 paths. */
#ifndef BPFPROF_CGROUP_H
#define BPFPROF_CGROUP_H

#include <stddef.h>

/*
 * Where the cgroup v2 hierarchy is mounted ("/sys/fs/cgroup", or
 * "/sys/fs/cgroup/unified" on hybrid systems), from /proc/self/mountinfo.
 * Returns 0 or -ENOENT (no cgroup2 mount), -ENAMETOOLONG.
 */
int cgroup__mount(char *buf, size_t size);

/*
 * Resolve a -G argument to an absolute directory in the cgroup v2 mount:
 * an absolute path inside the mount is taken as is, anything else
 * ("/system.slice/x", "user.slice") is taken relative to the mount.
 * Returns 0, -ENOENT (no such cgroup directory), -ENOTDIR, -ENAMETOOLONG.
 */
int cgroup__resolve(const char *arg, char *buf, size_t size);

#endif /* BPFPROF_CGROUP_H */
