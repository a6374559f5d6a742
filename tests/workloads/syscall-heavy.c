/*
 * syscall-heavy: main -> do_syscalls, which reads 64 KiB from /dev/zero in
 * a loop. The read is issued by an inline `syscall` instruction inside
 * do_syscalls itself (no libc wrapper), so in a frame-pointer walk the
 * kernel frames (entry_SYSCALL_64, ..., read_zero) sit directly under
 * do_syscalls;main. Most of the time is spent in the kernel.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include "workload.h"

#define BUF_SIZE (64 * 1024)

static char buf[BUF_SIZE];

static inline long raw_read(long fd, void *p, long n)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"((long)SYS_read), "D"(fd), "S"(p), "d"(n)
		     : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline)) long do_syscalls(int fd, double seconds)
{
	double end = now() + seconds;
	long total = 0;

	while (now() < end) {
		for (int i = 0; i < 16; i++) {
			long n = raw_read(fd, buf, BUF_SIZE);

			if (n < 0)
				return n;
			total += n;
		}
	}
	return total;
}

int main(int argc, char **argv)
{
	double seconds = parse_duration(argc, argv);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("/dev/zero");
		return 1;
	}
	if (do_syscalls(fd, seconds) < 0) {
		fprintf(stderr, "read /dev/zero failed\n");
		return 1;
	}
	return 0;
}
