// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The side band (sideband.h): per CPU a dummy event with mmap, mmap2,
 * comm, comm_exec and task, a ring of SIDEBAND_PAGES pages and
 * wakeup_watermark 1, so user space wakes for every record (process and
 * mapping changes, never samples) and can open a mapped file while the
 * process still lives. Lost records are counted and reported. Without
 * .build_id (below), what is given up is the build-id of a file never
 * opened (its process gone, its path another file by the time the record
 * is read), which could have found its debug file.
 *
 * Every read takes all rings, sorts what it took by time and hands out
 * what is older than SETTLE_NS at the read's start; younger records wait
 * (the poll timeout shrinks to when they are ready), since an older one
 * may still be half written on another CPU. The final drain hands out
 * everything; --stats counts the records put back in order and any that
 * came too late. A time the clock cannot have (UINT64_MAX) waits for the
 * drain, not in a busy poll loop.
 *
 * sideband__parse walks one ring's records (a data area, a tail and a
 * head, so the fuzzer and the unit test feed it buffers, wrapped or not)
 * and trusts no size: a record of a decoded kind is taken only whole (its
 * fixed part, the time after it, a NUL-terminated name within the record,
 * a mapping whose end does not wrap), else skipped; a size below a
 * header, not a multiple of 8 or past the published bytes ends the walk;
 * nothing past the ring or data_head is read.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "array.h"
#include "events.h"
#include "monotime.h"
#include "sideband.h"

/*
 * How long after its time a record is surely readable in its ring: the
 * kernel takes the time and publishes the record in one stretch with
 * preemption off, microseconds. Records younger than this at the start
 * of a read wait for the next one, so that an older record another CPU
 * is still writing cannot be overtaken.
 */
#define SETTLE_NS 1000000ull

/* What sample_id_all appends to every record: its time (sample_type is TIME alone). */
#define SAMPLE_ID_SIZE sizeof(uint64_t)

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	size_t size; /* bytes of data, a power of 2 */
};

/* A record taken out of its ring, waiting to be handed out in time order. */
struct pending {
	uint64_t time;
	uint64_t seq; /* read order: records of one time keep it */
	size_t off; /* into sideband.buf */
};

struct sideband {
	struct ring *rings;
	size_t nr;
	size_t page;
	uint64_t lost;
	char *copy; /* a record that wraps around the ring's end */
	size_t copy_size;
	/* records read, not yet handed out: copies in buf, each 8-aligned */
	char *buf, *spare;
	size_t buf_len, buf_cap, spare_cap;
	struct pending *q;
	size_t nq, q_cap;
	uint64_t seq;
	uint64_t newest; /* the newest time read so far */
	uint64_t reordered; /* records read after a newer one */
	uint64_t late; /* records older than one already handed out */
	uint64_t handed; /* the time of the last record handed out */
};

struct sb_fork {
	struct perf_event_header hdr;
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct sb_mmap2 {
	struct perf_event_header hdr;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	/* never a build-id: our event does not ask (below) */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

struct sb_comm {
	struct perf_event_header hdr;
	uint32_t pid, tid;
	char comm[];
};

struct sb_lost {
	struct perf_event_header hdr;
	uint64_t id, lost;
};

static int sideband__open_ring(struct sideband *sb, struct ring *r, int cpu,
			       unsigned int pages)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		/*
		 * No .build_id: the kernel would then set
		 * PERF_RECORD_MISC_MMAP_BUILD_ID on the MMAP2 records of every
		 * side-band event iterated after ours (perf record's too), and
		 * perf 6.1 reads their dev/inode as a build-id and aborts. The
		 * dev/inode identify the file; its build-id is read from it.
		 * Another tool's event does the same to ours: the flag on our
		 * records is ignored, their body is always dev/inode.
		 */
		/* every record ends with its time on the monotonic clock */
		.sample_id_all = 1,
		.sample_type = PERF_SAMPLE_TIME,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
		.wakeup_watermark = 1, /* every record: files open while processes live */
	};
	void *base;

	r->fd = events__open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return r->fd;
	r->size = (size_t)pages * sb->page;
	base = mmap(NULL, r->size + sb->page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (base == MAP_FAILED) {
		r->meta = NULL;
		return -errno;
	}
	r->meta = base;
	return 0;
}

struct sideband *sideband__open(const struct idlist *cpus, unsigned int pages)
{
	struct sideband *sb = calloc(1, sizeof(*sb));
	int err = -ENOMEM;

	if (!sb || !(sb->rings = calloc(cpus->nr ? cpus->nr : 1, sizeof(*sb->rings))))
		goto fail;
	sb->page = sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < cpus->nr; i++) {
		sb->rings[i].fd = -1;
		sb->nr++;
		err = sideband__open_ring(sb, &sb->rings[i], cpus->ids[i], pages);
		if (err)
			goto fail;
	}
	return sb;
fail:
	sideband__free(sb);
	errno = -err;
	return NULL;
}

