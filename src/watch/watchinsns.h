/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The instruction that made an access, from a breakpoint's trap ip in a
 * process: its ELF address in its binary, its function and its text. A
 * data breakpoint traps after the access, so the instruction is the one
 * that ends at the trap ip; x86 code cannot be decoded backwards, so the
 * function is decoded from its start up to there. An instruction
 * breakpoint traps before its instruction: the ip is the instruction.
 */
#ifndef BPFPROF_WATCHINSNS_H
#define BPFPROF_WATCHINSNS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "demangler.h"
#include "proc.h"

struct watch_insn {
	const struct binary *bin;
	uint64_t vaddr;    /* the instruction's ELF virtual address in bin */
	const char *func;  /* its function, as long as the watch_insns lives */
	uint64_t func_off; /* vaddr - the function's start */
	char text[128];    /* "add dword ptr [rip+0x2e5a], 0x1" */
};

struct watch_insns;

/* Binaries' symbols read on first need (@debug_roots as binsym_opts). NULL on ENOMEM. */
struct watch_insns *watch_insns__new(enum demangle_mode demangle,
				     const char *const *debug_roots);
void watch_insns__free(struct watch_insns *wi);

/*
 * The instruction of the access whose trap ip is @ip in process @tgid
 * (@comm, as the process table has it); @after: a data breakpoint's (the
 * instruction ending at @ip). 0, -ENOENT when it cannot be told (no file,
 * no symbol there, the code unreadable, no instruction ending at @ip) or
 * -ENOMEM.
 */
int watch_insns__find(struct watch_insns *wi, struct proc_table *pt, pid_t tgid,
		      const char *comm, uint64_t ip, bool after, struct watch_insn *out);

#endif /* BPFPROF_WATCHINSNS_H */
