// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events.h"

struct events {
	int *fds;
	size_t nr;
};

int perf_event__open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
		     unsigned long flags)
{
	int fd = syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);

	return fd < 0 ? -errno : fd;
}

static int events__attach(int fd, int prog_fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
		return -errno;
	return 0;
}

struct events *events__open(const struct perf_event_attr *attr, const struct idlist *cpus,
			    int prog_fd, int *failed_cpu)
{
	struct perf_event_attr a = *attr;
	struct events *ev = calloc(1, sizeof(*ev));
	int err = -ENOMEM, fd;

	if (failed_cpu)
		*failed_cpu = -1;
	if (!ev || !(ev->fds = calloc(cpus->nr ? cpus->nr : 1, sizeof(int))))
		goto fail;
	a.size = sizeof(a);
	a.disabled = 1;
	for (size_t i = 0; i < cpus->nr; i++) {
		fd = perf_event__open(&a, -1, cpus->ids[i], -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			err = fd;
			if (failed_cpu)
				*failed_cpu = cpus->ids[i];
			goto fail;
		}
		ev->fds[ev->nr++] = fd;
		err = events__attach(fd, prog_fd);
		if (err)
			goto fail;
	}
	return ev;
fail:
	events__free(ev);
	errno = -err;
	return NULL;
}

static int events__ioctl(struct events *ev, unsigned long req)
{
	for (size_t i = 0; ev && i < ev->nr; i++)
		if (ioctl(ev->fds[i], req, 0))
			return -errno;
	return 0;
}

int events__enable(struct events *ev)
{
	return events__ioctl(ev, PERF_EVENT_IOC_ENABLE);
}

int events__disable(struct events *ev)
{
	return events__ioctl(ev, PERF_EVENT_IOC_DISABLE);
}

void events__free(struct events *ev)
{
	if (!ev)
		return;
	for (size_t i = 0; i < ev->nr; i++)
		close(ev->fds[i]);
	free(ev->fds);
	free(ev);
}