void sideband__free(struct sideband *sb)
{
	if (!sb)
		return;
	for (size_t i = 0; i < sb->nr; i++) {
		if (sb->rings[i].meta)
			munmap(sb->rings[i].meta, sb->rings[i].size + sb->page);
		if (sb->rings[i].fd >= 0)
			close(sb->rings[i].fd);
	}
	free(sb->rings);
	free(sb->copy);
	free(sb->buf);
	free(sb->spare);
	free(sb->q);
	free(sb);
}

size_t sideband__nr_fds(const struct sideband *sb)
{
	return sb->nr;
}

int sideband__fd(const struct sideband *sb, size_t i)
{
	return sb->rings[i].fd;
}

uint64_t sideband__lost(const struct sideband *sb)
{
	return sb->lost;
}

static void sideband__mmap(const struct sb_mmap2 *r, const struct sideband_ops *ops,
			   void *ctx)
{
	struct sb_mmap m = {
		.pid = r->pid, .tid = r->tid,
		.start = r->addr, .len = r->len, .pgoff = r->pgoff,
		.maj = r->maj, .min = r->min, .ino = r->ino,
		.prot = r->prot, .flags = r->flags,
		.filename = r->filename,
	};

	/* PERF_RECORD_MISC_MMAP_BUILD_ID in r->hdr.misc: another tool's, see above */
	ops->mmap(ctx, &m);
}

/*
 * Whether the whole record @h holds together as one of the kinds decoded:
 * its fixed part and the time sample_id_all appends, a string that ends
 * within the record, a mapping whose end does not wrap. Else it is skipped.
 */
static bool sideband__record_valid(const struct perf_event_header *h)
{
	const struct sb_mmap2 *m = (const void *)h;
	const struct sb_comm *c = (const void *)h;
	size_t size = h->size;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		return size >= sizeof(*m) + 1 + SAMPLE_ID_SIZE &&
		       memchr(m->filename, '\0', size - sizeof(*m) - SAMPLE_ID_SIZE) &&
		       m->len && m->len <= UINT64_MAX - m->addr;
	case PERF_RECORD_COMM:
		return size >= sizeof(*c) + 1 + SAMPLE_ID_SIZE &&
		       memchr(c->comm, '\0', size - sizeof(*c) - SAMPLE_ID_SIZE);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return size >= sizeof(struct sb_fork) + SAMPLE_ID_SIZE;
	case PERF_RECORD_LOST:
		return size >= sizeof(struct sb_lost) + SAMPLE_ID_SIZE;
	}
	return false;
}

/* Hand out @h, a record that sideband__record_valid took and that has a process. */
static void sideband__dispatch(const struct perf_event_header *h,
			       const struct sideband_ops *ops, void *ctx)
{
	const struct sb_fork *f = (const void *)h;
	const struct sb_comm *c = (const void *)h;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		sideband__mmap((const void *)h, ops, ctx);
		break;
	case PERF_RECORD_COMM:
		ops->comm(ctx, c->pid, c->tid, c->comm, h->misc & PERF_RECORD_MISC_COMM_EXEC);
		break;
	case PERF_RECORD_FORK:
		ops->fork(ctx, f->ppid, f->pid, f->tid);
		break;
	case PERF_RECORD_EXIT:
		ops->exit(ctx, f->pid, f->tid);
		break;
	}
}

/*
 * The record at stream byte @tail of a ring's data area (@size bytes at
 * @data), of which @avail bytes are published from @tail on; one that
 * wraps around the end is copied so the decoders see it whole. 0,
 * -EBADMSG (a size no record can have: below a header, not a multiple of
 * 8, more than is published) or -ENOMEM.
 */
static int sideband__record(struct sideband *sb, const char *data, size_t size,
			    uint64_t tail, uint64_t avail, const struct perf_event_header **h)
{
	size_t off = tail % size, first = size - off;
	struct perf_event_header hdr;

	if (avail < sizeof(hdr))
		return -EBADMSG;
	if (first >= sizeof(hdr)) {
		memcpy(&hdr, data + off, sizeof(hdr));
	} else {
		memcpy(&hdr, data + off, first);
		memcpy((char *)&hdr + first, data, sizeof(hdr) - first);
	}
	if (hdr.size < sizeof(hdr) || hdr.size % 8 || hdr.size > avail)
		return -EBADMSG;
	if (hdr.size <= first) {
		*h = (const void *)(data + off);
		return 0;
	}
	/* avail <= size: the part after the wrap ends before off */
	if (array__grow((void **)&sb->copy, &sb->copy_size, hdr.size, 1))
		return -ENOMEM;
	memcpy(sb->copy, data + off, first);
	memcpy(sb->copy + first, data, hdr.size - first);
	*h = (const void *)sb->copy;
	return 0;
}

/* The time sample_id_all appends to every record; 0 when it has none. */
static uint64_t sideband__record_time(const struct perf_event_header *h)
{
	uint64_t t;

	if (h->size < sizeof(*h) + sizeof(t))
		return 0;
	memcpy(&t, (const char *)h + h->size - sizeof(t), sizeof(t));
	return t;
}

/* The size of the held record at @p. */
static size_t sideband__record_size(const char *p)
{
	return ((const struct perf_event_header *)p)->size;
}

