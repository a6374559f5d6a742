// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The small /proc and /sys readers: a line, a number, a task's process, the online CPUs. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "procfs.h"

static char dir[] = "/tmp/test-procfs-XXXXXX";

/* @text into a file of dir; its path (static, overwritten by the next call) */
static const char *file_with(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pid_t thread_tid;
static int done;

static void *thread_main(void *arg)
{
	pthread_mutex_lock(&lock);
	thread_tid = syscall(SYS_gettid);
	pthread_cond_broadcast(&cond);
	while (!done)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return arg;
}

int main(void)
{
	struct idlist cpus = { 0 };
	char *line, *text = NULL;
	pthread_t t;
	long n;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return check_done();
	}

	/* one line, without its newline; the first line only */
	line = procfs__read_line(file_with("one", "4194304\n"));
	CHECK_STR(line, "4194304", "read_line: the newline is dropped");
	free(line);
	line = procfs__read_line(file_with("two", "0-1\nsecond\n"));
	CHECK_STR(line, "0-1", "read_line: only the first line");
	free(line);
	line = procfs__read_line(file_with("bare", "abc"));
	CHECK_STR(line, "abc", "read_line: a last line without a newline");
	free(line);
	errno = 0;
	CHECK(!procfs__read_line(file_with("empty", "")) && errno == EIO,
	      "read_line: an empty file is EIO");
	errno = 0;
	CHECK(!procfs__read_line("/nonexistent/x") && errno == ENOENT,
	      "read_line: a missing file sets errno");

	/* numbers: 1 or more, else the fallback */
	CHECK(procfs__read_ull(file_with("n", "127\n"), 5) == 127, "read_ull: a number");
	CHECK(procfs__read_ull(file_with("z", "0\n"), 5) == 5,
	      "read_ull: 0 is the fallback");
	CHECK(procfs__read_ull(file_with("g", "12x\n"), 5) == 5,
	      "read_ull: junk is the fallback");
	CHECK(procfs__read_ull("/nonexistent/x", 7) == 7,
	      "read_ull: a missing file is the fallback");
	CHECK(procfs__read_ull("/proc/sys/kernel/pid_max", 0) >= 301,
	      "read_ull: pid_max");

	/* a task's process: itself, a thread's, none */
	CHECK(procfs__tgid(getpid()) == getpid(), "tgid: a process is its own");
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_mutex_lock(&lock);
	while (!thread_tid)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	CHECK(thread_tid != getpid() && procfs__tgid(thread_tid) == getpid(),
	      "tgid: a thread's is its process (tid %d)", thread_tid);
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
	CHECK(procfs__tgid(0x7ffffff0) == -ESRCH, "tgid: no such task is -ESRCH");

	/* the online CPUs: as many as sysconf counts, the text as the kernel wrote it */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	CHECK(procfs__online_cpus(&cpus, &text) == 0 && (long)cpus.nr == n,
	      "online_cpus: %zu, sysconf says %ld", cpus.nr, n);
	line = procfs__read_line("/sys/devices/system/cpu/online");
	CHECK_STR(text, line, "online_cpus: the kernel's text");
	free(line);
	free(text);
	idlist__free(&cpus);
	CHECK(procfs__online_cpus(&cpus, NULL) == 0 && cpus.nr && cpus.ids[0] >= 0,
	      "online_cpus: without the text");
	idlist__free(&cpus);

	for (const char *const *f = (const char *const[]){ "one", "two", "bare", "empty",
							   "n", "z", "g", NULL };
	     *f; f++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	return check_done();
}
