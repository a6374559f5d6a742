// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader.h"
#include "record.skel.h"

struct loader {
	struct record_bpf *skel;
	struct bpf_link *fork_link, *exec_link;
	size_t stack_size;
	unsigned int max_stacks; /* counts entries of a stack set; stacks get twice that */
	size_t range_page_size; /* value size of range_pages */
	size_t unwind_proc_size; /* value size of unwind_procs */
	bool unwind;             /* the unwind maps are in use */
	struct unwind_bin *bins; /* unwind_bins, mmap'd */
	size_t bins_len;         /* its mapped bytes */
	int ncpus;
};

static char loader__errbuf[1024];

static int loader__print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t len;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(loader__errbuf, sizeof(loader__errbuf), fmt, ap);
	len = strlen(loader__errbuf);
	while (len && loader__errbuf[len - 1] == '\n')
		loader__errbuf[--len] = '\0';
	return 0;
}

const char *loader__error(void)
{
	return loader__errbuf;
}

static void loader__configure(struct record_bpf *skel, const struct loader_cfg *cfg)
{
	struct record_bpf__rodata *ro = skel->rodata;

	ro->cfg_max_depth = cfg->max_depth;
	ro->cfg_kernel_max = cfg->kernel_max;
	ro->cfg_user_stacks = cfg->user_stacks;
	ro->cfg_kernel_stacks = cfg->kernel_stacks;
	ro->cfg_filter_tgid = cfg->filter_tgid;
	ro->cfg_filter_tid = cfg->filter_tid;
	ro->cfg_filter_cgroup = cfg->filter_cgroup;
	ro->cfg_idle = cfg->idle;
	ro->cfg_per_thread = cfg->per_thread;
	ro->cfg_ranges = cfg->ranges;
	if (cfg->ranges) {
		ro->cfg_range_slots = cfg->range_slots;
		ro->cfg_range_shift = cfg->range_shift;
		ro->cfg_range_stacks = cfg->range_stacks;
	}
	ro->cfg_unwind = cfg->unwind;
	ro->cfg_unwind_fallback = cfg->unwind_fallback;
	ro->cfg_unwind_maps = cfg->unwind ? cfg->unwind_maps : 1;
	ro->cfg_watch = cfg->watch;
	ro->cfg_watch_values = cfg->watch_values;
	ro->cfg_watch_count = cfg->watch_count;
	ro->cfg_watch_nr_terms = cfg->watch_nr_terms;
	memcpy((void *)ro->cfg_watch_terms, cfg->watch_terms, sizeof(cfg->watch_terms));
	ro->cfg_stop_at_exec = cfg->stop_at_exec;
}

/* Nonzero, as a map's max_entries must be. */
static unsigned int at_least_one(unsigned int n)
{
	return n ? n : 1;
}

/* The range maps: sized for bpfprof range, one entry each for record. */
static int loader__size_range_maps(struct loader *l, const struct loader_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	unsigned int slots = cfg->ranges ? at_least_one(cfg->range_slots) : 1;
	int err;

	l->range_page_size = slots * sizeof(struct range_slot);
	err = bpf_map__set_value_size(skel->maps.range_pages, l->range_page_size);
	if (!cfg->ranges)
		return err;
	err = err ?: bpf_map__set_max_entries(skel->maps.range_pages,
					      at_least_one(cfg->range_pages));
	err = err ?: bpf_map__set_max_entries(skel->maps.range_counts,
					      at_least_one(cfg->range_addrs));
	err = err ?: bpf_map__set_max_entries(skel->maps.range_hits,
					      at_least_one(cfg->range_hit_keys));
	return err;
}

/* The unwinder's maps: sized for --unwind=dwarf|auto, one entry each otherwise. */
static int loader__size_unwind_maps(struct loader *l, const struct loader_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	bool on = cfg->unwind;
	int err;

	l->unwind_proc_size = sizeof(struct unwind_proc) +
			      (size_t)(on ? cfg->unwind_maps : 1) * sizeof(struct unwind_map);
	err = bpf_map__set_value_size(skel->maps.unwind_procs, l->unwind_proc_size);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_procs,
					      on ? at_least_one(cfg->unwind_procs) : 1);
	err = err ?: bpf_map__set_max_entries(
		skel->maps.unwind_rows,
		on ? at_least_one((cfg->unwind_rows + UNWIND_ROW_PAIR - 1) / UNWIND_ROW_PAIR) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_pages,
					      on ? at_least_one(cfg->unwind_pages) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_bins,
					      on ? at_least_one(cfg->unwind_bins) : 1);
	err = err ?: bpf_map__set_max_entries(skel->maps.unwind_wanted,
					      on ? at_least_one(cfg->unwind_bins) : 1);
	return err;
}

