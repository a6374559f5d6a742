/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command of `record -- COMMAND`: forked at once but held before its
 * exec until sampling is ready, so its targets entry exists before it runs.
 */
#ifndef BPFPROF_COMMAND_H
#define BPFPROF_COMMAND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct command;

/* Fork a child that waits, then execs @argv (PATH search). NULL + errno. */
struct command *command__fork(char *const argv[]);
pid_t command__pid(const struct command *cmd);
/*
 * Let the child exec; wait until it has. Returns 0, or -errno of a failed
 * exec (the child has then exited with 127).
 */
int command__release(struct command *cmd);
/*
 * Reap it if it has exited: 1 and *status set (waitpid's status, the same
 * on every later call), 0 still running, -errno.
 */
int command__poll(struct command *cmd, int *status);
/* Has it been let exec (command__release)? */
bool command__released(const struct command *cmd);
/*
 * The CPU time it used (user and system, with the children it waited
 * for), once run and reaped by command__poll: 0, else -EAGAIN.
 */
int command__cpu_ns(const struct command *cmd, uint64_t *ns);
/*
 * End it: a held child is let go without exec'ing (it exits 127), a
 * running one gets @sig. Wait with command__poll. 0 or -errno.
 */
int command__end(struct command *cmd, int sig);
/* Kill and reap it if still there (the run waits for it first). Takes NULL. */
void command__free(struct command *cmd);

#endif /* BPFPROF_COMMAND_H */
