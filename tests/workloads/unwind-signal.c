/*
 * unwind-signal SECONDS [alt]: main -> interrupted_spin, busy for the
 * duration, while an interval timer (ITIMER_REAL, every 10 ms) raises
 * SIGALRM; the handler on_sigalrm spins for 5 ms of each 10. So about half
 * the samples are in the handler, and leaf to root their stack is
 *   on_sigalrm, __restore_rt (the signal frame: the handler's return
 *   address is libc's sigreturn trampoline), interrupted_spin, main,
 *   __libc_start_call_main, __libc_start_main_impl, _start
 * and the other half is interrupted_spin, main, ... without the handler.
 * With "alt" the handler runs on an alternate signal stack (sigaltstack,
 * SA_ONSTACK; mmap()ed, far from the main stack), so the unwinder must
 * follow the signal frame from one stack to another. Built by gcc -O2
 * -fomit-frame-pointer.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>

#include "workload.h"

#define CHUNK_ITERS 10000
#define INTERVAL_US 10000
#define HANDLER_SPIN 0.005
#define ALT_STACK_SIZE (256 * 1024)

volatile unsigned long sink;
static volatile sig_atomic_t handled;

/* the handler itself spins: its frame sits right on the signal frame */
__attribute__((noinline, noclone)) void on_sigalrm(int sig)
{
	double end = now() + HANDLER_SPIN;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i + sig;
	handled = handled + 1;
}

__attribute__((noinline, noclone)) unsigned long interrupted_spin(double end)
{
	unsigned long n = 0;

	while (now() < end)
		for (unsigned long i = 0; i < CHUNK_ITERS; i++)
			sink += i, n++;
	return n;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);
	int alt = argc > 2 && strcmp(argv[2], "alt") == 0;
	struct itimerval it = {
		.it_interval = {0, INTERVAL_US},
		.it_value = {0, INTERVAL_US},
	};
	struct sigaction sa;

	if (argc > 2 && !alt) {
		fprintf(stderr, "usage: %s SECONDS [alt]\n", argv[0]);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigalrm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (alt) {
		stack_t ss = {.ss_size = ALT_STACK_SIZE};

		ss.ss_sp = mmap(NULL, ALT_STACK_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ss.ss_sp == MAP_FAILED || sigaltstack(&ss, NULL)) {
			perror("sigaltstack");
			return 1;
		}
		sa.sa_flags |= SA_ONSTACK;
	}
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL)) {
		perror("SIGALRM timer");
		return 1;
	}
	sink += interrupted_spin(end);
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	sink += handled;
	return 0;
}
