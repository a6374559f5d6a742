// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The side band's record walk (sideband__parse) on hand-made records, as
 * the kernel lays them out (sample_id_all: each ends with its time), in
 * a sideband without rings: every kind handed out in time order, records
 * wrapping around a ring's end, the records that do not hold together
 * skipped without a read past them or past the published bytes, and times
 * the clock cannot have.
 */
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sideband.h"

/* Records built as the kernel writes them. */
struct stream {
	uint8_t buf[1024];
	size_t len;
};

static void stream__put(struct stream *s, const void *p, size_t n)
{
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void stream__u32(struct stream *s, uint32_t v)
{
	stream__put(s, &v, sizeof(v));
}

static void stream__u64(struct stream *s, uint64_t v)
{
	stream__put(s, &v, sizeof(v));
}

static void stream__header(struct stream *s, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	stream__put(s, &h, sizeof(h));
}

/* @name and NULs to the next 8 bytes (none when @pad is false and it fills them). */
static void stream__name(struct stream *s, const char *name, bool pad)
{
	size_t n = strlen(name), room = pad ? (n + 8) / 8 * 8 : (n + 7) / 8 * 8;

	stream__put(s, name, n);
	memset(s->buf + s->len, 0, room - n);
	s->len += room - n;
}

static size_t name__room(const char *name, bool pad)
{
	size_t n = strlen(name);

	return pad ? (n + 8) / 8 * 8 : (n + 7) / 8 * 8;
}

/* FORK or EXIT; @size 0: the kernel's 40 bytes (32 without the time after them). */
static void stream__task(struct stream *s, uint32_t type, uint32_t pid, uint32_t ppid,
			 uint64_t time, uint16_t size)
{
	stream__header(s, type, 0, size ? size : 40);
	stream__u32(s, pid);
	stream__u32(s, ppid);
	stream__u32(s, pid);
	stream__u32(s, ppid);
	stream__u64(s, time);
	if (!size || size >= 40)
		stream__u64(s, time);
}

static void stream__comm(struct stream *s, uint32_t pid, const char *comm, bool exec,
			 bool pad, uint64_t time)
{
	stream__header(s, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		       16 + name__room(comm, pad) + 8);
	stream__u32(s, pid);
	stream__u32(s, pid);
	stream__name(s, comm, pad);
	stream__u64(s, time);
}

/*
 * An MMAP2 of device 8:1 and inode 42 (7 + @leak when @leak: with the
 * build-id flag another tool's event leaves on the records of ours, whose
 * body the kernel still writes as device and inode).
 */
static void stream__mmap2(struct stream *s, uint32_t pid, uint64_t addr, uint64_t len,
			  uint8_t leak, const char *name, bool pad, uint64_t time)
{
	stream__header(s, PERF_RECORD_MMAP2, leak ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0,
		       72 + name__room(name, pad) + 8);
	stream__u32(s, pid);
	stream__u32(s, pid);
	stream__u64(s, addr);
	stream__u64(s, len);
	stream__u64(s, 0x1000); /* pgoff */
	stream__u32(s, 8);
	stream__u32(s, 1);
	stream__u64(s, leak ? 7 + leak : 42);
	stream__u64(s, 0);
	stream__u32(s, 5); /* PROT_READ | PROT_EXEC */
	stream__u32(s, 2); /* MAP_PRIVATE */
	stream__name(s, name, pad);
	stream__u64(s, time);
}

static void stream__lost(struct stream *s, uint64_t n, uint64_t time)
{
	stream__header(s, PERF_RECORD_LOST, 0, 32);
	stream__u64(s, 1);
	stream__u64(s, n);
	stream__u64(s, time);
}

/* What the ops were called with, one line each. */
static char got[4096];

static void got__add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void got__add(const char *fmt, ...)
{
	size_t n = strlen(got);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(got + n, sizeof(got) - n, fmt, ap);
	va_end(ap);
}

static void got__mmap(void *ctx, const struct sb_mmap *m)
{
	(void)ctx;
	got__add("mmap %d %#llx+%#llx %s", m->pid, (unsigned long long)m->start,
		 (unsigned long long)m->len, m->filename);
	got__add(" dev %u:%u ino %llu\n", m->maj, m->min, (unsigned long long)m->ino);
}

static void got__comm(void *ctx, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	(void)ctx;
	(void)tid;
	got__add("%s %d %s\n", exec ? "exec" : "comm", pid, comm);
}

static void got__fork(void *ctx, pid_t ppid, pid_t pid, pid_t tid)
{
	(void)ctx;
	(void)tid;
	got__add("fork %d>%d\n", ppid, pid);
}

static void got__exit(void *ctx, pid_t pid, pid_t tid)
{
	(void)ctx;
	(void)tid;
	got__add("exit %d\n", pid);
}

static const struct sideband_ops got_ops = {
	.mmap = got__mmap, .comm = got__comm, .fork = got__fork, .exit = got__exit,
};

/*
 * Parse @len bytes of the ring @area (@size bytes, a power of 2, malloc'd
 * to the byte so ASan sees a read past it) from stream byte @tail, drain
 * them into got;
 * returns the records counted lost, or -1 when the walk failed.
 */
static long long parse(const uint8_t *area, size_t size, uint64_t tail, size_t len)
{
	struct idlist none = { 0 };
	struct sideband *sb = sideband__open(&none, 1);
	uint8_t *copy = malloc(size);
	uint64_t head = tail + len;
	long long lost = -1;

	got[0] = '\0';
	if (sb && copy) {
		memcpy(copy, area, size);
		if (!sideband__parse(sb, copy, size, &tail, head) && tail == head &&
		    sideband__drain(sb, &got_ops, NULL) >= 0)
			lost = (long long)sideband__lost(sb);
	}
	sideband__free(sb);
	free(copy);
	return lost;
}

static void test_kinds(void)
{
	struct stream s = { 0 };

	stream__task(&s, PERF_RECORD_FORK, 101, 100, 30, 0);
	stream__comm(&s, 101, "worker", true, true, 10);
	stream__mmap2(&s, 101, 0x400000, 0x2000, 0xab, "/usr/bin/a", true, 20);
	stream__lost(&s, 3, 5);
	stream__mmap2(&s, 101, 0x7f0000000000, 0x1000, 0, "/lib/libc.so.6", true, 25);
	stream__comm(&s, 101, "w", false, true, 26);
	stream__task(&s, PERF_RECORD_EXIT, 101, 100, 40, 0);
	stream__header(&s, PERF_RECORD_THROTTLE, 0, 32); /* not decoded */
	stream__u64(&s, 0);
	stream__u64(&s, 0);
	stream__u64(&s, 41);
	CHECK(parse(s.buf, sizeof(s.buf), 0, s.len) == 3, "every kind: LOST counts 3");
	CHECK_STR(got,
		  "exec 101 worker\n"
		  "mmap 101 0x400000+0x2000 /usr/bin/a dev 8:1 ino 178\n"
		  "mmap 101 0x7f0000000000+0x1000 /lib/libc.so.6 dev 8:1 ino 42\n"
		  "comm 101 w\n"
		  "fork 100>101\n"
		  "exit 101\n",
		  "every kind, handed out in time order, THROTTLE skipped, a leaked build-id "
		  "flag ignored");
}

static void test_skipped(void)
{
	struct stream s = { 0 };

	stream__mmap2(&s, 7, 0x1000, 0x1000, 0xcd, "/bin/abc", false, 0x0101010101010101);
	stream__task(&s, PERF_RECORD_FORK, 8, 7, 2, 0);
	parse(s.buf, sizeof(s.buf), 0, s.len);
	CHECK_STR(got, "fork 7>8\n",
		  "an MMAP2 whose file name has no NUL before its time: skipped");

	s.len = 0;
	stream__comm(&s, 7, "abcdefgh", false, false, 0x0101010101010101);
	stream__task(&s, PERF_RECORD_EXIT, 7, 1, 3, 0);
	parse(s.buf, sizeof(s.buf), 0, s.len);
	CHECK_STR(got, "exit 7\n", "a COMM whose name has no NUL before its time: skipped");

	s.len = 0;
	stream__task(&s, PERF_RECORD_FORK, 9, 7, 1, 32);
	stream__task(&s, PERF_RECORD_EXIT, 7, 1, 3, 0);
	parse(s.buf, sizeof(s.buf), 0, s.len);
	CHECK_STR(got, "exit 7\n", "a FORK without room for its time: skipped");

	s.len = 0;
	stream__header(&s, PERF_RECORD_MMAP2, 0, 80); /* no room for a name and a time */
	memset(s.buf + s.len, 0x41, 72);
	s.len += 72;
	stream__task(&s, PERF_RECORD_EXIT, 7, 1, 3, 0);
	parse(s.buf, sizeof(s.buf), 0, s.len);
	CHECK_STR(got, "exit 7\n", "an MMAP2 shorter than its fixed part and time: skipped");

	s.len = 0;
	stream__mmap2(&s, 7, 0xffffffffffff0000, 0x20000, 0, "/x", true, 1);
	stream__mmap2(&s, 7, 0x1000, 0, 0, "/y", true, 2);
	stream__task(&s, PERF_RECORD_EXIT, 7, 1, 3, 0);
	parse(s.buf, sizeof(s.buf), 0, s.len);
	CHECK_STR(got, "exit 7\n", "an MMAP2 whose end wraps, one of length 0: skipped");
}

static void test_sizes(void)
{
	struct stream s = { 0 };
	uint8_t area[256] = { 0 };

	/* the bytes past head are there, and look like the rest of a FORK */
	stream__task(&s, PERF_RECORD_FORK, 8, 7, 1, 0);
	((struct perf_event_header *)s.buf)->size = 80;
	memcpy(area, s.buf, s.len);
	CHECK(parse(area, sizeof(area), 0, 40) == 0 && !got[0],
	      "a record that ends past the published bytes: not read");

	s.len = 0;
	stream__task(&s, PERF_RECORD_FORK, 8, 7, 1, 0);
	((struct perf_event_header *)s.buf)->size = 44;
	stream__task(&s, PERF_RECORD_EXIT, 8, 7, 2, 0);
	CHECK(parse(s.buf, sizeof(s.buf), 0, s.len) == 0 && !got[0],
	      "a size not a multiple of 8: the rest skipped");

	s.len = 0;
	stream__task(&s, PERF_RECORD_FORK, 8, 7, 1, 0);
	((struct perf_event_header *)s.buf)->size = 4;
	CHECK(parse(s.buf, sizeof(s.buf), 0, s.len) == 0 && !got[0],
	      "a size below a header: the rest skipped");

	/* a FORK whose header claims 64 KiB, wrapping around a 256-byte ring */
	memset(area, 0, sizeof(area));
	s.len = 0;
	stream__task(&s, PERF_RECORD_FORK, 8, 7, 1, 0);
	((struct perf_event_header *)s.buf)->size = 65528;
	memcpy(area + 248, s.buf, 8);
	memcpy(area, s.buf + 8, s.len - 8);
	CHECK(parse(area, sizeof(area), 248, 256) == 0 && !got[0],
	      "a size larger than the ring: no read past it");
}

/* A stream laid in a 512-byte ring at every 8-byte offset. */
static void test_wrap(void)
{
	struct stream s = { 0 };
	uint8_t area[512];
	char want[sizeof(got)];
	size_t bad = 0, n;

	stream__task(&s, PERF_RECORD_FORK, 101, 100, 30, 0);
	stream__comm(&s, 101, "a-long-comm-name", true, true, 10);
	stream__mmap2(&s, 101, 0x400000, 0x2000, 0xab, "/usr/lib/x86_64-linux-gnu/libz.so.1",
		      true, 20);
	stream__lost(&s, 2, 5);
	stream__task(&s, PERF_RECORD_EXIT, 101, 100, 40, 0);
	n = s.len;
	parse(s.buf, sizeof(s.buf), 0, n);
	snprintf(want, sizeof(want), "%s", got);
	for (size_t k = 0; k < sizeof(area); k += 8) {
		memset(area, 0, sizeof(area));
		for (size_t i = 0; i < n; i++)
			area[(k + i) % sizeof(area)] = s.buf[i];
		/* the counters of a ring that went round many times */
		bad += parse(area, sizeof(area), 1000 * sizeof(area) + k, n) != 2 ||
		       strcmp(got, want);
	}
	CHECK(bad == 0 && strstr(want, "libz.so.1"),
	      "wrapping around the ring's end at any of %zu offsets: the same records",
	      sizeof(area) / 8);
}

/* Times the clock cannot have: waited for by the poll loop, not spun on, and drained. */
static void test_times(void)
{
	struct stream s = { 0 };
	struct idlist none = { 0 };
	struct sideband *sb = sideband__open(&none, 1);
	uint64_t tail = 0;
	int wait = 0;
	bool ok;

	stream__task(&s, PERF_RECORD_FORK, 8, 7, UINT64_MAX - 1000, 0);
	stream__task(&s, PERF_RECORD_EXIT, 8, 7, UINT64_MAX, 0);
	got[0] = '\0';
	ok = sb && !sideband__parse(sb, s.buf, sizeof(s.buf), &tail, s.len) &&
	     sideband__read(sb, &got_ops, NULL) == 0;
	if (ok)
		wait = sideband__wait_ms(sb);
	CHECK(ok && wait > 1000 * 1000 && !got[0],
	      "records of times far ahead: held, the poll loop told to wait (%d ms)", wait);
	ok = ok && sideband__drain(sb, &got_ops, NULL) == 2 && sideband__wait_ms(sb) == -1;
	CHECK(ok, "and handed out by the drain, the last possible time too");
	CHECK_STR(got, "fork 7>8\nexit 8\n", "in time order");
	sideband__free(sb);
}

int main(void)
{
	test_kinds();
	test_skipped();
	test_sizes();
	test_wrap();
	test_times();
	return check_done();
}
