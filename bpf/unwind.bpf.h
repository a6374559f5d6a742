/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * DWARF unwinding of user stacks, inside the sampling program. User space
 * compiles each binary's CFI into rows (src/cfi/cfitable.c) and loads
 * them with a per-process table of mappings (src/unwind/unwinder.c); here,
 * from the interrupted user registers, each frame is: its mapping (binary
 * search), its row (page index, then binary search), the CFA by the row's
 * rule, the return address at CFA - 8 and the caller's rbp by the rbp
 * rule. A file without a table yet, and anonymous code (JIT), take one
 * frame-pointer step instead (cfg_unwind_fallback).
 */
#ifndef BPFPROF_UNWIND_BPF_H
#define BPFPROF_UNWIND_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>

#include "bpfprof.h"
#include "count.bpf.h"
#include "regs.bpf.h"

/* 0: frame pointers only (--unwind=fp); 1: DWARF (dwarf, auto) */
const volatile bool cfg_unwind = false;
/* frame pointers where no table exists (auto) */
const volatile bool cfg_unwind_fallback = true;
/* mappings per process (the unwind_procs value size) */
const volatile __u32 cfg_unwind_maps = 1;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct unwind_row[UNWIND_ROW_PAIR]);
} unwind_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
} unwind_pages SEC(".maps");

/* mmap'd: user space reads each binary's used epoch to pick what to evict */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct unwind_bin);
} unwind_bins SEC(".maps");

/*
 * Binaries whose table is out of the maps (evicted, or it did not fit)
 * that walks went through: unwind_map.want -> unwind_epoch. User space
 * takes them every epoch and loads their tables, evicting the least
 * recently used.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} unwind_wanted SEC(".maps");

/* Advanced by user space every half second or so: the clock of unwind_bin.used. */
volatile __u32 unwind_epoch;

/* tgid -> struct unwind_proc; only user space writes it */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__uint(value_size, sizeof(struct unwind_proc) + sizeof(struct unwind_map));
} unwind_procs SEC(".maps");

/*
 * The stack is read in windows of up to UWALK_WINDOW bytes, never across
 * a page end: a bpf_probe_read_user costs about 30 ns whatever its size up
 * to a few hundred bytes, and frames are mostly tens of bytes, so a walk
 * takes a read or two where it took one or two per frame. Larger windows
 * copy more than most walks use. A power of two.
 */
#define UWALK_WINDOW 1024

/* The registers a walk needs (DWARF numbers 0-15), and where it is. */
struct uwalk {
	__u64 regs[16];  /* the leaf's registers; later only rsp, rbp valid */
	__u64 ip;
	__u32 n, want;
	__u32 end;       /* enum unwind_end, once stopped */
	__u32 fp_frames; /* frames found by frame pointers in files with no table */
	__u32 last_map;  /* the mapping found last */
	bool exact;      /* ip is where execution is (leaf, after a signal frame) */
	bool leaf;
	__u32 win_len;   /* bytes of the stack in win[], from win_base; 0: none */
	__u64 win_base;
	__u8 win[UWALK_WINDOW];
};

/* The last of a process's mappings starting at or below ip: maps[lo - 1]. */
struct map_search {
	struct unwind_proc *p;
	__u64 ip;
	__u32 lo, hi;
};

static long map_search_step(__u32 i, struct map_search *ms)
{
	__u32 mid;

	if (ms->lo >= ms->hi)
		return 1;
	mid = (ms->lo + ms->hi) / 2;
	if (mid >= cfg_unwind_maps)
		return 1;
	if (ms->p->maps[mid].start <= ms->ip)
		ms->lo = mid + 1;
	else
		ms->hi = mid;
	return 0;
}

/*
 * The mapping holding @ip in @p, or NULL: the one found last (*@last) when
 * it still holds ip, as consecutive frames mostly do; else a binary search
 * (bpf_loop: verified once).
 */
static __always_inline struct unwind_map *uwalk__map(struct unwind_proc *p, __u64 ip,
						     __u32 *last)
{
	struct map_search ms = { .p = p, .ip = ip, .hi = p->nr };
	__u32 k = *last;

	if (k < cfg_unwind_maps && p->maps[k].start <= ip && ip < p->maps[k].end)
		return &p->maps[k];
	bpf_loop(UNWIND_MAP_STEPS, map_search_step, &ms, 0);
	if (ms.lo == 0)
		return NULL;
	k = ms.lo - 1;
	if (k >= cfg_unwind_maps || ip >= p->maps[k].end)
		return NULL;
	*last = k;
	return &p->maps[k];
}

