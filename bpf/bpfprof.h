/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one header shared by the BPF programs and user space: the layout of
 * every map key and value, flags and statistics indexes. Nothing else may
 * be shared; change this file and both sides change together.
 */
#ifndef BPFPROF_H
#define BPFPROF_H

#include <linux/types.h>

#define BPFPROF_COMM_LEN 16

/*
 * Upper bound on the frames of one stack: a kernel stack bpf_get_stack()
 * copies, or a user stack the program walks.
 * It only sizes the per-CPU scratch buffer; the depth actually used is
 * --max-depth (set in rodata before load) and the stack map's value size
 * follows it, so no option needs a rebuild. The kernel clamps every walk to
 * kernel.perf_event_max_stack (127 by default) anyway.
 */
#define BPFPROF_SCRATCH_FRAMES 1024

/* A stack's identity: 128 bits of two independent hashes. {0, 0} = none. */
struct stack_id {
	__u64 lo;
	__u64 hi;
};

/* stacks map value; the map's value size is 8 + 8 * max_depth. */
struct stack_trace {
	__u32 nr;    /* frames stored in ips[] */
	__u32 flags; /* STACK_F_* */
	__u64 ips[];
};

#define STACK_F_TRUNCATED (1u << 0) /* deeper than max_depth */

/*
 * In a user stack, an ip that is where execution was rather than a return
 * address (a signal trampoline, the frame a signal interrupted): symbolized
 * as it is, not at ip - 1. User addresses are below 2^47.
 */
#define STACK_IP_EXACT (1ull << 63)

/*
 * Two stack sets: every map a sample stores into (stacks and counts) twice,
 * so user space drains one while samples go to the other. The program reads
 * stack_set (.bss) once per sample and stores the sample's stacks and count
 * in that set alone; user space flips stack_set, waits for a grace period
 * (every program that read the old value has returned), then drains and
 * clears the old set. stack_fill[set] counts the entries the program added
 * to each set since user space last cleared it (the fill threshold).
 */
#define STACK_SETS 2

struct stack_set_fill {
	__u32 stacks; /* stacks map entries inserted */
	__u32 counts; /* counts map entries inserted */
};

/* counts map key: one per (event, process, thread if asked, comm, stacks). */
struct sample_key {
	__u32 tgid;
	__u32 tid; /* 0 unless per-thread keys are on */
	struct stack_id ustack;
	struct stack_id kstack;
	char comm[BPFPROF_COMM_LEN];
	__u32 flags; /* SAMPLE_F_* */
	__u32 range; /* bpfprof range --stacks: 1 + the range's id; else 0 */
	__u32 event; /* the -e event's index: its attach cookie (0: the first, or the only) */
	__u32 pad;
};

#define SAMPLE_F_USER_MODE (1u << 0)   /* the sample hit user mode */
#define SAMPLE_F_KTHREAD (1u << 1)     /* a kernel thread: no user stack */
#define SAMPLE_F_USTACK_FAULT (1u << 2) /* user stack could not be read */

/* targets map values (tgid or tid -> state) */
enum target_state {
	TARGET_ACTIVE = 1,
	TARGET_PENDING_EXEC = 2, /* command mode: counts only after its exec */
};

/*
 * bpfprof range. The ranges are kept per page: range_pages maps {process
 * (0 for kernel addresses), address >> cfg_range_shift} to the ranges that
 * overlap that page, cfg_range_slots of them at most (the map's value size
 * is cfg_range_slots * sizeof(struct range_slot), set before load); the
 * used slots come first, an unused one has end 0. A sample in a range is
 * counted in range_counts under {range, ip - base} and in range_hits under
 * {range, process}. User space alone writes range_pages, also while
 * sampling runs (libraries and processes that appear later).
 */
struct range_page_key {
	__u32 tgid; /* 0: kernel addresses */
	__u32 pad;
	__u64 page; /* address >> cfg_range_shift */
};

struct range_slot {
	__u64 start, end; /* absolute addresses [start, end) in that process */
	__u64 base;       /* the address counted is ip - base (an ELF vaddr for a binary) */
	__u32 id;         /* the range: index of its RANGE argument */
	__u32 pad;
};

/* range_hits key: samples per (range, process); tgid 0 for the kernel's */
struct range_hit_key {
	__u32 id;
	__u32 tgid;
};

/* range_counts key: samples per (range, address) */
struct range_addr_key {
	__u32 id;
	__u32 pad;
	__u64 addr;
};

#define RANGE_PAGE_SHIFT 12 /* the smallest page the range check uses */

/*
 * bpfprof watch. Each event is a hardware breakpoint whose sample address
 * (bpf_perf_event_data.addr) is the watched address: watch_locs maps it to
 * the location's index and size. User space alone writes watch_locs (an
 * address in every process it is resolved in; a moved breakpoint, later,
 * gets its new address's entry). The access is counted per location in
 * watch_counts (per CPU, by index), per (location, process, trap ip) in
 * watch_ips, and with --values per (location, value) in watch_values.
 */
