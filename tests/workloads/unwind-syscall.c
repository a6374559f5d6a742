/*
 * unwind-syscall: main -> read_loop -> read_chunk, which read()s 64 KiB
 * from /dev/zero through libc's read wrapper, in a loop for the duration.
 * Most samples are taken in the kernel (the sampled thread is inside the
 * read system call), so the user stack has to be unwound from the
 * registers saved at the syscall entry. Leaf to root such a sample is
 *   kernel frames (read_zero ... do_syscall_64, entry_SYSCALL_64_after_hwframe),
 *   read (libc's __libc_read), read_chunk, read_loop, main,
 *   __libc_start_call_main, __libc_start_main_impl, _start
 * Built by gcc -O2 -fomit-frame-pointer; libc has no frame pointers.
 */
#include <fcntl.h>
#include <unistd.h>

#include "workload.h"

#define BUF_SIZE (64 * 1024)
#define READS_PER_CHECK 16

volatile unsigned long sink;

static char buf[BUF_SIZE];

__attribute__((noinline, noclone)) long read_chunk(int fd)
{
	long n = read(fd, buf, BUF_SIZE);

	sink += n;
	return n;
}

__attribute__((noinline, noclone)) long read_loop(int fd, double end)
{
	long total = 0;

	while (now() < end) {
		for (int i = 0; i < READS_PER_CHECK; i++) {
			long n = read_chunk(fd);

			if (n < 0)
				return n;
			total += n;
		}
	}
	return total;
}

int main(int argc, char **argv)
{
	double end = now() + parse_duration(argc, argv);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("/dev/zero");
		return 1;
	}
	if (read_loop(fd, end) < 0) {
		fprintf(stderr, "read /dev/zero failed\n");
		return 1;
	}
	return 0;
}