/* Row @i of unwind_rows, or NULL. */
static __always_inline struct unwind_row *uwalk__row_at(__u32 i)
{
	__u32 k = i / UNWIND_ROW_PAIR;
	struct unwind_row *pair = bpf_map_lookup_elem(&unwind_rows, &k);

	return pair ? &pair[i % UNWIND_ROW_PAIR] : NULL;
}

/*
 * Rows found lately, per CPU, by (binary, pc): a profile samples the same
 * return addresses over and over, and a hit costs one compare where the
 * search costs an index read and up to UNWIND_SEARCH_STEPS scattered row
 * reads. Direct-mapped; a miss only costs the search. The entries hold
 * copies of the rows, valid while unwind_gen is what it was when they were
 * stored.
 */
#define UWALK_CACHE_BITS 8

struct uwalk_cached {
	__u64 pc;
	__u32 bin;
	__u32 gen;
	struct unwind_row row;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uwalk_cached[1 << UWALK_CACHE_BITS]);
} uwalk_cache SEC(".maps");

/*
 * User space adds one when it takes a binary's table out (eviction),
 * before the binary's index can name another table: every cached row is
 * dropped then.
 */
volatile __u32 unwind_gen;

static __always_inline __u32 uwalk__cache_slot(__u32 bin, __u64 pc)
{
	return ((pc ^ ((__u64)bin << 40)) * 0x9e3779b97f4a7c15ull) >> (64 - UWALK_CACHE_BITS);
}

/*
 * The row in force at @pc in binary @bin, or NULL: the last row of the
 * page's lo ..= hi whose pc is at or below pc. The search is a bounded
 * loop, not a bpf_loop: it runs for every frame the cache misses, and a
 * callback call per step cost more than the steps themselves.
 */
static __always_inline struct unwind_row *uwalk__row(__u32 bin, __u64 pc)
{
	struct unwind_bin *b = bpf_map_lookup_elem(&unwind_bins, &bin);
	struct uwalk_cached *cache, *e = NULL;
	__u32 k, lo, hi, mid, gen = unwind_gen;
	struct unwind_row *r;
	__u64 *first, *last;

	/* gen before the table: rows found from a table dropped meanwhile are stored stale */
	asm volatile("" ::: "memory");
	if (!b || (pc >> UNWIND_PAGE_SHIFT) >= b->nr_pages)
		return NULL;
	/* written only when it changes: the line stays shared between CPUs */
	if (b->used != unwind_epoch)
		b->used = unwind_epoch;
	k = 0;
	cache = bpf_map_lookup_elem(&uwalk_cache, &k);
	if (cache) {
		e = &cache[uwalk__cache_slot(bin, pc)];
		if (e->pc == pc && e->bin == bin && e->gen == gen)
			return &e->row;
	}
	k = b->page_base + (__u32)(pc >> UNWIND_PAGE_SHIFT);
	first = bpf_map_lookup_elem(&unwind_pages, &k);
	k++;
	last = bpf_map_lookup_elem(&unwind_pages, &k);
	if (!first || !last)
		return NULL;
	lo = *first;
	hi = *last;
	for (int i = 0; i < UNWIND_SEARCH_STEPS; i++) {
		if (lo >= hi)
			break;
		mid = lo + (hi - lo + 1) / 2;
		r = uwalk__row_at(mid);
		if (r && r->pc <= pc)
			lo = mid;
		else if (r)
			hi = mid - 1;
		else
			break;
	}
	r = uwalk__row_at(lo);
	if (r && e) {
		e->pc = pc;
		e->bin = bin;
		e->gen = gen;
		e->row = *r;
	}
	return r;
}

static __always_inline int read_u64(__u64 *v, __u64 addr)
{
	return bpf_probe_read_user(v, sizeof(*v), (void *)addr);
}

/*
 * The u64 at user address @addr, from the window when it holds it, else
 * from a new window starting at addr (a walk reads upwards). A window that
 * cannot be read (its page not resident) leaves the one read, which then
 * fails too, as before.
 */
static __always_inline int uwalk__read(struct uwalk *w, __u64 *v, __u64 addr)
{
	__u64 off = addr - w->win_base;
	__u32 len;

	if (off >= w->win_len || w->win_len - off < sizeof(*v)) {
		len = 4096 - (addr & 4095);
		if (len > UWALK_WINDOW)
			len = UWALK_WINDOW;
		w->win_len = 0;
		if (len < sizeof(*v) || bpf_probe_read_user(w->win, len, (void *)addr))
			return read_u64(v, addr);
		w->win_base = addr;
		w->win_len = len;
		off = 0;
	}
	if (off > UWALK_WINDOW - sizeof(*v))
		return -1;
	*v = *(__u64 *)&w->win[off];
	return 0;
}

