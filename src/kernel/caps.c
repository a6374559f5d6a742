// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "caps.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool caps__has(const struct __user_cap_data_struct *data, int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

static int caps__get(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &hdr, data) ? -errno : 0;
}

bool caps__effective(int cap)
{
	struct __user_cap_data_struct data[2] = { 0 };

	return !caps__get(data) && caps__has(data, cap);
}

int caps__check(char *missing, size_t size)
{
	struct __user_cap_data_struct data[2] = { 0 };
	bool bpf, perfmon;
	int err = caps__get(data);

	if (err)
		return err;
	if (caps__has(data, CAP_SYS_ADMIN))
		return 0;
	bpf = caps__has(data, CAP_BPF);
	perfmon = caps__has(data, CAP_PERFMON);
	if (bpf && perfmon)
		return 0;
	snprintf(missing, size, "%s%s%s", bpf ? "" : "CAP_BPF",
		 !bpf && !perfmon ? " and " : "", perfmon ? "" : "CAP_PERFMON");
	return -EPERM;
}

const char *caps__why_unreadable(void)
{
	if (caps__effective(CAP_DAC_READ_SEARCH) || caps__effective(CAP_DAC_OVERRIDE))
		return "permission denied even with CAP_DAC_READ_SEARCH (a security module?)";
	return "reading other users' binaries needs CAP_DAC_READ_SEARCH or root";
}