/* Map an mmapable array map read-write: *@len bytes at the result, or NULL. */
static void *loader__mmap(const struct bpf_map *map, size_t *len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t elem = (bpf_map__value_size(map) + 7) & ~(size_t)7;
	void *p;

	*len = (elem * bpf_map__max_entries(map) + page - 1) & ~(size_t)(page - 1);
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Stack set @set's maps (bpfprof.h). */
static struct bpf_map *loader__stacks(const struct loader *l, unsigned int set)
{
	return set ? l->skel->maps.stacks1 : l->skel->maps.stacks0;
}

static struct bpf_map *loader__counts(const struct loader *l, unsigned int set)
{
	return set ? l->skel->maps.counts1 : l->skel->maps.counts0;
}

/* The watch maps: sized for bpfprof watch, one entry each otherwise. */
static int loader__size_watch_maps(struct loader *l, const struct loader_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	int err;

	if (!cfg->watch)
		return 0;
	err = bpf_map__set_max_entries(skel->maps.watch_locs, at_least_one(cfg->watch_addrs));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_counts,
					      at_least_one(cfg->watch_locs));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_ips,
					      at_least_one(cfg->watch_keys));
	err = err ?: bpf_map__set_max_entries(skel->maps.watch_values,
					      cfg->watch_values ? at_least_one(cfg->watch_keys) : 1);
	return err;
}

static int loader__size_maps(struct loader *l, const struct loader_cfg *cfg)
{
	struct record_bpf *skel = l->skel;
	int err = 0;

	l->stack_size = sizeof(struct stack_trace) + (size_t)cfg->max_depth * sizeof(__u64);
	l->max_stacks = cfg->max_stacks;
	for (unsigned int set = 0; set < STACK_SETS && !err; set++) {
		err = bpf_map__set_value_size(loader__stacks(l, set), l->stack_size);
		err = err ?: bpf_map__set_max_entries(loader__stacks(l, set),
						      2 * cfg->max_stacks);
		err = err ?: bpf_map__set_max_entries(loader__counts(l, set), cfg->max_stacks);
	}
	err = err ?: bpf_map__set_max_entries(skel->maps.event_stats,
					      at_least_one(cfg->events) * EVENT_STAT__MAX);
	err = err ?: bpf_map__set_max_entries(skel->maps.target_tgids, cfg->max_targets);
	err = err ?: bpf_map__set_max_entries(skel->maps.target_tids, cfg->max_targets);
	err = err ?: loader__size_unwind_maps(l, cfg);
	err = err ?: loader__size_watch_maps(l, cfg);
	return err ?: loader__size_range_maps(l, cfg);
}

struct loader *loader__load(const struct loader_cfg *cfg)
{
	struct loader *l = calloc(1, sizeof(*l));
	int err = -ENOMEM;

	libbpf_set_print(loader__print);
	if (!l)
		goto fail;
	l->ncpus = libbpf_num_possible_cpus();
	l->skel = record_bpf__open();
	if (!l->skel) {
		err = -errno;
		goto fail;
	}
	loader__configure(l->skel, cfg);
	err = loader__size_maps(l, cfg);
	if (err)
		goto fail;
	bpf_program__set_autoload(l->skel->progs.bpfprof_empty, cfg->empty_handler);
	bpf_program__set_autoload(l->skel->progs.bpfprof_sample, !cfg->empty_handler);
	bpf_program__set_autoload(l->skel->progs.bpfprof_fork, cfg->filter_tgid);
	bpf_program__set_autoload(l->skel->progs.bpfprof_exec, cfg->filter_tgid);
	err = record_bpf__load(l->skel);
	if (err)
		goto fail;
	if (cfg->unwind) {
		/* rows and pages: mapped a window at a time (loader__write_unwind) */
		l->unwind = true;
		l->bins = loader__mmap(l->skel->maps.unwind_bins, &l->bins_len);
		if (!l->bins) {
			err = -errno;
			goto fail;
		}
	}
	return l;
fail:
	loader__free(l);
	errno = -err;
	return NULL;
}

void loader__free(struct loader *l)
{
	if (!l)
		return;
	if (l->bins)
		munmap(l->bins, l->bins_len);
	bpf_link__destroy(l->fork_link);
	bpf_link__destroy(l->exec_link);
	record_bpf__destroy(l->skel);
	free(l);
}