struct watch_loc {
	__u32 index; /* the LOCATION argument's */
	__u32 len;   /* bytes watched: 1, 2, 4 or 8 */
	__u32 kernel; /* a kernel address (read with bpf_probe_read_kernel) */
	__u32 pad;
};

struct watch_count {
	__u64 kept;    /* accesses that matched --if (all without it) */
	__u64 dropped; /* accesses --if dropped */
	__u64 over;    /* matching accesses after --count was reached */
};

/* --if: terms joined by &&; at most WATCH_MAX_TERMS (documented). */
#define WATCH_MAX_TERMS 8

enum watch_operand {
	WATCH_VALUE, /* the watched bytes, zero-extended (sign-extended if signed) */
	WATCH_REG,   /* a register of the accessing thread: reg (DWARF number, 16 = ip) */
	WATCH_TID,
	WATCH_PID,
};

enum watch_cmp { WATCH_EQ, WATCH_NE, WATCH_LT, WATCH_LE, WATCH_GT, WATCH_GE };

#define WATCH_REG_IP 16

struct watch_term {
	__u8 operand; /* enum watch_operand */
	__u8 reg;     /* WATCH_REG: 0-15 DWARF numbering, WATCH_REG_IP */
	__u8 cmp;     /* enum watch_cmp */
	__u8 is_signed; /* compare as signed 64-bit numbers */
	__u32 pad;
	__u64 mask;   /* operand & mask first (~0: none) */
	__u64 constant;
};

struct watch_ip_key {
	__u32 index; /* location */
	__u32 tgid;  /* 0: kernel */
	__u64 ip;    /* where the trap was taken (after a data access) */
};

struct watch_value_key {
	__u32 index;
	__u32 pad;
	__u64 value;
};

/*
 * DWARF unwinding (bpfprof record --unwind). A binary's CFI (.eh_frame,
 * .debug_frame) is compiled in user space (src/cfi/cfitable.c) into rows sorted
 * by pc: from a row's pc up to the next row's, the caller's frame is found
 * by that row's rules. The return address is always at CFA - 8 (x86-64),
 * except where the row says otherwise (signal frame, end of stack). Rows
 * are grouped in pages of 1 << UNWIND_PAGE_SHIFT bytes of the binary's
 * address space: a page's index entry is the row in force at the page's
 * start, so a lookup is one index read and a bounded binary search.
 */
#define UNWIND_PAGE_SHIFT 12
#define UNWIND_SEARCH_STEPS 13 /* log2 of the most rows a page can hold, + 1 */

enum unwind_cfa_type {
	UNWIND_CFA_NONE,    /* no CFI covers the pc: a frame-pointer step, flagged */
	UNWIND_CFA_RSP,     /* CFA = rsp + cfa_off */
	UNWIND_CFA_RBP,     /* CFA = rbp + cfa_off */
	UNWIND_CFA_REG,     /* CFA = register (UNWIND_AUX: DWARF number) + cfa_off; leaf only */
	UNWIND_CFA_PLT,     /* CFA = rsp + cfa_off + ((rip & 15) >= UNWIND_AUX ? 8 : 0) */
	UNWIND_CFA_DEREF,   /* CFA = *(register UNWIND_AUX + cfa_off) (stack realignment) */
	UNWIND_CFA_SIGNAL,  /* a signal trampoline: rip, rsp, rbp from the ucontext at rsp */
	UNWIND_CFA_END,     /* the outermost frame: the return address is undefined */
	UNWIND_CFA_INVALID, /* CFI this unwinder cannot follow (e.g. RA not at CFA - 8) */
};

enum unwind_rbp_type {
	UNWIND_RBP_SAME,    /* the caller's rbp is the current one */
	UNWIND_RBP_CFA,     /* saved at CFA + rbp_off */
	UNWIND_RBP_REG,     /* saved at rbp + rbp_off (DW_CFA_expression DW_OP_breg6) */
	UNWIND_RBP_UNDEF,   /* not recoverable: the caller's rbp is unknown */
};

/* cfa_type: the rule in the low 4 bits, its auxiliary value in the high 4 */
#define UNWIND_TYPE(t) ((t) & 0xf)
#define UNWIND_AUX(t) (((t) >> 4) & 0xf)
#define UNWIND_CFA(type, aux) ((__u8)(((aux) << 4) | (type)))

struct unwind_row {
	__u32 pc;       /* ELF vaddr - the table's base */
	__s32 cfa_off;
	__s16 rbp_off;
	__u8 cfa_type;  /* UNWIND_CFA(enum unwind_cfa_type, aux) */
	__u8 rbp_type;  /* enum unwind_rbp_type */
};

/*
 * The unwinder's maps. unwind_rows holds every loaded binary's rows, each
 * binary's contiguously, two rows per element; unwind_pages (u64 each)
 * their page indexes, each entry the global index of a row (the binary's
 * pages[] plus its first row);
 * unwind_bins[bin] says where a binary's page index is. A process's
 * executable mappings, sorted by start, are one unwind_procs value.
 */
