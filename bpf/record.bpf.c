// SPDX-License-Identifier: GPL-2.0
/* placeholder: in progress */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpfprof.h"
SEC("perf_event")
int bpfprof_sample(void *ctx)
{
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
