/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `bpfprof range`: RANGE arguments resolved before sampling. A kernel
 * symbol through kallsyms (it ends where the next symbol starts), kernel
 * and absolute addresses as given, BINARY:SYMBOL and BINARY:0xA-0xB as ELF
 * virtual addresses of the binary (its own symbol tables, else its debug
 * file's), placed in every target process that maps the binary at the
 * start, each at its own absolute addresses:
 *
 *   address = vaddr - p_vaddr + p_offset - pgoff + start
 *
 * (the PT_LOAD holding vaddr; the mapping's start and pgoff), the inverse of
 * what symbolization does. Each placement is an instance with its own
 * sample counter; samples are counted per listing address: the ELF vaddr
 * for a binary (so processes aggregate), the absolute address otherwise.
 */
#ifndef BPFPROF_RANGESET_H
#define BPFPROF_RANGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "binsym.h"
#include "demangler.h"
#include "ksyms.h"
#include "kvmlinux.h"
#include "proc.h"
#include "rangepages.h"
#include "rangespec.h"

/* One range in one place: a process, or the kernel (tgid 0). */
struct range_inst {
	pid_t tgid;
	uint64_t start, end; /* absolute */
	uint64_t base;       /* listing address = absolute address - base */
};

struct range {
	unsigned int id;          /* index of its argument */
	const char *arg;          /* as given */
	struct rangespec spec;
	bool kernel;              /* kernel addresses */
	uint64_t start, end;      /* listing addresses [start, end); 0, 0 when unresolved */
	const char *symbol;       /* the function named, or holding start; NULL: none */
	const char *impl;         /* an IFUNC's: the function it selects here; else NULL */
	size_t versions;          /* a name several functions have: how many (the
				     one dlsym gives is the range); else 0 */
	const struct binary *bin; /* the binary the listing reads (NULL: none) */
	struct binsym *bs;        /* its names, lines and file offsets */
	uint64_t delta;           /* ELF vaddr in bin = listing address - delta */
	pid_t tgid;               /* an absolute user range: its one process */
	struct range_inst *insts; /* every place it was put, at the start and later */
	size_t nr_insts;
	bool unmapped;            /* no target maps the binary (yet): nothing is counted */
	char *late;               /* why it could not be resolved in a binary mapped
				     during the run (malloc'd); NULL: no such failure */
	const struct binary *other; /* another file of that name that targets map (ignored) */
	bool told;                /* the mode said what there was to say of its resolution */
};

struct range_set_opts {
	enum demangle_mode demangle;
	const char *const *debug_roots; /* NULL: /usr/lib/debug */
	const char *kallsyms;           /* the kallsyms file */
	pid_t one_target;               /* the single target process, or 0 */
	pid_t not_yet;                  /* a process whose mappings do not count yet:
					   the command, still before its exec (the
					   caller clears it at the exec) */
	bool lines;                     /* source lines (DWARF) for the listing */
};

struct range_set {
	struct range *r;
	size_t nr;
	unsigned int nr_insts;
	struct range_set_opts o;
	struct ksyms *ks;               /* loaded on first need */
	int ks_err;                     /* why it could not be: 0, -errno */
	struct kvmlinux *kv;            /* the kernel's DWARF, looked for on first need */
	bool kv_tried;
	struct binsym_opts bo;
	struct binsym **bs;             /* one per binary, by bins[] index */
	const struct binary **bins;
	struct binary **own;            /* binaries opened by path (mapped by no target) */
	size_t nr_bins, nr_own;
	char why[512];                  /* the last error, one line naming the value */
};

/*
 * Parse @n RANGE arguments (already checked by the command line; -EINVAL
 * otherwise) into @rs. 0 or -errno; range_set__free() either way.
 */
int range_set__init(struct range_set *rs, char *const *args, size_t n,
		    const struct range_set_opts *o);
void range_set__free(struct range_set *rs);

/*
 * Resolve every range against the kernel's symbols and the processes @pt
 * knows (the targets, scanned). 0, or -errno with range_set__error() naming
 * the range and what is wrong ("unknown symbol 'foo' in libc.so.6"):
 * -ENOENT (unknown symbol or binary), -EINVAL (not usable as given),
 * -EACCES, -ENOMEM. A binary no target maps is no error: the range is
 * marked unmapped.
 */
int range_set__resolve(struct range_set *rs, struct proc_table *pt);
const char *range_set__error(const struct range_set *rs);

/*
 * A mapping of @tgid seen during the run (a library loaded, a process
 * started or forked by a target): place the ranges of its binary there.
 * A range given by a binary's file name that no target mapped at the start
 * is resolved the first time one does (a failure: r->late). *@out gets the
 * new places (malloc'd, *@n of them; NULL, 0 when none). 0 or -ENOMEM.
 */
int range_set__place_mapping(struct range_set *rs, pid_t tgid, const struct mapping *m,
			     struct range_place **out, size_t *n);

/* Every instance as a BPF placement, in instance order (malloc'd array). */
int range_set__places(const struct range_set *rs, struct range_place **out, size_t *n);
/* Distinct listing addresses all ranges cover (an instruction takes >= 1 byte). */
uint64_t range_set__span(const struct range_set *rs);

/*
 * Bind an absolute user range to the file mapped at its start in its
 * process, for names and disassembly (after the run: the process may only
 * map it by then). Nothing to do for other ranges. 0 or -ENOMEM.
 */
int range_set__bind(struct range_set *rs, struct proc_table *pt);

/* The kernel's symbols (loaded on first use); NULL when unreadable or hidden. */
const struct ksyms *range_set__ksyms(struct range_set *rs);
/* The running kernel's vmlinux DWARF (looked for on first use); NULL: none. */
struct kvmlinux *range_set__kvmlinux(struct range_set *rs);

#endif /* BPFPROF_RANGESET_H */
