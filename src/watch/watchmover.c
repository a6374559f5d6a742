// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `bpfprof watch`: the turns of the breakpoint slots, moved on a thread of their own. */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "monotime.h"
#include "watchmover.h"

struct watch_mover {
	struct watch_fd *fds;     /* the caller's */
	size_t nr_fds;
	const struct watch_set *ws;
	struct watch_rotation rot;
	size_t *to;               /* [slot]: where the turn moves it */
	int timerfd, stopfd, failfd;
	pthread_t thread;
	bool running;
	uint64_t moves, move_ns;
	char why[512];            /* the failed move */
};

/*
 * Slot @slot of every thread (or CPU) to location @w, at its address in
 * each event's process; the kernel applies it to the inherited copies
 * too. Every address is in watch_locs since the start. 0 or -errno (why).
 */
static int watch_mover__move(struct watch_mover *m, unsigned int slot, const struct watch *w)
{
	uint64_t t0 = monotime__ns(), now;

	for (size_t i = 0; i < m->nr_fds; i++) {
		struct watch_fd *f = &m->fds[i];
		const struct watch_place *at;
		struct perf_event_attr a;

		if (f->slot != slot)
			continue;
		at = watch_set__place(w, f->tgid);
		if (!at) {
			snprintf(m->why, sizeof(m->why), "location '%s' has no address in "
				 "process %d", w->name, f->tgid);
			return -ENOENT;
		}
		a = f->attr;
		a.bp_addr = at->addr;
		a.bp_len = w->len;
		a.sig_data = w->index; /* --trap's si_perf_data follows the location */
		a.disabled = 0;        /* the kernel copies it: 1 would leave the event off */
		if (ioctl(f->fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a)) {
			int err = -errno;

			snprintf(m->why, sizeof(m->why), "cannot move a breakpoint to location "
				 "'%s' (0x%" PRIx64 "): %s", w->name, at->addr, strerror(-err));
			return err;
		}
		f->attr = a;
		m->moves++;
	}
	now = monotime__ns();
	m->move_ns += now - t0;
	watch_rotation__move(&m->rot, slot, w->index, now);
	return 0;
}

/* Each turn as its timer expires, until stopped or a move fails. */
static void *watch_mover__run(void *arg)
{
	struct watch_mover *m = arg;
	struct pollfd pfd[2] = { { .fd = m->timerfd, .events = POLLIN },
				 { .fd = m->stopfd, .events = POLLIN } };
	uint64_t ticks, one = 1;
	int err = 0;

	while (!err) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			snprintf(m->why, sizeof(m->why), "cannot wait for the next turn: %s",
				 strerror(errno));
			break;
		}
		if (pfd[1].revents)
			return NULL;
		if (read(m->timerfd, &ticks, sizeof(ticks)) < 0)
			continue;
		watch_rotation__plan(&m->rot, m->to);
		for (unsigned int s = 0; s < m->rot.nr_slots && !err; s++)
			if (m->to[s] != m->rot.at[s])
				err = watch_mover__move(m, s, &m->ws->w[m->to[s]]);
	}
	if (write(m->failfd, &one, sizeof(one)) < 0)
		return NULL; /* an eventfd write does not fail */
	return NULL;
}

int watch_mover__start(struct watch_mover **out, struct watch_fd *fds, size_t nr_fds,
		       const struct watch_set *ws, unsigned int nr_slots, unsigned int ms,
		       uint64_t t0)
{
	struct watch_mover *m = calloc(1, sizeof(*m));
	uint64_t ns = (uint64_t)ms * 1000000;
	struct itimerspec its = { .it_interval = { ns / 1000000000, ns % 1000000000 },
				  .it_value = { ns / 1000000000, ns % 1000000000 } };
	int err;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->fds = fds;
	m->nr_fds = nr_fds;
	m->ws = ws;
	m->stopfd = m->failfd = -1;
	m->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	err = m->timerfd < 0 ? -errno : 0;
	if (!err && (m->stopfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		err = -errno;
	if (!err && (m->failfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		err = -errno;
	err = err ?: watch_rotation__init(&m->rot, ws->nr, nr_slots, t0);
	if (!err && !(m->to = calloc(nr_slots, sizeof(*m->to))))
		err = -ENOMEM;
	if (!err && timerfd_settime(m->timerfd, 0, &its, NULL))
		err = -errno;
	/* the thread keeps the signal mask: every signal is the poll loop's */
	err = err ?: -pthread_create(&m->thread, NULL, watch_mover__run, m);
	if (err) {
		watch_mover__free(m);
		return err;
	}
	m->running = true;
	*out = m;
	return 0;
}

int watch_mover__fd(const struct watch_mover *m)
{
	return m ? m->failfd : -1;
}

const char *watch_mover__error(const struct watch_mover *m)
{
	return m->why;
}

void watch_mover__stop(struct watch_mover *m, uint64_t now)
{
	uint64_t one = 1;

	if (!m || !m->running)
		return;
	if (write(m->stopfd, &one, sizeof(one)) == sizeof(one))
		pthread_join(m->thread, NULL);
	m->running = false;
	watch_rotation__stop(&m->rot, now);
}

const struct watch_rotation *watch_mover__rotation(const struct watch_mover *m)
{
	return &m->rot;
}

void watch_mover__cost(const struct watch_mover *m, uint64_t *moves, uint64_t *ns)
{
	*moves = m->moves;
	*ns = m->move_ns;
}

void watch_mover__free(struct watch_mover *m)
{
	if (!m)
		return;
	watch_mover__stop(m, monotime__ns());
	if (m->timerfd >= 0)
		close(m->timerfd);
	if (m->stopfd >= 0)
		close(m->stopfd);
	if (m->failfd >= 0)
		close(m->failfd);
	watch_rotation__free(&m->rot);
	free(m->to);
	free(m);
}
