// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "array.h"
#include "events.h"

/* An open event and the link that attaches the program to it (-1: SET_BPF). */
struct event_fd {
	int fd, link;
};

struct events {
	struct event_fd *fds;
	size_t nr, cap;
};

int events__open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
		 unsigned long flags)
{
	int fd = syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);

	return fd < 0 ? -errno : fd;
}

struct events *events__new(void)
{
	return calloc(1, sizeof(struct events));
}

int events__add(struct events *ev, const struct perf_event_attr *attr, int cpu, int prog_fd,
		__u64 cookie, bool *opened)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .perf_event.bpf_cookie = cookie);
	struct perf_event_attr a = *attr;
	int fd, link = -1, err = 0;

	if (opened)
		*opened = false;
	if (array__grow((void **)&ev->fds, &ev->cap, ev->nr + 1, sizeof(*ev->fds)))
		return -ENOMEM;
	a.size = sizeof(a);
	a.disabled = 1;
	fd = events__open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	if (opened)
		*opened = true;
	/* cookie 0 needs no link: one descriptor, as a run of one event always had */
	if (!cookie)
		err = ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ? -errno : 0;
	else
		err = link = bpf_link_create(prog_fd, fd, BPF_PERF_EVENT, &opts);
	if (err < 0) {
		close(fd);
		return err;
	}
	ev->fds[ev->nr++] = (struct event_fd){ fd, link };
	return 0;
}

static int events__ioctl(struct events *ev, unsigned long req)
{
	for (size_t i = 0; ev && i < ev->nr; i++)
		if (ioctl(ev->fds[i].fd, req, 0))
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
	for (size_t i = 0; i < ev->nr; i++) {
		if (ev->fds[i].link >= 0)
			close(ev->fds[i].link);
		close(ev->fds[i].fd);
	}
	free(ev->fds);
	free(ev);
}
