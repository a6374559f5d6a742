/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The capture core every sampling subcommand runs on: check, open the
 * output, the targets, the side band and the events, load the program,
 * sample until told to stop (signal, duration, the command's or every
 * target's exit), then hand over to the subcommand. What is specific to one
 * subcommand plugs in as hooks (struct session_hooks): its mode (record/,
 * range/) and, for stacks, the unwinder (unwind-session.c). The core has no
 * branch for any of them.
 */
#ifndef BPFPROF_SESSION_H
#define BPFPROF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "exit.h"
#include "loader.h"
#include "idlist.h"
#include "proc.h"
#include "symbolizer.h"

struct sideband;

/* Who is sampled: none of pids, tids, cgroup and command = the whole system. */
struct target_opts {
	bool all_cpus;      /* -a (explicit or implied) */
	struct idlist pids; /* -p: processes, followed into new threads/children */
	struct idlist tids; /* -t: single threads */
	const char *cgroup; /* -G: cgroup v2 path (absolute or below the mount) */
	struct idlist cpus; /* -C: empty = every online CPU */
	char **command;     /* argv after --, NULL-terminated, or NULL */
	bool idle;          /* --idle: keep samples of pid 0 */
};

/* Which stacks a sample keeps. */
enum stack_mode {
	STACKS_BOTH,
	STACKS_USER_ONLY,   /* -U: user frames only (kernel time still counted) */
	STACKS_KERNEL_ONLY, /* -K: kernel frames only */
};

#define SAMPLING_DEFAULT_FREQ 99
#define SAMPLING_DEFAULT_MAX_STACKS 16384

/*
 * One event sampled (-e), one for the output: on a hybrid machine its
 * attrs are one kernel event per core PMU. Its index in sampling_opts is
 * the program's attach cookie and the profile's event.
 */
struct sampling_event {
	char *name;                   /* the name= term, else as written ("cpu-clock") */
	struct perf_event_attr *attrs; /* with its freq or period */
	size_t nr_attrs;
};

/* What is sampled, how often, for how long, and what a sample keeps. */
struct sampling_opts {
	struct sampling_event *events; /* at least one after parsing (cpu-clock) */
	size_t nr_events;
	/* -F, -c; with one event, that event's own period= or freq= */
	unsigned long long freq;     /* -F, when !use_period */
	unsigned long long period;   /* -c, when use_period */
	bool use_period;
	double duration;          /* -d seconds; 0 = until signal/exit */
	enum stack_mode stacks;   /* -U, -K */
	unsigned int max_depth;   /* frames per user and per kernel stack */
	unsigned int max_stacks;  /* counts map entries; stacks map gets 2x */
	bool empty_handler;       /* hidden, for bench/: a handler that returns at once */
};

struct session_opts {
	struct target_opts targets;
	struct sampling_opts sampling;
	struct symbol_opts symbols;
	const char *output; /* -o, else the format's default file; NULL or "-" = stdout */
	bool output_default; /* -o not given: output is the default file */
	bool quiet;         /* -q: no summary */
	bool kallsyms;      /* kernel symbols are needed: read them before sampling */
	bool bpf_stats;     /* count the program's run time (record --stats) */
};

struct session;

/*
 * What a subcommand's mode, or anything else that follows a run, plugs into
 * the core; every hook may be NULL. @priv is the plug's own. A hook that
 * returns a status has printed its one line (session__fail) and returns an
 * exit status (0: go on); one that returns an error returns -errno.
 */
struct session_hooks {
	/* the output is open: open the plug's own files */
	int (*open)(struct session *s, void *priv);
	/* after the /proc scan and the command's fork: what needs the targets' mappings */
	int (*prepare)(struct session *s, void *priv);
	/* before load: the map sizes and program flags it needs */
	int (*configure)(struct session *s, void *priv, struct loader_cfg *cfg);
	/* after load, before the targets are added and the events opened */
	int (*start)(struct session *s, void *priv, const struct loader_cfg *cfg);
	/*
	 * After the targets are added: open the plug's own events (watch's
	 * breakpoints). A run with a plug that has this hook opens no
	 * sampling events of its own (-e, -F, -c are not used).
	 */
	int (*events)(struct session *s, void *priv);
	/*
	 * The side band, once the process table has taken the record: a new
	 * mapping of @tgid (@m exactly as mapped; NULL when the table holds it
	 * merged or cut), @tgid's exec, a new process @pid forked by @ppid, and
	 * the end of process @pid.
	 */
	void (*mmap)(struct session *s, void *priv, pid_t tgid, const struct mapping *m);
	void (*exec)(struct session *s, void *priv, pid_t tgid);
	void (*fork)(struct session *s, void *priv, pid_t ppid, pid_t pid);
	void (*exit)(struct session *s, void *priv, pid_t pid);
	/*
	 * Binary @b is mapped by no process the table knows any more and is
	 * freed once the hooks return (session__release_binaries): drop what
	 * the plug keeps of it.
	 */
	void (*binary_gone)(struct session *s, void *priv, const struct binary *b);
	/* after each batch of side-band records; -errno ends the run */
	int (*batch)(struct session *s, void *priv);
	/* a descriptor to poll while sampling (-1: none), and what to do when it is readable */
	int (*fd)(void *priv);
	int (*ready)(struct session *s, void *priv);
	/* every tick while sampling */
	void (*tick)(struct session *s, void *priv);
	/* sampling has stopped, before the command is ended: let go of the targets */
	void (*stopped)(struct session *s, void *priv);
	/* sampling has stopped and the side band is drained: drain, write, summarize */
	int (*finish)(struct session *s, void *priv);
	/*
	 * The capture is over, whatever happened (in reverse order of the
	 * plugs): free what refers to the loader or the process table.
	 */
	void (*end)(struct session *s, void *priv);
};

/* A plug: its hooks and what they get as @priv. */
struct session_plug {
	const struct session_hooks *hooks;
	void *priv;
};

/*
 * Run a whole capture with the plugs, in order (the mode, whose finish
 * writes, and those it brings along). Messages start with @prog ("bpfprof",
 * "bpfprof range"). Reports errors itself, one line on stderr, and returns
 * the exit status: EXIT_USAGE, EXIT_NOPERM, EXIT_RUNTIME, EXIT_NOCMD when
 * bpfprof failed; else, with a command, EXIT_SIGNALED + N when signal N to
 * bpfprof stopped the run, 0 when bpfprof ended it at -d or a plug's stop,
 * else the command's own status (EXIT_SIGNALED + N when signal N ended
 * it); 0 without one.
 */
int session__main(const struct session_opts *o, const char *prog,
		  const struct session_plug *plugs, size_t nr_plugs);

/* "PROG: MESSAGE" on stderr; returns @status. */
int session__fail(const struct session *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "PROG: warning: MESSAGE" on stderr. */
void session__warn(const struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "PROG: note: MESSAGE" on stderr, unless -q. */
void session__note(const struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * From a hook while sampling runs, after its one line (session__fail):
 * stop sampling as a stop signal does (the command gets SIGTERM), write
 * nothing, and exit with @status (the first one given). @status 0 is an
 * ordinary end instead, as at -d's (watch --count, top's q): finish runs and
 * writes, and a command bpfprof then ends does not make the exit status.
 */
void session__stop(struct session *s, int status);
/*
 * For a hook's long work before sampling (the unwind tables): has a stop
 * signal come? The stop signals wait, blocked, and the descriptor of
 * session__signal_fd() turns readable when one (or SIGCHLD) comes. A hook
 * that sees one cuts its work short and returns 0: the run then stops as
 * soon as it starts (the command is not run) and writes what it has.
 */
bool session__stopping(struct session *s);
int session__signal_fd(const struct session *s);

const struct session_opts *session__opts(const struct session *s);
const char *session__prog(const struct session *s);
struct loader *session__loader(const struct session *s);
struct proc_table *session__procs(const struct session *s);
struct symbolizer *session__symbolizer(const struct session *s);
/* The main output, open since the open hooks. */
FILE *session__out(const struct session *s);
/*
 * After the mode wrote the main output (@err: 0, or -errno from making or
 * writing @what), make it the file named by -o (outfile__commit). Reports
 * either failure, "cannot write the @what to 'FILE'", and returns the exit
 * status: 0 or EXIT_RUNTIME.
 */
int session__commit(const struct session *s, int err, const char *what);
const struct sideband *session__sideband(const struct session *s);
/*
 * While sampling: take the side band's records now (those no longer held
 * to be put in time order) into the process table and the plugs' hooks,
 * as the poll loop does; e.g. before symbolizing what was just sampled.
 * 0, or a batch hook's -errno.
 */
int session__read_sideband(struct session *s);
/*
 * Free the binaries no process has mapped for a couple of seconds (after
 * processes were forgotten): the symbolizer and every plug drop theirs
 * first. A program run over and over (a shell loop, a build) keeps its
 * binary instead of reading it again each time. Returns how many were freed.
 */
size_t session__release_binaries(struct session *s);
/* The CPUs sampled. */
size_t session__nr_cpus(const struct session *s);
/* Seconds sampled, once sampling has stopped. */
double session__seconds(const struct session *s);
/* Seconds sampled so far while sampling runs (0 before it starts); then session__seconds. */
double session__elapsed(const struct session *s);
/* The command's pid, or 0 without one. */
pid_t session__command_pid(const struct session *s);
/*
 * The CPU time the command used, once it ran and exited: 0, else -ENOENT
 * (no command) or -EAGAIN (not run, or not reaped).
 */
int session__command_cpu_ns(const struct session *s, uint64_t *ns);
/* Is @tgid the command still before its exec (bpfprof's own image)? */
bool session__before_exec(const struct session *s, pid_t tgid);
/* The one process a -p, -t or command run targets, else 0. */
pid_t session__one_target(const struct session *s);
/* The program's run time: 0, or -ENODATA when it was not counted (bpf_stats). */
int session__prog_stats(const struct session *s, uint64_t *ns, uint64_t *runs);
/*
 * The time between two samples of one CPU for a clock event (cpu-clock,
 * task-clock; -F or -c): 0, else -ENOTSUP (the event counts no time).
 * session__period_ns: the first event's.
 */
int session__period_ns(const struct session *s, uint64_t *ns);
int session__event_period_ns(const struct session *s, size_t event, uint64_t *ns);
/*
 * kernel.perf_event_max_sample_rate when sampling started and when it
 * stopped (the kernel lowers it when sampling takes too long: throttling).
 */
void session__max_rates(const struct session *s, uint64_t *start, uint64_t *end);
/* The summary's rate: what was asked for, and @hz seen on the busiest CPU. */
void session__print_rate(const struct session *s, double hz);
/*
 * The summary's end: "; 'COMMAND' was still running after -d N and was
 * ended (SIGTERM)" when bpfprof ended a command it ran (at -d, a signal,
 * or a plug's stop), then "; @what written to 'FILE'", unless it went to
 * standard output.
 */
void session__print_output(const struct session *s, const char *what);

#endif /* BPFPROF_SESSION_H */