int loader__sample_fd(const struct loader *l)
{
	const struct bpf_program *p = bpf_program__autoload(l->skel->progs.bpfprof_empty) ?
					      l->skel->progs.bpfprof_empty :
					      l->skel->progs.bpfprof_sample;

	return bpf_program__fd(p);
}

int loader__attach_followers(struct loader *l)
{
	l->fork_link = bpf_program__attach(l->skel->progs.bpfprof_fork);
	if (!l->fork_link)
		return -errno;
	l->exec_link = bpf_program__attach(l->skel->progs.bpfprof_exec);
	if (!l->exec_link)
		return -errno;
	return 0;
}

static int loader__update(const struct bpf_map *map, __u32 id, __u8 state)
{
	return bpf_map__update_elem(map, &id, sizeof(id), &state, sizeof(state), BPF_ANY);
}

int loader__add_tgid(struct loader *l, __u32 tgid, enum target_state state)
{
	return loader__update(l->skel->maps.target_tgids, tgid, state);
}

int loader__add_tid(struct loader *l, __u32 tid)
{
	return loader__update(l->skel->maps.target_tids, tid, TARGET_ACTIVE);
}

int loader__set_cgroup(struct loader *l, int cgroup_fd)
{
	__u32 zero = 0, fd = cgroup_fd;

	return bpf_map__update_elem(l->skel->maps.target_cgroup, &zero, sizeof(zero), &fd,
				    sizeof(fd), BPF_ANY);
}

/* Entries @first .. @first + @n of per-CPU array @map: sums and per-CPU maxima. */
static int loader__read_percpu(struct loader *l, struct bpf_map *map, __u32 first, __u32 n,
			       uint64_t *sum, uint64_t *max)
{
	__u64 *vals = calloc(l->ncpus, sizeof(*vals));
	int err = 0;

	if (!vals)
		return -ENOMEM;
	for (__u32 i = 0; i < n && !err; i++) {
		__u32 key = first + i;

		sum[i] = 0;
		if (max)
			max[i] = 0;
		err = bpf_map__lookup_elem(map, &key, sizeof(key), vals,
					   l->ncpus * sizeof(*vals), 0);
		for (int c = 0; c < l->ncpus && !err; c++) {
			sum[i] += vals[c];
			if (max && vals[c] > max[i])
				max[i] = vals[c];
		}
	}
	free(vals);
	return err;
}

int loader__read_stats(struct loader *l, uint64_t *sum, uint64_t *max)
{
	return loader__read_percpu(l, l->skel->maps.stats, 0, STAT__MAX, sum, max);
}

int loader__read_event_stats(struct loader *l, unsigned int event, uint64_t *sum,
			     uint64_t *max)
{
	struct bpf_map *map = l->skel->maps.event_stats;

	if ((uint64_t)(event + 1) * EVENT_STAT__MAX > bpf_map__max_entries(map))
		return -ENOENT;
	return loader__read_percpu(l, map, event * EVENT_STAT__MAX, EVENT_STAT__MAX, sum, max);
}

typedef int (*loader_entry_fn)(const void *key, const void *val, void *ctx);

/*
 * Batched: one syscall per batch instead of two per key; @ksize-byte keys,
 * @vsize-byte values; @take: each batch deleted as it is read.
 */
static int loader__batch(int fd, size_t ksize, size_t vsize, bool take, __u32 batch,
			 loader_entry_fn fn, void *ctx)
{
	char *keys = calloc(batch, ksize), *vals = calloc(batch, vsize);
	__u64 out_batch;
	void *in = NULL;
	int err = -ENOMEM;

	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	if (!keys || !vals)
		goto out;
	for (;;) {
		__u32 n = batch;

		err = take ? bpf_map_lookup_and_delete_batch(fd, in, &out_batch, keys, vals, &n,
							     &opts) :
			     bpf_map_lookup_batch(fd, in, &out_batch, keys, vals, &n, &opts);
		if (err && errno != ENOENT) {
			err = -errno;
			break;
		}
		for (__u32 i = 0; i < n; i++) {
			int e = fn(keys + i * ksize, vals + i * vsize, ctx);

			if (e) {
				err = e;
				goto out;
			}
		}
		if (err) { /* ENOENT: that was the last batch */
			err = 0;
			break;
		}
		in = &out_batch;
	}
out:
	free(keys);
	free(vals);
	return err;
}

struct loader_counts {
	loader_count_fn fn;
	void *ctx;
};

static int loader__count_entry(const void *key, const void *val, void *ctx)
{
	struct loader_counts *c = ctx;

	return c->fn(key, *(const __u64 *)val, c->ctx);
}

