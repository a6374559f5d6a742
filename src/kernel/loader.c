// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader-internal.h"

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
	ro->cfg_stop_at_exec = cfg->stop_at_exec;
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
					      loader__at_least_one(cfg->events) * EVENT_STAT__MAX);
	err = err ?: bpf_map__set_max_entries(skel->maps.target_tgids, cfg->max_targets);
	err = err ?: bpf_map__set_max_entries(skel->maps.target_tids, cfg->max_targets);
	err = err ?: loader_unwind__prepare(l, cfg->unwind);
	err = err ?: loader_watch__prepare(l, cfg->watch);
	return err ?: loader_range__prepare(l, cfg->range);
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
	err = record_bpf__load(l->skel) ?: loader_unwind__loaded(l);
	if (err)
		goto fail;
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
	loader_unwind__free(l);
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

int loader__counts_batch(int fd, size_t ksize, bool take, loader_count_fn fn, void *ctx)
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