/* Step to the caller's frame; @exact: @ip is where execution is, not a return address. */
static __always_inline void uwalk__caller(struct uwalk *w, __u64 ip, __u64 sp, __u64 bp,
					  bool exact)
{
	w->ip = ip;
	w->regs[R_RSP] = sp;
	w->regs[R_RBP] = bp;
	w->exact = exact;
}

/* A signal trampoline: the interrupted registers from the ucontext at rsp. */
static __always_inline int uwalk__signal(struct uwalk *w)
{
	/* struct rt_sigframe after pretcode: uc_mcontext at 40; rbp, rsp, rip at 80, 120, 128 */
	__u64 mc = w->regs[R_RSP] + 40, ip, sp, bp;

	if (read_u64(&bp, mc + 80) || read_u64(&sp, mc + 120) || read_u64(&ip, mc + 128))
		return WALK_FAULT;
	if (!ip || (__s64)ip < 0)
		return WALK_INVALID;
	uwalk__caller(w, ip, sp, bp, true);
	return -1;
}

/*
 * The caller's ip, rsp and rbp by @r's rules. -1: done, go on; else the
 * enum unwind_end that stops the walk.
 */
static __always_inline int uwalk__dwarf_step(struct uwalk *w, const struct unwind_row *r)
{
	__u64 cfa, ra, bp = w->regs[R_RBP], sp = w->regs[R_RSP];
	__u32 type = UNWIND_TYPE(r->cfa_type), aux = UNWIND_AUX(r->cfa_type);

	switch (type) {
	case UNWIND_CFA_RSP:
		cfa = sp + r->cfa_off;
		break;
	case UNWIND_CFA_RBP:
		cfa = bp + r->cfa_off;
		break;
	case UNWIND_CFA_REG:
		/* another register: known in the leaf frame only */
		if (!w->leaf)
			return WALK_INVALID;
		cfa = w->regs[aux & 15] + r->cfa_off;
		break;
	case UNWIND_CFA_PLT:
		cfa = sp + r->cfa_off + ((w->ip & 15) >= aux ? 8 : 0);
		break;
	case UNWIND_CFA_DEREF:
		if (!w->leaf && aux != R_RBP && aux != R_RSP)
			return WALK_INVALID;
		if (uwalk__read(w, &cfa, w->regs[aux & 15] + r->cfa_off))
			return WALK_FAULT;
		break;
	case UNWIND_CFA_SIGNAL:
		return uwalk__signal(w);
	case UNWIND_CFA_END:
		return WALK_COMPLETE;
	default:
		return WALK_INVALID;
	}
	if (uwalk__read(w, &ra, cfa - 8))
		return WALK_FAULT;
	switch (r->rbp_type) {
	case UNWIND_RBP_CFA:
		if (uwalk__read(w, &bp, cfa + r->rbp_off))
			return WALK_FAULT;
		break;
	case UNWIND_RBP_REG:
		if (uwalk__read(w, &bp, w->regs[R_RBP] + r->rbp_off))
			return WALK_FAULT;
		break;
	case UNWIND_RBP_UNDEF:
		bp = 0;
		break;
	}
	/* the stack grows down: a caller's frame is above (signal frames aside) */
	if (cfa <= sp || !ra || (__s64)ra < 0)
		return WALK_INVALID;
	uwalk__caller(w, ra, cfa, bp, false);
	return -1;
}

/* Ask user space for the table of binary @want (once an epoch). */
static __always_inline void uwalk__want(__u32 want)
{
	__u32 *seen = bpf_map_lookup_elem(&unwind_wanted, &want), epoch = unwind_epoch;

	if (!seen || *seen != epoch)
		bpf_map_update_elem(&unwind_wanted, &want, &epoch, BPF_ANY);
}

/*
 * bpf_loop's context must be on the stack, and so must pointers (a pointer
 * stored in a map value is a plain number to the verifier).
 */
struct uwalk_ctx {
	struct uwalk *w;
	struct unwind_proc *proc;
	__u64 *ips; /* BPFPROF_SCRATCH_FRAMES of them */
};

_Static_assert((BPFPROF_SCRATCH_FRAMES & (BPFPROF_SCRATCH_FRAMES - 1)) == 0,
	       "the walk masks frame indexes with BPFPROF_SCRATCH_FRAMES - 1");