/* Copy @h into the pending records. */
static int sideband__hold(struct sideband *sb, const struct perf_event_header *h)
{
	uint64_t t = sideband__record_time(h);

	if (array__grow((void **)&sb->buf, &sb->buf_cap, sb->buf_len + h->size, 1) ||
	    array__grow((void **)&sb->q, &sb->q_cap, sb->nq + 1, sizeof(*sb->q)))
		return -ENOMEM;
	memcpy(sb->buf + sb->buf_len, h, h->size);
	sb->q[sb->nq++] = (struct pending){ .time = t, .seq = sb->seq++, .off = sb->buf_len };
	sb->buf_len += h->size;
	if (t < sb->newest)
		sb->reordered++;
	else
		sb->newest = t;
	return 0;
}

int sideband__parse(struct sideband *sb, const void *data, size_t size, uint64_t *tail,
		    uint64_t head)
{
	const struct perf_event_header *h;
	int err = 0;

	/* what the kernel keeps: 8-byte records in 8-byte steps, at most a ring's worth */
	if (!size || size % 8 || *tail % 8 || head - *tail > size)
		*tail = head;
	while (*tail < head) {
		err = sideband__record(sb, data, size, *tail, head - *tail, &h);
		if (err == -ENOMEM)
			return err; /* this record stays for the next read */
		if (err)
			break; /* where the next record starts is unknown: skip the rest */
		if (sideband__record_valid(h) && h->type == PERF_RECORD_LOST)
			sb->lost += ((const struct sb_lost *)h)->lost; /* no process to order */
		else if (sideband__record_valid(h))
			err = sideband__hold(sb, h);
		if (err)
			return err; /* this record stays for the next read */
		*tail += h->size;
	}
	*tail = head;
	return 0;
}

static int sideband__read_ring(struct sideband *sb, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	int err = sideband__parse(sb, (const char *)r->meta + sb->page, r->size, &tail, head);

	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

static int pending__cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Keep the records from @from on, packed at the start of the spare buffer. */
static int sideband__keep(struct sideband *sb, size_t from)
{
	size_t len = 0, cap;
	char *t;

	if (from == sb->nq) {
		sb->nq = sb->buf_len = 0;
		return 0;
	}
	for (size_t i = from; i < sb->nq; i++)
		len += sideband__record_size(sb->buf + sb->q[i].off);
	if (array__grow((void **)&sb->spare, &sb->spare_cap, len, 1)) {
		/* never hand a record out twice: the waiting ones are lost */
		sb->lost += sb->nq - from;
		sb->nq = sb->buf_len = 0;
		return -ENOMEM;
	}
	len = 0;
	for (size_t i = from; i < sb->nq; i++) {
		size_t size = sideband__record_size(sb->buf + sb->q[i].off);

		memcpy(sb->spare + len, sb->buf + sb->q[i].off, size);
		sb->q[i - from] = sb->q[i];
		sb->q[i - from].off = len;
		len += size;
	}
	sb->nq -= from;
	sb->buf_len = len;
	t = sb->buf;
	sb->buf = sb->spare;
	sb->spare = t;
	cap = sb->buf_cap;
	sb->buf_cap = sb->spare_cap;
	sb->spare_cap = cap;
	return 0;
}

/* Read every ring, then hand out in time order the records of @horizon or older. */
static int sideband__order(struct sideband *sb, uint64_t horizon,
			   const struct sideband_ops *ops, void *ctx)
{
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < sb->nr && !err; i++)
		err = sideband__read_ring(sb, &sb->rings[i]);
	if (sb->nq) /* q is NULL until the first record */
		qsort(sb->q, sb->nq, sizeof(*sb->q), pending__cmp);
	for (; n < sb->nq && sb->q[n].time <= horizon; n++) {
		if (sb->q[n].time < sb->handed)
			sb->late++;
		else
			sb->handed = sb->q[n].time;
		sideband__dispatch((const void *)(sb->buf + sb->q[n].off), ops, ctx);
	}
	return sideband__keep(sb, n) ?: err ?: (int)n;
}

int sideband__read(struct sideband *sb, const struct sideband_ops *ops, void *ctx)
{
	uint64_t now = monotime__ns();

	return sideband__order(sb, now > SETTLE_NS ? now - SETTLE_NS : 0, ops, ctx);
}

int sideband__drain(struct sideband *sb, const struct sideband_ops *ops, void *ctx)
{
	return sideband__order(sb, UINT64_MAX, ops, ctx);
}

int sideband__wait_ms(const struct sideband *sb)
{
	uint64_t now = monotime__ns(), time, ready, ms;

	if (!sb->nq)
		return -1;
	time = sb->q[0].time;
	ready = time > UINT64_MAX - SETTLE_NS ? UINT64_MAX : time + SETTLE_NS;
	if (ready <= now)
		return 0;
	ms = (ready - now - 1) / 1000000 + 1;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

uint64_t sideband__reordered(const struct sideband *sb)
{
	return sb->reordered;
}

uint64_t sideband__late(const struct sideband *sb)
{
	return sb->late;
}
