// SPDX-License-Identifier: GPL-2.0-only
/*
 * retarget: what moving a hardware watchpoint to another address costs
 * (issue 15, bpfprof watch), driven by bench/retarget. One write
 * watchpoint (PERF_TYPE_BREAKPOINT, HW_BREAKPOINT_W, 8 bytes, period 1) on
 * this thread watches one of SLOTS globals, with a ring mapped and a BPF
 * perf_event program (r0 = 1; exit) attached, as bpfprof's events have; it
 * is moved to the next global again and again, in alternating blocks, by:
 *
 *   modify  PERF_EVENT_IOC_MODIFY_ATTRIBUTES with the new bp_addr
 *   reopen  munmap + close, perf_event_open, mmap of the ring (1 + 2^n
 *           pages), PERF_EVENT_IOC_SET_BPF, PERF_EVENT_IOC_ENABLE
 *
 * Each move is timed alone (CLOCK_MONOTONIC); one warm-up block of each is
 * not counted. Every Nth move is checked: a write to the old global must not
 * count, a write to the new one must count once (read() of the event).
 * Prints per-operation mean, median and 90th percentile in microseconds,
 * reopen's steps, and the ratios. Exit status: 0, 1 (an error or a failed
 * check: one line on stderr), 64 (usage).
 *
 * usage: retarget [-n MOVES] [-b BLOCK] [-v EVERY] [-p PAGES]
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 16

/* The watched globals: writes through a volatile pointer, never merged. */
static volatile uint64_t retarget_globals[SLOTS];

enum { STEP_CLOSE, STEP_OPEN, STEP_MMAP, STEP_SET_BPF, STEP_ENABLE, STEPS };

static const char *const retarget_step_names[STEPS] = {
	"munmap + close", "perf_event_open", "mmap", "SET_BPF", "enable",
};

struct retarget {
	int prog;		/* the BPF program's fd */
	int fd;			/* the event's */
	void *ring;
	size_t ring_size;
	unsigned int slot;	/* the global it watches */
	struct perf_event_attr attr;
	uint64_t *modify_ns;	/* per timed move */
	uint64_t *reopen_ns;
	uint64_t *step_ns[STEPS];
	char err[256];
};

static uint64_t retarget__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void retarget__attr(struct retarget *r, unsigned int slot)
{
	memset(&r->attr, 0, sizeof(r->attr));
	r->attr.type = PERF_TYPE_BREAKPOINT;
	r->attr.size = sizeof(r->attr);
	r->attr.bp_type = HW_BREAKPOINT_W;
	r->attr.bp_addr = (uintptr_t)&retarget_globals[slot];
	r->attr.bp_len = HW_BREAKPOINT_LEN_8;
	r->attr.sample_period = 1;
	r->attr.sample_type = PERF_SAMPLE_IP;
	r->attr.disabled = 1;
	r->attr.exclude_kernel = 1;
	r->attr.exclude_hv = 1;
}

static int retarget__load(struct retarget *r)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	r->prog = bpf_prog_load(BPF_PROG_TYPE_PERF_EVENT, "retarget", "GPL", insns,
				sizeof(insns) / sizeof(insns[0]), NULL);
	if (r->prog < 0) {
		snprintf(r->err, sizeof(r->err),
			 "cannot load a BPF perf_event program (r0 = 1; exit): %s",
			 strerror(-r->prog));
		return r->prog;
	}
	return 0;
}

static int retarget__fail(struct retarget *r, const char *what)
{
	int err = -errno;

	if (err == -ENOSPC)
		snprintf(r->err, sizeof(r->err),
			 "%s: ENOSPC: the 4 debug registers are in use (by other watchpoints or a debugger)",
			 what);
	else if (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV)
		snprintf(r->err, sizeof(r->err),
			 "%s: %s: no hardware breakpoint support (PERF_TYPE_BREAKPOINT) on this machine",
			 what, strerror(-err));
	else if (err == -EACCES || err == -EPERM)
		snprintf(r->err, sizeof(r->err), "%s: %s: must run as root", what,
			 strerror(-err));
	else
		snprintf(r->err, sizeof(r->err), "%s: %s", what, strerror(-err));
	return err;
}