static long uwalk_step(__u32 i, struct uwalk_ctx *c)
{
	struct uwalk *w = c->w;
	__u32 n = i + 1; /* ips[0] is the leaf; step i finds frame i + 1 */
	struct unwind_map *m;
	struct unwind_row *r;
	int end;

	if (n >= w->want || n >= BPFPROF_SCRATCH_FRAMES) {
		w->end = WALK_TRUNCATED;
		return 1;
	}
	m = uwalk__map(c->proc, w->ip, &w->last_map);
	if (!m && !cfg_unwind_fallback) {
		w->end = WALK_NO_MAPPING;
		return 1;
	}
	/* no mapping known yet (mapped a moment ago): a flagged frame-pointer step */
	r = m && m->bin < UNWIND_ANON ? uwalk__row(m->bin, w->ip - m->bias - !w->exact) : NULL;
	/* a signal trampoline: its own ip is named as it is */
	/* masked: a bound the verifier keeps however the compiler spills i */
	if (r && UNWIND_TYPE(r->cfa_type) == UNWIND_CFA_SIGNAL)
		c->ips[i & (BPFPROF_SCRATCH_FRAMES - 1)] |= STACK_IP_EXACT;
	if (m && m->bin == UNWIND_NO_TABLE && m->want)
		uwalk__want(m->want);
	if (r && UNWIND_TYPE(r->cfa_type) != UNWIND_CFA_NONE) {
		end = uwalk__dwarf_step(w, r);
	} else if (!cfg_unwind_fallback && m->bin != UNWIND_ANON) {
		end = WALK_NO_TABLE;
	} else {
		end = regs__fp_step(&w->ip, &w->regs[R_RSP], &w->regs[R_RBP],
				    w->regs[R_RSP] + cfg_stack_span) ?
			      (m ? WALK_FP_END : WALK_NO_MAPPING) :
			      -1;
		w->exact = false;
		if (end < 0 && (!m || m->bin == UNWIND_NO_TABLE))
			w->fp_frames++;
	}
	if (end >= 0) {
		w->end = end;
		return 1;
	}
	w->leaf = false;
	c->ips[n & (BPFPROF_SCRATCH_FRAMES - 1)] = w->ip | (w->exact ? STACK_IP_EXACT : 0);
	w->n = n + 1;
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct uwalk);
} uwalk_scratch SEC(".maps");

/*
 * A process forked a moment ago has no mapping table until user space
 * reads its fork from the side band, but until it execs it has its
 * parent's mappings (bar what either maps or unmaps since): the parent's
 * table, if the two still share the executable's file (an exec opens it
 * anew, a fork shares it). Short-lived children (a shell's, a build's,
 * a server's workers) were walked by frame pointers, cut at the first
 * frameless function: 47% of the walks of a minute of tests/workloads/churn.
 */
static __always_inline struct unwind_proc *unwind__parent_table(struct task_struct *task)
{
	struct task_struct *parent = BPF_CORE_READ(task, real_parent);
	struct file *exe = BPF_CORE_READ(task, mm, exe_file);
	__u32 ptgid;

	if (!parent || !exe || exe != BPF_CORE_READ(parent, mm, exe_file))
		return NULL;
	ptgid = BPF_CORE_READ(parent, tgid);
	return bpf_map_lookup_elem(&unwind_procs, &ptgid);
}

/*
 * Walk the user stack of @task (the current one) by its DWARF tables into
 * @ips (room for BPFPROF_SCRATCH_FRAMES), at most @want frames; returns
 * the number of frames (@want: cut), the stack flags in *@flags; -1 when
 * the unwinder knows no mapping of the process (the caller walks frame
 * pointers instead, or keeps the leaf).
 */
static __noinline int unwind_user(struct bpf_perf_event_data *ctx, __u64 *ips, __u32 *flags,
				  struct task_struct *task, __u32 want)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	struct uwalk *w = bpf_map_lookup_elem(&uwalk_scratch, &zero);
	struct uwalk_ctx c = { .w = w, .ips = ips };

	if (!w)
		return 0;
	w->n = 0;
	w->want = want;
	w->end = WALK_NO_MAPPING;
	w->fp_frames = 0;
	w->last_map = ~0u;
	w->exact = true;
	w->leaf = true;
	w->win_len = 0;
	c.proc = bpf_map_lookup_elem(&unwind_procs, &tgid);
	if (!c.proc)
		c.proc = unwind__parent_table(task);
	if (!c.proc) {
		stat_inc(STAT_WALK_FIRST + WALK_NO_PROCESS);
		return -1;
	}
	if (!regs__user(ctx, task, w->regs, &w->ip) || !w->ip)
		return 0;
	ips[0] = w->ip;
	w->n = 1;
	bpf_loop(BPFPROF_SCRATCH_FRAMES, uwalk_step, &c, 0);
	stat_inc(STAT_WALK_FIRST + (w->end < WALK__MAX ? w->end : WALK_INVALID));
	if (w->fp_frames) {
		*flags |= STACK_F_FP_FALLBACK;
		stat_add(STAT_WALK_FP_FRAMES, w->fp_frames);
	}
	return w->n;
}

#endif /* BPFPROF_UNWIND_BPF_H */
