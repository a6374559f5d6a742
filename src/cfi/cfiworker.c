// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One thread building unwind tables; jobs in, results out, an eventfd between. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "cficache.h"
#include "cfiworker.h"
#include "monotime.h"

struct cfi_job {
	struct cfi_job *next;
	int fd;            /* the file, or -1: the image */
	const void *image;
	size_t size;
	struct cfi_result r;
};

/* A FIFO of jobs. */
struct cfi_queue {
	struct cfi_job *head, **tail;
};

struct cfi_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct cfi_queue todo, done; /* under lock */
	bool stop;                   /* under lock */
	size_t pending;              /* submitted, not taken: the event loop's own */
	int efd;
	char *cache_dir;
};

static void queue__push(struct cfi_queue *q, struct cfi_job *j)
{
	j->next = NULL;
	*q->tail = j;
	q->tail = &j->next;
}

static struct cfi_job *queue__pop(struct cfi_queue *q)
{
	struct cfi_job *j = q->head;

	if (j) {
		q->head = j->next;
		if (!q->head)
			q->tail = &q->head;
	}
	return j;
}

static void queue__free(struct cfi_queue *q)
{
	struct cfi_job *j;

	while ((j = queue__pop(q))) {
		if (j->fd >= 0)
			close(j->fd);
		cfi_table__free(j->r.table);
		free(j);
	}
}

static void *cfi_worker__main(void *arg)
{
	struct cfi_worker *w = arg;
	uint64_t one = 1, t0;
	struct cfi_job *j;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->stop && !w->todo.head)
			pthread_cond_wait(&w->cond, &w->lock);
		j = w->stop ? NULL : queue__pop(&w->todo);
		pthread_mutex_unlock(&w->lock);
		if (!j)
			return NULL;
		t0 = monotime__ns();
		if (j->fd >= 0)
			j->r.table = cficache__get(w->cache_dir, j->fd, -1, &j->r.cached);
		else
			j->r.table = cfi_table__build_mem(j->image, j->size);
		j->r.err = j->r.table ? 0 : errno ?: EIO;
		j->r.build_ns = monotime__ns() - t0;
		if (j->fd >= 0)
			close(j->fd);
		j->fd = -1;
		pthread_mutex_lock(&w->lock);
		queue__push(&w->done, j);
		/* under the lock: take() drains it only when done is empty */
		(void)!write(w->efd, &one, sizeof(one));
		pthread_mutex_unlock(&w->lock);
	}
}

struct cfi_worker *cfi_worker__new(const char *cache_dir)
{
	struct cfi_worker *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return NULL;
	w->todo.tail = &w->todo.head;
	w->done.tail = &w->done.head;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	w->cache_dir = cache_dir ? strdup(cache_dir) : NULL;
	if (w->efd < 0 || (cache_dir && !w->cache_dir)) {
		err = w->efd < 0 ? errno : ENOMEM;
		goto fail;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	err = pthread_create(&w->thread, NULL, cfi_worker__main, w);
	if (!err)
		return w;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
fail:
	if (w->efd >= 0)
		close(w->efd);
	free(w->cache_dir);
	free(w);
	errno = err;
	return NULL;
}

void cfi_worker__free(struct cfi_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	queue__free(&w->todo);
	queue__free(&w->done);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	close(w->efd);
	free(w->cache_dir);
	free(w);
}

static void cfi_worker__queue(struct cfi_worker *w, struct cfi_job *j)
{
	pthread_mutex_lock(&w->lock);
	queue__push(&w->todo, j);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	w->pending++;
}

int cfi_worker__submit(struct cfi_worker *w, unsigned int id, int fd)
{
	struct cfi_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (j->fd < 0) {
		free(j);
		return -errno;
	}
	j->r.id = id;
	cfi_worker__queue(w, j);
	return 0;
}

int cfi_worker__submit_image(struct cfi_worker *w, unsigned int id, const void *image,
			     size_t size)
{
	struct cfi_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->fd = -1;
	j->image = image;
	j->size = size;
	j->r.id = id;
	cfi_worker__queue(w, j);
	return 0;
}

int cfi_worker__fd(const struct cfi_worker *w)
{
	return w->efd;
}

int cfi_worker__take(struct cfi_worker *w, struct cfi_result *r)
{
	uint64_t n;
	struct cfi_job *j;

	pthread_mutex_lock(&w->lock);
	j = queue__pop(&w->done);
	if (!w->done.head)
		(void)!read(w->efd, &n, sizeof(n)); /* drained: not readable until the next */
	pthread_mutex_unlock(&w->lock);
	if (!j)
		return -EAGAIN;
	*r = j->r;
	free(j);
	w->pending--;
	return 0;
}

size_t cfi_worker__pending(const struct cfi_worker *w)
{
	return w->pending;
}