#define UNWIND_ROW_PAIR 2            /* rows per unwind_rows element: 24 bytes, 8-aligned,
					so the mmap'd map is one array of rows */
#define UNWIND_NO_TABLE 0xffffffffu /* unwind_map.bin: a file with no table (yet) */
#define UNWIND_ANON 0xfffffffeu     /* unwind_map.bin: anonymous code (JIT): frame pointers */
#define UNWIND_MAP_STEPS 16         /* binary search steps over a process's mappings */

struct unwind_bin {
	__u32 page_base; /* its first unwind_pages entry */
	__u32 nr_pages;  /* entries page_base .. page_base + nr_pages (one more, the end);
			    0: no table (evicted) */
	__u32 used;      /* the unwind_epoch of the last walk through it (eviction order) */
	__u32 pad;
};

struct unwind_map {
	__u64 start, end; /* absolute [start, end) */
	__u64 bias;       /* the row pc of address a is a - bias */
	__u32 bin;        /* unwind_bins index, UNWIND_NO_TABLE or UNWIND_ANON */
	__u32 want;       /* UNWIND_NO_TABLE: a walk through it puts want (user space's
			     binary id + 1; 0: none to ask for) in unwind_wanted */
};

/* unwind_procs value; the map's value size is 8 + cfg_unwind_maps * 32 */
struct unwind_proc {
	__u32 nr;  /* maps used, sorted by start */
	__u32 pad;
	struct unwind_map maps[];
};

/* How a user stack walk ended (--unwind dwarf or auto); STAT_WALK_* counts them. */
enum unwind_end {
	WALK_COMPLETE,  /* the outermost frame: its return address is undefined */
	WALK_TRUNCATED, /* deeper than max_depth */
	WALK_FP_END,    /* a frame-pointer step found no frame (no table there) */
	WALK_NO_TABLE,  /* --unwind=dwarf: a frame without a table */
	WALK_FAULT,     /* a stack read failed (not resident, or a bad address) */
	WALK_INVALID,   /* CFI this unwinder cannot follow, or no progress */
	WALK_NO_MAPPING, /* an address in no mapping the unwinder knows */
	WALK_NO_PROCESS, /* a process without a mapping table yet: frame pointers */
	WALK__MAX,
};

#define STACK_F_FP_FALLBACK (1u << 1) /* some frames came from frame pointers: no table yet */

/*
 * Per-CPU counters of each sampling event (record with several -e):
 * event_stats[event * EVENT_STAT__MAX + enum event_stat], the event its
 * attach cookie; the map holds EVENT_STAT__MAX entries per event (sized
 * before load). The stats map below keeps every event's together.
 */
enum event_stat {
	EVENT_STAT_SEEN, /* overflows of the event (STAT_SEEN's share) */
	EVENT_STAT_KEPT, /* counted in the counts map (STAT_KEPT's share) */
	EVENT_STAT_LOST, /* lost: stacks or counts map full, no scratch buffer */
	EVENT_STAT__MAX,
};

/* Per-CPU counters, index = enum bpfprof_stat. */
enum bpfprof_stat {
	STAT_SEEN,                /* every overflow the program ran for */
	STAT_KEPT,                /* counted in the counts map */
	STAT_IDLE,                /* pid 0, dropped without --idle */
	STAT_FILTERED,            /* not a target */
	STAT_DROP_STACKS_FULL,    /* lost: stacks map full */
	STAT_DROP_COUNTS_FULL,    /* lost: counts map full */
	STAT_DROP_SCRATCH,        /* lost: no scratch buffer (cannot happen) */
	STAT_USTACK_FAULT,        /* kept, user stack unreadable */
	STAT_KSTACK_FAULT,        /* kept, kernel stack unreadable */
	STAT_TRUNCATED,           /* kept, a stack deeper than max_depth */
	STAT_TARGETS_FULL,        /* a forked child could not be followed */
	STAT_OUT_OF_RANGE,        /* bpfprof range: a target's sample outside every range */
	STAT_STACKS_LOST,         /* range --stacks: counted in a range, its stack lost
				     (stacks or counts map full) */
	STAT_WATCH_UNKNOWN,       /* watch: an event whose address no location has */
	STAT_WATCH_DROPPED,       /* watch: an access --if dropped */
	STAT_WATCH_OVER,          /* watch: a matching access after --count was reached */
	STAT_WATCH_MAP_FULL,      /* watch: an access whose ip or value could not be counted */
	STAT_WALK_FIRST,          /* user walks by how they ended: + enum unwind_end */
	STAT_WALK_LAST = STAT_WALK_FIRST + WALK__MAX - 1,
	STAT_WALK_FP_FRAMES,      /* frames found by frame pointers in files with no table */
	STAT__MAX,
};

#endif /* BPFPROF_H */
