/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command of `record -- COMMAND`: forked at once but held before its
 * exec until sampling is ready, so its targets entry exists before it runs.
 */
#ifndef BPFPROF_COMMAND_H
#define BPFPROF_COMMAND_H

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
/* Reap it if it has exited: 1 and *status set, 0 still running, -errno. */
int command__poll(struct command *cmd, int *status);
/* SIGTERM it if still running (we stop first); reap if done. Takes NULL. */
void command__free(struct command *cmd);

#endif /* BPFPROF_COMMAND_H */
