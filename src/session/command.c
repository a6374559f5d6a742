// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"

struct command {
	pid_t pid;
	int gate;  /* write end: one byte lets the child exec */
	int error; /* read end: the exec's errno, or EOF on success */
	bool released; /* let exec (command__release) */
	bool reaped;
	int wstatus; /* once reaped: as waitpid gave it */
	struct rusage ru; /* once reaped: its own and its waited-for children's */
};

/*
 * Held until the gate opens, with bpfprof's signals still blocked: a
 * Ctrl-C to the process group before the exec is bpfprof's to handle (it
 * then closes the gate, and the copy exits without running anything).
 *
 * It dies with bpfprof: SIGKILL when bpfprof's thread that forked it (the
 * main thread, which lives as long as bpfprof) is gone, kept across the
 * exec. Not SIGTERM: the held copy has it blocked, and a command may
 * ignore it; bpfprof ends a command it outlives with SIGTERM itself (at a
 * stop), so this only comes when bpfprof was killed and none can follow
 * up. The kernel clears it at the exec of a set-user-ID, set-group-ID or
 * file-capability program that changes the credentials.
 */
static void command__child(char *const argv[], int gate, int error, pid_t parent)
{
	sigset_t none;
	char go;
	int err;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127); /* or bpfprof died before the prctl: reparented */
	if (read(gate, &go, 1) != 1)
		_exit(127);
	close(gate);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvp(argv[0], argv);
	err = errno;
	if (write(error, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

struct command *command__fork(char *const argv[])
{
	struct command *cmd = calloc(1, sizeof(*cmd));
	int gate[2] = { -1, -1 }, error[2] = { -1, -1 }, err;
	pid_t parent = getpid();

	if (!cmd)
		return NULL;
	if (pipe2(gate, O_CLOEXEC) || pipe2(error, O_CLOEXEC))
		goto fail;
	cmd->pid = fork();
	if (cmd->pid < 0)
		goto fail;
	if (cmd->pid == 0) {
		close(gate[1]);
		close(error[0]);
		command__child(argv, gate[0], error[1], parent);
	}
	close(gate[0]);
	close(error[1]);
	cmd->gate = gate[1];
	cmd->error = error[0];
	return cmd;
fail:
	err = errno;
	for (int i = 0; i < 2; i++) {
		if (gate[i] >= 0)
			close(gate[i]);
		if (error[i] >= 0)
			close(error[i]);
	}
	free(cmd);
	errno = err;
	return NULL;
}

pid_t command__pid(const struct command *cmd)
{
	return cmd->pid;
}

int command__release(struct command *cmd)
{
	int child_errno = 0;
	ssize_t n;

	if (write(cmd->gate, "x", 1) != 1)
		return -errno;
	cmd->released = true;
	close(cmd->gate);
	cmd->gate = -1;
	do
		n = read(cmd->error, &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(cmd->error);
	cmd->error = -1;
	if (n == sizeof(child_errno)) {
		waitpid(cmd->pid, &cmd->wstatus, 0);
		cmd->reaped = true;
		return -child_errno;
	}
	return 0;
}

int command__poll(struct command *cmd, int *status)
{
	pid_t r;

	if (cmd->reaped) {
		*status = cmd->wstatus;
		return 1;
	}
	r = wait4(cmd->pid, &cmd->wstatus, WNOHANG, &cmd->ru);
	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	cmd->reaped = true;
	*status = cmd->wstatus;
	return 1;
}

bool command__released(const struct command *cmd)
{
	return cmd->released;
}

int command__cpu_ns(const struct command *cmd, uint64_t *ns)
{
	const struct timeval *u = &cmd->ru.ru_utime, *k = &cmd->ru.ru_stime;

	if (!cmd->released || !cmd->reaped)
		return -EAGAIN;
	*ns = ((uint64_t)u->tv_sec + k->tv_sec) * 1000000000ull +
	      ((uint64_t)u->tv_usec + k->tv_usec) * 1000ull;
	return 0;
}

int command__end(struct command *cmd, int sig)
{
	if (cmd->reaped)
		return 0;
	if (cmd->gate >= 0) {
		close(cmd->gate); /* an unreleased child reads EOF and exits */
		cmd->gate = -1;
		return 0;
	}
	return kill(cmd->pid, sig) ? -errno : 0;
}

void command__free(struct command *cmd)
{
	int status;

	if (!cmd)
		return;
	/* the run waited for a command it ran (session.c): this is a held copy, or a failure */
	if (!cmd->reaped && command__poll(cmd, &status) == 0) {
		command__end(cmd, SIGKILL);
		waitpid(cmd->pid, NULL, 0);
	}
	if (cmd->gate >= 0)
		close(cmd->gate);
	if (cmd->error >= 0)
		close(cmd->error);
	free(cmd);
}
