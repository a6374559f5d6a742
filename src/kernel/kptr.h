/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Why /proc/kallsyms shows this process every address as 0: the kernel's
 * rule (kallsyms_show_value in kernel/ksyms_common.c, the one %pK follows
 * in lib/vsprintf.c's restricted_pointer), applied to the file opener's
 * credentials:
 *   kernel.kptr_restrict=0: shown when kernel.perf_event_paranoid <= 1,
 *                           else as for 1;
 *   kernel.kptr_restrict=1: shown with CAP_SYSLOG;
 *   kernel.kptr_restrict=2: never shown.
 */
#ifndef BPFPROF_KPTR_H
#define BPFPROF_KPTR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The cause, for a warning, and what would lift it, into @buf:
 * "kernel.perf_event_paranoid=2 (above 1) and no CAP_SYSLOG; grant CAP_SYSLOG
 * or set kernel.perf_event_paranoid=1".
 */
void kptr__explain(int kptr_restrict, int paranoid, bool syslog, char *buf, size_t size);
/* The same for this process, from the sysctls and its capabilities. */
void kptr__why_hidden(char *buf, size_t size);

#endif /* BPFPROF_KPTR_H */
