// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "events.h"
#include "sideband.h"

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	size_t size; /* bytes of data, a power of 2 */
};

struct sideband {
	struct ring *rings;
	size_t nr;
	size_t page;
	uint64_t lost;
	char *copy; /* a record that wraps around the ring's end */
	size_t copy_size;
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
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size;
			uint8_t reserved1;
			uint16_t reserved2;
			uint8_t build_id[20];
		};
	};
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
		.build_id = 1,
		.watermark = 1,
		.wakeup_watermark = 1, /* every record: files open while processes live */
	};
	void *base;

	r->fd = perf_event__open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
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
		.prot = r->prot, .flags = r->flags,
		.filename = r->filename,
	};

	if (r->hdr.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m.build_id = r->build_id;
		m.build_id_len = r->build_id_size > 20 ? 20 : r->build_id_size;
	} else {
		m.maj = r->maj;
		m.min = r->min;
		m.ino = r->ino;
	}
	ops->mmap(ctx, &m);
}

static void sideband__dispatch(struct sideband *sb, const struct perf_event_header *h,
			       const struct sideband_ops *ops, void *ctx)
{
	const struct sb_fork *f = (const void *)h;
	const struct sb_comm *c = (const void *)h;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		if (h->size > sizeof(struct sb_mmap2))
			sideband__mmap((const void *)h, ops, ctx);
		break;
	case PERF_RECORD_COMM:
		if (h->size > sizeof(*c))
			ops->comm(ctx, c->pid, c->tid, c->comm,
				  h->misc & PERF_RECORD_MISC_COMM_EXEC);
		break;
	case PERF_RECORD_FORK:
		if (h->size >= sizeof(*f))
			ops->fork(ctx, f->ppid, f->pid, f->tid);
		break;
	case PERF_RECORD_EXIT:
		if (h->size >= sizeof(*f))
			ops->exit(ctx, f->pid, f->tid);
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(struct sb_lost))
			sb->lost += ((const struct sb_lost *)h)->lost;
		break;
	}
}

/* A record that wraps is copied so the decoders see it whole. */
static const struct perf_event_header *sideband__record(struct sideband *sb, struct ring *r,
							 uint64_t tail)
{
	const char *data = (const char *)r->meta + sb->page;
	size_t off = tail & (r->size - 1), first;
	const struct perf_event_header *h = (const void *)(data + off);
	struct perf_event_header hdr;

	if (off + sizeof(hdr) <= r->size && off + h->size <= r->size)
		return h;
	first = r->size - off;
	if (first >= sizeof(hdr)) {
		memcpy(&hdr, data + off, sizeof(hdr));
	} else {
		memcpy(&hdr, data + off, first);
		memcpy((char *)&hdr + first, data, sizeof(hdr) - first);
	}
	if (hdr.size > sb->copy_size) {
		char *p = realloc(sb->copy, hdr.size + 1);

		if (!p)
			return NULL;
		sb->copy = p;
		sb->copy_size = hdr.size;
	}
	memcpy(sb->copy, data + off, first);
	memcpy(sb->copy + first, data, hdr.size - first);
	sb->copy[hdr.size] = '\0';
	return (const void *)sb->copy;
}

static int sideband__read_ring(struct sideband *sb, struct ring *r,
			       const struct sideband_ops *ops, void *ctx)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	int n = 0;

	while (tail < head) {
		const struct perf_event_header *h = sideband__record(sb, r, tail);

		if (!h)
			return -ENOMEM;
		if (h->size < sizeof(*h))
			break; /* corrupt: skip the rest rather than loop */
		sideband__dispatch(sb, h, ops, ctx);
		tail += h->size;
		n++;
	}
	__atomic_store_n(&r->meta->data_tail, head, __ATOMIC_RELEASE);
	return n;
}

int sideband__read(struct sideband *sb, const struct sideband_ops *ops, void *ctx)
{
	int total = 0;

	for (size_t i = 0; i < sb->nr; i++) {
		int n = sideband__read_ring(sb, &sb->rings[i], ops, ctx);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}