static int loader__counts_batch(int fd, size_t ksize, bool take, loader_count_fn fn, void *ctx)
{
	struct loader_counts c = { fn, ctx };

	return loader__batch(fd, ksize, sizeof(__u64), take, 4096, loader__count_entry, &c);
}

int loader__take_counts(struct loader *l, unsigned int set, loader_count_fn fn, void *ctx)
{
	int err = loader__counts_batch(bpf_map__fd(loader__counts(l, set)),
				       sizeof(struct sample_key), true, fn, ctx);

	if (!err)
		__atomic_store_n(&l->skel->bss->stack_fill[set].counts, 0, __ATOMIC_RELAXED);
	return err;
}

struct loader_stacks {
	loader_stack_fn fn;
	void *ctx;
};

static int loader__stack_entry(const void *key, const void *val, void *ctx)
{
	struct loader_stacks *c = ctx;

	return c->fn(key, val, c->ctx);
}

int loader__take_stacks(struct loader *l, unsigned int set, loader_stack_fn fn, void *ctx)
{
	struct loader_stacks c = { fn, ctx };
	/* a small batch: every value is a whole stack */
	int err = loader__batch(bpf_map__fd(loader__stacks(l, set)), sizeof(struct stack_id),
				l->stack_size, true, 256, loader__stack_entry, &c);

	if (!err)
		__atomic_store_n(&l->skel->bss->stack_fill[set].stacks, 0, __ATOMIC_RELAXED);
	return err;
}

int loader__for_each_range_count(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.range_counts),
				    sizeof(struct range_addr_key), false, fn, ctx);
}

int loader__set_watch_addr(struct loader *l, __u64 addr, const struct watch_loc *loc)
{
	return bpf_map__update_elem(l->skel->maps.watch_locs, &addr, sizeof(addr), loc,
				    sizeof(*loc), BPF_ANY);
}

int loader__watch_count(struct loader *l, __u32 index, struct watch_count *out)
{
	struct watch_count *vals = calloc(l->ncpus, sizeof(*vals));
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!vals)
		return err;
	err = bpf_map__lookup_elem(l->skel->maps.watch_counts, &index, sizeof(index), vals,
				   l->ncpus * sizeof(*vals), 0);
	for (int c = 0; c < l->ncpus && !err; c++) {
		out->kept += vals[c].kept;
		out->dropped += vals[c].dropped;
		out->over += vals[c].over;
	}
	free(vals);
	return err;
}

uint64_t loader__watch_total(const struct loader *l)
{
	return __atomic_load_n(&l->skel->bss->watch_total, __ATOMIC_RELAXED);
}

int loader__for_each_watch_ip(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.watch_ips),
				    sizeof(struct watch_ip_key), false, fn, ctx);
}

int loader__for_each_watch_value(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.watch_values),
				    sizeof(struct watch_value_key), false, fn, ctx);
}

int loader__set_range_page(struct loader *l, const struct range_page_key *key,
			   const struct range_slot *slots)
{
	return bpf_map__update_elem(l->skel->maps.range_pages, key, sizeof(*key), slots,
				    l->range_page_size, BPF_ANY);
}

int loader__get_range_page(struct loader *l, const struct range_page_key *key,
			   struct range_slot *slots)
{
	return bpf_map__lookup_elem(l->skel->maps.range_pages, key, sizeof(*key), slots,
				    l->range_page_size, 0);
}

int loader__delete_range_page(struct loader *l, const struct range_page_key *key)
{
	return bpf_map__delete_elem(l->skel->maps.range_pages, key, sizeof(*key), 0);
}

int loader__for_each_range_hit(struct loader *l, loader_count_fn fn, void *ctx)
{
	return loader__counts_batch(bpf_map__fd(l->skel->maps.range_hits),
				    sizeof(struct range_hit_key), false, fn, ctx);
}

unsigned int loader__stack_set(const struct loader *l)
{
	return __atomic_load_n(&l->skel->bss->stack_set, __ATOMIC_RELAXED);
}

double loader__stack_set_use(const struct loader *l, unsigned int set)
{
	struct stack_set_fill *f = &l->skel->bss->stack_fill[set];
	double stacks = (double)__atomic_load_n(&f->stacks, __ATOMIC_RELAXED) /
			(2.0 * l->max_stacks);
	double counts = (double)__atomic_load_n(&f->counts, __ATOMIC_RELAXED) / l->max_stacks;

	return stacks > counts ? stacks : counts;
}

