/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Does this process hold the capabilities profiling needs? */
#ifndef BPFPROF_CAPS_H
#define BPFPROF_CAPS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Check the effective set for CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN
 * stands in for both). Returns 0, or -EPERM with the missing ones named in
 * @missing ("CAP_BPF and CAP_PERFMON").
 */
int caps__check(char *missing, size_t size);

/* Is capability @cap (CAP_SYSLOG...) in the effective set? */
bool caps__effective(int cap);

/*
 * Why a file of another user was refused to us, for a warning: "reading
 * other users' binaries needs CAP_DAC_READ_SEARCH or root", or, with it
 * (or CAP_DAC_OVERRIDE), that a security module must have refused it.
 */
const char *caps__why_unreadable(void);

#endif /* BPFPROF_CAPS_H */
