// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * watchme MODE N: known accesses to globals, for bpfprof watch
 * (tests/watch.bats). Breakpoints count every access, so the counts are
 * exact and the tests compare with these numbers:
 *
 *   basic: N rounds, each: bump_one() writes counter once, bump_three()
 *          three times (1:3); reader() reads read_me (never written);
 *          take(i % 5) is called (rdi = i % 5); seven = i % 10 (the value 7
 *          written N / 10 times); tick = i + 1 (each value 1..N once), then
 *          peek_tick() reads it.
 *   late:  a thread created now writes counter N times (late_thread), then
 *          a forked child writes it N times (late_child).
 *   wait:  waits for SIGUSR1, then does what late does.
 *   getenv: waits for SIGUSR1, then calls getenv N times (libc reads its
 *          __environ).
 *   traprotate: rotate, with a SIGTRAP handler that checks each trap's
 *          si_addr (the element) against its si_perf_data (the location
 *          index: ring[i] is location i); at the end "traps T wrong W".
 *   dlopen: a SIGTRAP handler counts traps; libwatchlate.so (next to
 *          watchme) is loaded with dlopen, then late_bump() writes its
 *          late_counter until the first trap (10 s at most: else exit 1),
 *          then N times more; at the end "traps T" on stdout (a watch with
 *          --trap sees N + 1 writes of late_bump, however late it set the
 *          breakpoint; or N, when ld.so's zeroing of the library's .bss
 *          trapped first, the breakpoint set before dlopen returned).
 *   dlwait: waits for SIGUSR1, loads libwatchlate.so, then late_bump()
 *          writes late_counter for N milliseconds.
 *   kwrite: N reads of 8 bytes from /dev/zero into spare: the kernel
 *          writes it (a breakpoint that traps in the kernel).
 *   trap:  a SIGTRAP handler (SA_SIGINFO) counts the traps it gets, then
 *          trap_write(i % 10) writes trapme N times; at the end one line
 *          on stdout: "traps T perf C writer W data D values V,...": C of
 *          them with si_code TRAP_PERF, W with the ip in trap_write (the
 *          instruction after the write), D the si_perf_data of the last,
 *          V the values trapme held at the traps, each once, ascending.
 *   rotate: for N milliseconds, rounds in which each element i of ring[16]
 *          is written i % 4 + 1 times (1, 2, 3, 4, 1, 2, ...), by a thread
 *          created now (it inherits the command's breakpoints, so a watch
 *          that moves them must move its copies too). Four consecutive
 *          elements from a multiple of 4 take 10 writes a round, whichever
 *          they are: watched 4 at a time, the round's pace is the same in
 *          every turn, and each element's rate is its weight.
 *
 * The lines of the writing statements are marked "LINE:name" for the tests.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef TRAP_PERF
#define TRAP_PERF 6 /* si_code of a perf event's SIGTRAP (Linux 5.13) */
#endif

volatile int counter;
volatile long read_me = 42;
volatile int seven;
volatile long tick;
volatile long spare;
volatile long wide[2];
volatile int trapme;
volatile int ring[16];
long sink;

__attribute__((noinline)) void bump_one(void)
{
	counter++; /* LINE:bump_one */
}

__attribute__((noinline)) void bump_three(void)
{
	counter++; /* LINE:bump_three */
}

__attribute__((noinline)) long reader(void)
{
	return read_me; /* LINE:reader */
}

__attribute__((noinline)) long peek_tick(void)
{
	return tick; /* LINE:peek_tick */
}

__attribute__((noinline)) void take(long a)
{
	sink += a;
}

static void basic(long n)
{
	for (long i = 0; i < n; i++) {
		bump_one();
		for (int j = 0; j < 3; j++)
			bump_three();
		sink += reader();
		take(i % 5);
		seven = i % 10;
		tick = i + 1;
		sink += peek_tick();
	}
}

static long late_n;

__attribute__((noinline)) void late_write(void)
{
	counter++; /* LINE:late_write */
}

static void *late_thread(void *arg)
{
	(void)arg;
	for (long i = 0; i < late_n; i++)
		late_write();
	return NULL;
}

__attribute__((noinline)) void late_child(void)
{
	for (long i = 0; i < late_n; i++)
		late_write();
}

static void late(long n)
{
	pthread_t t;
	pid_t pid;

	late_n = n;
	if (pthread_create(&t, NULL, late_thread, NULL))
		exit(1);
	pthread_join(t, NULL);
	pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0) {
		late_child();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void kwrite(long n)
{
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		exit(1);
	for (long i = 0; i < n; i++)
		if (read(fd, (void *)&spare, sizeof(spare)) != sizeof(spare))
			exit(1);
	close(fd);
}

__attribute__((noinline)) void trap_write(int v)
{
	trapme = v; /* LINE:trap_write */
}

static volatile sig_atomic_t traps, perf_traps, writer_traps;
static volatile unsigned long last_data;
static volatile unsigned int trapped_values; /* bit v: trapme was v at a trap */

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;
	uintptr_t ip = uc->uc_mcontext.gregs[REG_RIP];

	(void)sig;
	traps++;
	perf_traps += si->si_code == TRAP_PERF;
	/* data breakpoints trap after the access: the ip is still in trap_write */
	writer_traps += ip - (uintptr_t)trap_write < 64;
	/* si_perf_data: the word after si_addr in the kernel's siginfo (glibc 2.36 names none) */
	last_data = *(const unsigned long *)((const char *)&si->si_addr + sizeof(void *));
	if (trapme >= 0 && trapme < 10)
		trapped_values |= 1u << trapme;
}

