/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof watch`: LOCATION arguments resolved to addresses. A symbol of a
 * process's executable (or of a file it maps, BINARY:SYMBOL) from the
 * file's .symtab/.dynsym, placed at the process's load bias:
 *
 *   address = vaddr - p_vaddr + p_offset - pgoff + start
 *
 * (the PT_LOAD behind the file's executable mapping, its start and pgoff:
 * one bias for every segment of the file); a kernel symbol from kallsyms
 * (data symbols: d, D, b, B, r, R); an absolute address as given. Each
 * location gets its length (LEN, else the symbol's size when it is 1, 2,
 * 4 or 8) and is checked: a data symbol for r/w/rw, code for x, aligned
 * (address % length == 0). ARG:LEN*COUNT is COUNT locations, element i
 * at +i*LEN, named "BASE[i]" (BASE: ARG before :LEN); only the first is
 * looked up, the others follow it, and together they must lie within the
 * symbol when its size is known.
 */
#ifndef BPFPROF_WATCHSET_H
#define BPFPROF_WATCHSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "uspace.h"
#include "watchspec.h"

/* One location in one place: a process, or the kernel (tgid 0). */
struct watch_place {
	pid_t tgid;
	uint64_t addr;
};

struct watch {
	unsigned int index;   /* the location's: its place in the set */
	const char *arg;      /* as given */
	char *name;           /* in the summary and stacks: ARG, or BASE[i] for an element */
	unsigned int elem;    /* element i of ARG's *COUNT (0: the first or only one) */
	struct watchspec spec; /* an element's strings are its first's */
	bool kernel;          /* a kernel address */
	unsigned int len;     /* bytes watched: the breakpoint's length */
	uint64_t size;        /* the symbol's size (0: unknown, or an address) */
	struct watch_place *places; /* every place it was resolved in */
	size_t nr_places;
};

struct watch_set {
	struct watch *w;      /* one per location: an argument's *COUNT elements in a row */
	size_t nr;
	enum watch_access access;
	char why[512]; /* the last error, one line naming the value */
};

/*
 * Parse @n LOCATION arguments (-EINVAL with the error when one is not
 * valid) into @ws, one location per *COUNT element. 0 or -errno;
 * watch_set__free() either way.
 */
int watch_set__init(struct watch_set *ws, char *const *args, size_t n,
		    enum watch_access access);
void watch_set__free(struct watch_set *ws);
const char *watch_set__error(const struct watch_set *ws);

/*
 * What the locations need of the targets, before anything is opened:
 * kernel locations need @all (system-wide), the others a process (-p, -t
 * or a command) and not @all; an address, one process (@one_target), and
 * all its bytes where a process can map (@us, uspace.h).
 * 0 or -EINVAL with the error.
 */
int watch_set__check(struct watch_set *ws, bool all, bool one_target, const struct uspace *us);

/*
 * Resolve the kernel locations through @kallsyms. 0, or -errno with the
 * error (-ENOENT unknown symbol, -EINVAL unusable as given, -EACCES
 * addresses hidden).
 */
int watch_set__resolve_kernel(struct watch_set *ws, const char *kallsyms);

/*
 * Check the executable locations (SYMBOL) against the file at @path, not
 * running yet (a command before its exec). 0 or -errno with the error.
 */
int watch_set__check_file(struct watch_set *ws, const char *path);

/*
 * Resolve the user locations in process @tgid (its executable, the files
 * it maps now, addresses as given), each one place more. With @later, a
 * BINARY:SYMBOL whose binary @tgid does not map yet waits without a place
 * there (watch_set__resolve_mapped). 0, or -errno with the error: -ENOENT
 * (unknown symbol, a binary it does not map), -EINVAL, -ENOMEM, or what
 * reading /proc gave.
 */
int watch_set__resolve_process(struct watch_set *ws, pid_t tgid, bool later);

/* Does a BINARY:SYMBOL location wait for its binary in process @tgid? */
bool watch_set__waiting(const struct watch_set *ws, pid_t tgid);

/*
 * The BINARY:SYMBOL locations that wait in process @tgid and whose binary
 * it maps now (a library loaded later): resolve them there. @placed (one
 * per location) says which got their place. 0, or -errno with the error.
 */
int watch_set__resolve_mapped(struct watch_set *ws, pid_t tgid, bool *placed);

/* @w's place in process @tgid (0: the kernel), or NULL. */
const struct watch_place *watch_set__place(const struct watch *w, pid_t tgid);

#endif /* BPFPROF_WATCHSET_H */