/* Open, map, attach and enable the event on r->slot; steps timed into t. */
static int retarget__open(struct retarget *r, uint64_t t[STEPS])
{
	uint64_t t0 = retarget__now(), t1;
	void *ring;

	retarget__attr(r, r->slot);
	r->fd = syscall(SYS_perf_event_open, &r->attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return retarget__fail(r, "perf_event_open (breakpoint, write, 8 bytes)");
	t1 = retarget__now();
	t[STEP_OPEN] = t1 - t0;
	ring = mmap(NULL, r->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (ring == MAP_FAILED)
		return retarget__fail(r, "mmap of the event's ring");
	r->ring = ring;
	t0 = retarget__now();
	t[STEP_MMAP] = t0 - t1;
	if (ioctl(r->fd, PERF_EVENT_IOC_SET_BPF, r->prog))
		return retarget__fail(r, "PERF_EVENT_IOC_SET_BPF");
	t1 = retarget__now();
	t[STEP_SET_BPF] = t1 - t0;
	if (ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0))
		return retarget__fail(r, "PERF_EVENT_IOC_ENABLE");
	t[STEP_ENABLE] = retarget__now() - t1;
	return 0;
}

static void retarget__close(struct retarget *r)
{
	if (r->ring)
		munmap(r->ring, r->ring_size);
	r->ring = NULL;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static int retarget__reopen(struct retarget *r, unsigned int slot, uint64_t t[STEPS])
{
	uint64_t t0 = retarget__now();

	retarget__close(r);
	t[STEP_CLOSE] = retarget__now() - t0;
	r->slot = slot;
	return retarget__open(r, t);
}

static int retarget__modify(struct retarget *r, unsigned int slot)
{
	struct perf_event_attr attr = r->attr;

	/*
	 * The kernel copies disabled with the address: an attr that still
	 * says disabled = 1 (as opened) leaves the event disabled.
	 */
	attr.disabled = 0;
	attr.bp_addr = (uintptr_t)&retarget_globals[slot];
	if (ioctl(r->fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr))
		return retarget__fail(r, "PERF_EVENT_IOC_MODIFY_ATTRIBUTES");
	r->attr.bp_addr = attr.bp_addr;
	r->slot = slot;
	return 0;
}

static int retarget__count(struct retarget *r, uint64_t *count)
{
	if (read(r->fd, count, sizeof(*count)) != sizeof(*count))
		return retarget__fail(r, "read of the event's count");
	return 0;
}

/* A write to the old global must not count, one to the new one once. */
static int retarget__verify(struct retarget *r, unsigned int old, const char *how,
			    unsigned long move)
{
	uint64_t c0, c1, c2;
	int err;

	err = retarget__count(r, &c0);
	if (!err) {
		retarget_globals[old]++;
		err = retarget__count(r, &c1);
	}
	if (!err) {
		retarget_globals[r->slot]++;
		err = retarget__count(r, &c2);
	}
	if (err)
		return err;
	if (c1 == c0 && c2 == c0 + 1)
		return 0;
	snprintf(r->err, sizeof(r->err),
		 "move %lu (%s, global %u -> %u): count %" PRIu64 ", %" PRIu64
		 " after a write to the old global, %" PRIu64
		 " after one to the new: expected no change, then one more",
		 move, how, old, r->slot, c0, c1, c2);
	return -EIO;
}

static int retarget__cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct retarget_stats {
	double mean, median, p90;
};

static struct retarget_stats retarget__stats(uint64_t *ns, unsigned long n)
{
	struct retarget_stats s;
	double sum = 0;

	for (unsigned long i = 0; i < n; i++)
		sum += ns[i];
	qsort(ns, n, sizeof(*ns), retarget__cmp);
	s.mean = sum / n / 1000;
	s.median = (n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2.0) / 1000;
	s.p90 = ns[n * 9 / 10] / 1000.0;
	return s;
}

static int retarget__usage(void)
{
	fprintf(stderr, "usage: retarget [-n MOVES] [-b BLOCK] [-v EVERY] [-p PAGES]\n");
	return 64;
}

/* A positive integer up to 100,000,000: 0 or -EINVAL. */
static int retarget__number(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || *v == 0 || *v > 100000000)
		return -EINVAL;
	return 0;
}

static int retarget__run(struct retarget *r, unsigned long n, unsigned long block,
			 unsigned long every)
{
	unsigned long done[2] = { 0, 0 }, moves = 0;
	uint64_t t[STEPS];
	int err;

	err = retarget__open(r, t);
	/* one untimed warm-up block of each, then blocks of each in turn */
	for (unsigned long b = 0; !err && (done[0] < n || done[1] < n); b++) {
		int reopen = b % 2, timed = b >= 2;

		for (unsigned long i = 0; !err && i < block; i++) {
			unsigned int old = r->slot, slot = (old + 1) % SLOTS;
			uint64_t t0;

			if (timed && done[reopen] == n)
				break;
			t0 = retarget__now();
			err = reopen ? retarget__reopen(r, slot, t) : retarget__modify(r, slot);
			t0 = retarget__now() - t0;
			if (err)
				break;
			moves++;
			if (moves % every == 0)
				err = retarget__verify(r, old, reopen ? "reopen" : "modify", moves);
			if (!timed)
				continue;
			if (reopen) {
				for (int s = 0; s < STEPS; s++)
					r->step_ns[s][done[1]] = t[s];
				r->reopen_ns[done[1]++] = t0;
			} else {
				r->modify_ns[done[0]++] = t0;
			}
		}
	}
	return err;
}

static void retarget__print(struct retarget *r, unsigned long n)
{
	struct retarget_stats m = retarget__stats(r->modify_ns, n);
	struct retarget_stats o = retarget__stats(r->reopen_ns, n);

	printf("%-52s %8s %9s %9s %9s\n", "operation", "moves", "mean us", "median us",
	       "p90 us");
	printf("%-52s %8lu %9.2f %9.2f %9.2f\n", "modify: PERF_EVENT_IOC_MODIFY_ATTRIBUTES", n,
	       m.mean, m.median, m.p90);
	printf("%-52s %8lu %9.2f %9.2f %9.2f\n", "reopen: close+open+mmap+SET_BPF+enable", n,
	       o.mean, o.median, o.p90);
	for (int s = 0; s < STEPS; s++) {
		struct retarget_stats x = retarget__stats(r->step_ns[s], n);

		printf("  %-50s %8s %9.2f %9.2f %9.2f\n", retarget_step_names[s], "", x.mean,
		       x.median, x.p90);
	}
	printf("ratio reopen/modify: mean %.1f, median %.1f\n", o.mean / m.mean,
	       o.median / m.median);
}

int main(int argc, char **argv)
{
	unsigned long n = 10000, block = 100, every = 10, pages = 64;
	struct retarget r = { .prog = -1, .fd = -1 };
	int opt, err;

	while ((opt = getopt(argc, argv, "n:b:v:p:h")) != -1) {
		const char *what = opt == 'n' ? "-n (moves of each kind)" :
				   opt == 'b' ? "-b (moves per block)" :
				   opt == 'v' ? "-v (check every Nth move)" :
				   opt == 'p' ? "-p (ring pages)" : NULL;
		unsigned long *v = opt == 'n' ? &n : opt == 'b' ? &block :
				   opt == 'v' ? &every : &pages;

		if (!what)
			return retarget__usage();
		if (retarget__number(optarg, v)) {
			fprintf(stderr, "retarget: %s '%s': expected a positive integer up to 100000000\n",
				what, optarg);
			return 64;
		}
		if (opt == 'p' && (pages & (pages - 1))) {
			fprintf(stderr, "retarget: %s '%s': expected a power of two\n", what, optarg);
			return 64;
		}
	}
	if (optind != argc)
		return retarget__usage();
	if (geteuid() != 0) {
		fprintf(stderr, "retarget: must run as root (perf events on breakpoints, BPF)\n");
		return 1;
	}
	r.ring_size = (1 + pages) * (size_t)sysconf(_SC_PAGESIZE);
	r.modify_ns = calloc(n, sizeof(uint64_t));
	r.reopen_ns = calloc(n, sizeof(uint64_t));
	err = r.modify_ns && r.reopen_ns ? 0 : -ENOMEM;
	for (int s = 0; !err && s < STEPS; s++) {
		r.step_ns[s] = calloc(n, sizeof(uint64_t));
		if (!r.step_ns[s])
			err = -ENOMEM;
	}
	if (err)
		snprintf(r.err, sizeof(r.err), "out of memory for %lu moves", n);
	if (!err)
		err = retarget__load(&r);
	if (!err)
		err = retarget__run(&r, n, block, every);
	retarget__close(&r);
	if (r.prog >= 0)
		close(r.prog);
	if (!err) {
		printf("# %lu moves of each kind (after one warm-up block of each) in alternating blocks of %lu,\n"
		       "# over %d globals; ring 1 + %lu pages; 1 move in %lu checked: OK\n",
		       n, block, SLOTS, pages, every);
		retarget__print(&r, n);
	} else {
		fprintf(stderr, "retarget: %s\n", r.err);
	}
	free(r.modify_ns);
	free(r.reopen_ns);
	for (int s = 0; s < STEPS; s++)
		free(r.step_ns[s]);
	return err ? 1 : 0;
}
