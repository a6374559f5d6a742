// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The side band's record walk (sideband__parse) and what hands the records
 * out (sideband__read, __drain): the input is a stream of perf records, read
 * twice by sideband objects without rings. Once as a plain buffer, handed
 * out in two steps (read: those older than a millisecond ago, then drain);
 * once from a ring that holds it wrapped around its end at an offset the
 * input chooses, drained at once. Both must hand out the same records in
 * the same order, each whole (strings end within the input, mappings do
 * not wrap), and none twice.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sideband.h"

/* The smallest record handed out or counted: a COMM of an empty name. */
#define MIN_RECORD 32

struct seen {
	size_t size; /* of the stream */
	size_t records;
	uint64_t hash; /* of every call and its arguments, in order */
};

static void seen__add(struct seen *s, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		s->hash = (s->hash ^ b[i]) * 0x100000001b3ull;
}

static void seen__mmap(void *ctx, const struct sb_mmap *m)
{
	struct seen *s = ctx;
	size_t n = strlen(m->filename);

	assert(n < s->size);
	assert(m->len && m->start + m->len > m->start);
	s->records++;
	seen__add(s, "m", 1);
	seen__add(s, &m->pid, sizeof(m->pid));
	seen__add(s, &m->tid, sizeof(m->tid));
	seen__add(s, &m->start, sizeof(m->start));
	seen__add(s, &m->len, sizeof(m->len));
	seen__add(s, &m->pgoff, sizeof(m->pgoff));
	seen__add(s, &m->ino, sizeof(m->ino));
	seen__add(s, m->filename, n);
}

static void seen__comm(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	struct seen *s = ctx;
	size_t n = strlen(comm);

	assert(n < s->size);
	s->records++;
	seen__add(s, exec ? "e" : "c", 1);
	seen__add(s, &pid, sizeof(pid));
	seen__add(s, &tid, sizeof(tid));
	seen__add(s, comm, n);
}

static void seen__fork(void *ctx, pid_t ppid, pid_t pid, pid_t tid)
{
	struct seen *s = ctx;

	s->records++;
	seen__add(s, "f", 1);
	seen__add(s, &ppid, sizeof(ppid));
	seen__add(s, &pid, sizeof(pid));
	seen__add(s, &tid, sizeof(tid));
}

static void seen__exit(void *ctx, pid_t pid, pid_t tid)
{
	struct seen *s = ctx;

	s->records++;
	seen__add(s, "x", 1);
	seen__add(s, &pid, sizeof(pid));
	seen__add(s, &tid, sizeof(tid));
}

static const struct sideband_ops seen_ops = {
	.mmap = seen__mmap,
	.comm = seen__comm,
	.fork = seen__fork,
	.exit = seen__exit,
};

/*
 * Take the @size bytes at @data as a ring's data area holding the stream
 * from *@tail, hand them out into @s; returns the records counted lost.
 */
static uint64_t seen__run(struct seen *s, const void *data, size_t size, uint64_t tail,
			  bool in_two_steps)
{
	struct idlist none = { 0 };
	struct sideband *sb = sideband__open(&none, 1);
	uint64_t head = tail + size, lost;

	assert(sb);
	assert(sideband__parse(sb, data, size, &tail, head) == 0 && tail == head);
	if (in_two_steps) {
		assert(sideband__read(sb, &seen_ops, s) >= 0);
		assert(sideband__wait_ms(sb) >= -1);
	}
	assert(sideband__drain(sb, &seen_ops, s) >= 0);
	assert(sideband__wait_ms(sb) == -1);
	lost = sideband__lost(sb);
	sideband__free(sb);
	return lost;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = size / 8 * 8, k;
	struct seen plain = { .size = n }, wrapped = { .size = n };
	uint64_t lost;
	uint8_t *buf, *ring;

	if (!n)
		return 0;
	buf = malloc(n);
	ring = malloc(n);
	assert(buf && ring);
	memcpy(buf, data, n);
	/* the ring's own bytes: the stream from offset k on, wrapping at its end */
	k = size > n ? data[n] % (n / 8) * 8 : 0;
	memcpy(ring + k, data, n - k);
	memcpy(ring, data + n - k, k);

	lost = seen__run(&plain, buf, n, 0, true);
	/* a tail many rings on, as a long-lived ring's counters are */
	assert(seen__run(&wrapped, ring, n, 5 * (uint64_t)n + k, false) == lost);
	assert(plain.records == wrapped.records && plain.hash == wrapped.hash);
	assert(plain.records * MIN_RECORD <= n);
	free(buf);
	free(ring);
	return 0;
}