static void trap(long n)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };
	const char *sep = "";

	if (sigaction(SIGTRAP, &sa, NULL))
		exit(1);
	for (long i = 0; i < n; i++)
		trap_write((int)(i % 10));
	printf("traps %d perf %d writer %d data %lu values ", (int)traps, (int)perf_traps,
	       (int)writer_traps, last_data);
	for (int v = 0; v < 10; v++) {
		if (trapped_values & 1u << v) {
			printf("%s%d", sep, v);
			sep = ",";
		}
	}
	printf("\n");
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *rotate_thread(void *arg)
{
	uint64_t end = now_ms() + (uint64_t)*(long *)arg;

	while (now_ms() < end)
		for (int i = 0; i < 16; i++)
			for (int k = 0; k <= i % 4; k++)
				ring[i] = k; /* LINE:rotate */
	return NULL;
}

static void rotate(long ms)
{
	pthread_t t;

	if (pthread_create(&t, NULL, rotate_thread, &ms))
		exit(1);
	pthread_join(t, NULL);
}

static volatile sig_atomic_t rot_traps, rot_wrong;

/*
 * A trap of a breakpoint that takes turns: si_addr is the element it was
 * on, si_perf_data the index of the location it held then (ring[i] is
 * location i when ring:4*16 is the only argument): they must agree.
 */
static void on_rotate_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long data = *(const unsigned long *)((const char *)&si->si_addr + sizeof(void *));
	uintptr_t off = (uintptr_t)si->si_addr - (uintptr_t)ring;

	(void)sig;
	(void)uc;
	rot_traps++;
	rot_wrong += si->si_code != TRAP_PERF || off % sizeof(ring[0]) ||
		     off / sizeof(ring[0]) != data;
}

static void trap_rotate(long ms)
{
	struct sigaction sa = { .sa_sigaction = on_rotate_trap, .sa_flags = SA_SIGINFO };

	if (sigaction(SIGTRAP, &sa, NULL))
		exit(1);
	rotate(ms);
	printf("traps %d wrong %d\n", (int)rot_traps, (int)rot_wrong);
}

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

/* late_bump of libwatchlate.so, next to this executable, loaded now */
static void (*late_load(void))(void)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;
	void *h, *f;

	if (n <= 0)
		exit(1);
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "libwatchlate.so");
	h = dlopen(path, RTLD_NOW);
	f = h ? dlsym(h, "late_bump") : NULL;
	if (!f) {
		fprintf(stderr, "watchme: %s\n", dlerror());
		exit(1);
	}
	return (void (*)(void))f;
}

static volatile sig_atomic_t late_traps;

static void on_late_trap(int sig)
{
	(void)sig;
	late_traps++;
}

static void late_dlopen(long n)
{
	void (*bump)(void);
	uint64_t end;

	signal(SIGTRAP, on_late_trap);
	bump = late_load();
	end = now_ms() + 10000;
	while (!late_traps && now_ms() < end)
		bump();
	if (!late_traps) {
		fprintf(stderr, "watchme: no trap in 10 s\n");
		exit(1);
	}
	for (long i = 0; i < n; i++)
		bump();
	printf("traps %d\n", (int)late_traps);
}

static void late_wait(long ms)
{
	void (*bump)(void);
	sigset_t none;
	uint64_t end;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&none);
	while (!go)
		sigsuspend(&none);
	bump = late_load();
	end = now_ms() + (uint64_t)ms;
	while (now_ms() < end)
		for (int i = 0; i < 100; i++)
			bump();
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000;

	if (argc > 1 && !strcmp(argv[1], "kwrite")) {
		kwrite(n);
	} else if (argc > 1 && !strcmp(argv[1], "trap")) {
		trap(n);
	} else if (argc > 1 && !strcmp(argv[1], "rotate")) {
		rotate(n);
	} else if (argc > 1 && !strcmp(argv[1], "traprotate")) {
		trap_rotate(n);
	} else if (argc > 1 && !strcmp(argv[1], "dlopen")) {
		late_dlopen(n);
	} else if (argc > 1 && !strcmp(argv[1], "dlwait")) {
		late_wait(n);
	} else if (argc > 1 && !strcmp(argv[1], "late")) {
		late(n);
	} else if (argc > 1 && !strcmp(argv[1], "getenv")) {
		sigset_t none;

		signal(SIGUSR1, on_usr1);
		sigemptyset(&none);
		while (!go)
			sigsuspend(&none);
		for (long i = 0; i < n; i++)
			sink += getenv("WATCHME_NOT_SET") != NULL;
	} else if (argc > 1 && !strcmp(argv[1], "wait")) {
		sigset_t none;

		signal(SIGUSR1, on_usr1);
		sigemptyset(&none);
		while (!go)
			sigsuspend(&none);
		late(n);
	} else {
		basic(n);
	}
	return (int)(sink & 0) + (int)(wide[0] & 0) + (int)(spare & 0);
}