/*
 * The grace period: MEMBARRIER_CMD_GLOBAL is synchronize_rcu() in the
 * kernel, which returns once every CPU has left the code it was running in
 * a non-preemptible context (a perf event's overflow handler runs its
 * program in interrupt context, under rcu_read_lock), so every program that
 * read the old stack_set has returned. One CPU online: nothing can be in
 * flight while we run, and the kernel returns at once.
 */
int loader__switch_stack_set(struct loader *l, unsigned int *old)
{
	unsigned int set = loader__stack_set(l);

	__atomic_store_n(&l->skel->bss->stack_set, set ^ 1, __ATOMIC_SEQ_CST);
	*old = set;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		return -errno;
	return 0;
}

size_t loader__stack_size(const struct loader *l)
{
	return l->stack_size;
}

size_t loader__unwind_rows(const struct loader *l)
{
	return l->unwind ? bpf_map__max_entries(l->skel->maps.unwind_rows) * UNWIND_ROW_PAIR : 0;
}

size_t loader__unwind_pages(const struct loader *l)
{
	return l->unwind ? bpf_map__max_entries(l->skel->maps.unwind_pages) : 0;
}

/*
 * Copy @len bytes to byte @off of the mmapable array map @map through a
 * mapping of the pages they cover alone: the kernel maps every page of a
 * mapping at once, so a whole-map mapping would make all of the map
 * resident in bpfprof (28 MiB of rows at the default --unwind-memory)
 * where the stack maps, written by syscalls, are not.
 */
static int loader__write_array(const struct bpf_map *map, size_t off, const void *src,
			       size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE), start = off & ~(page - 1);
	size_t end = (off + len + page - 1) & ~(page - 1);
	char *p;

	p = mmap(NULL, end - start, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(map), start);
	if (p == MAP_FAILED)
		return -errno;
	memcpy(p + (off - start), src, len);
	munmap(p, end - start);
	return 0;
}

int loader__write_unwind_rows(struct loader *l, size_t first, const struct unwind_row *rows,
			      size_t n)
{
	if (first + n > loader__unwind_rows(l))
		return -ERANGE;
	return n ? loader__write_array(l->skel->maps.unwind_rows, first * sizeof(*rows), rows,
				       n * sizeof(*rows)) :
		   0;
}

int loader__write_unwind_pages(struct loader *l, size_t first, const __u64 *pages, size_t n)
{
	if (first + n > loader__unwind_pages(l))
		return -ERANGE;
	return n ? loader__write_array(l->skel->maps.unwind_pages, first * sizeof(*pages), pages,
				       n * sizeof(*pages)) :
		   0;
}

struct unwind_bin *loader__unwind_bins(struct loader *l, size_t *nr)
{
	*nr = l->bins ? bpf_map__max_entries(l->skel->maps.unwind_bins) : 0;
	return l->bins;
}

void loader__set_unwind_epoch(struct loader *l, __u32 epoch)
{
	__atomic_store_n(&l->skel->bss->unwind_epoch, epoch, __ATOMIC_RELAXED);
}

int loader__take_unwind_wanted(struct loader *l, __u32 *ids, size_t max, size_t *nr)
{
	int fd = bpf_map__fd(l->skel->maps.unwind_wanted);
	__u32 key, next;
	bool first = true;

	*nr = 0;
	while (*nr < max && !bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		ids[(*nr)++] = next;
		key = next;
		first = false;
	}
	/* deleted after the walk: deleting while iterating restarts it */
	for (size_t i = 0; i < *nr; i++)
		bpf_map_delete_elem(fd, &ids[i]);
	return 0;
}

void loader__drop_cached_rows(struct loader *l)
{
	__atomic_fetch_add(&l->skel->bss->unwind_gen, 1, __ATOMIC_RELEASE);
}

size_t loader__unwind_proc_size(const struct loader *l)
{
	return l->unwind_proc_size;
}

int loader__set_unwind_proc(struct loader *l, __u32 tgid, const struct unwind_proc *p)
{
	return bpf_map__update_elem(l->skel->maps.unwind_procs, &tgid, sizeof(tgid), p,
				    l->unwind_proc_size, BPF_ANY);
}

int loader__delete_unwind_proc(struct loader *l, __u32 tgid)
{
	return bpf_map__delete_elem(l->skel->maps.unwind_procs, &tgid, sizeof(tgid), 0);
}

int loader__enable_stats(void)
{
	return bpf_enable_stats(BPF_STATS_RUN_TIME);
}

int loader__prog_stats(struct loader *l, uint64_t *run_ns, uint64_t *run_cnt)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	int err = bpf_obj_get_info_by_fd(loader__sample_fd(l), &info, &len);

	if (err)
		return -errno;
	*run_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}
