// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The range mode: the ranges resolved after the /proc scan and laid out in
 * pages before load (they size the range maps), placed in every process
 * that maps their binary as it appears, and after sampling read into a
 * listing, written in the -f format, with --stacks' profile beside it.
 * The top level of the subcommand with the core.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "drain-range.h"
#include "drain-session.h"
#include "drain.h"
#include "loader-range.h"
#include "outfile.h"
#include "range.h"
#include "rangelive.h"
#include "rangeset.h"
#include "stacks.h"

struct range_mode {
	const struct range_opts *o;
	struct range_set rs;      /* the resolved ranges */
	struct range_pages pages; /* their BPF page entries, until stored */
	struct loader_range_cfg maps; /* the range maps' sizes (configure) */
	struct range_live *live;  /* the BPF page entries while sampling */
	int live_err;             /* the first error placing ranges while sampling */
	struct outfile *stacks_out; /* --stacks */
	struct stacks stacks;     /* --stacks: drained while sampling */
	char **labels;            /* several ranges: each's first frame, "[ARG]" */
	size_t nr_labels;
	uint64_t busiest;         /* samples seen on the busiest CPU */
	pid_t late_pid;           /* the process whose mapping is being placed */
};

/* --stacks with several ranges: the first frame says which, "[ARG]". 0 or -ENOMEM. */
static int range__labels(struct range_mode *rm)
{
	if (rm->rs.nr < 2)
		return 0;
	rm->labels = calloc(rm->rs.nr, sizeof(*rm->labels));
	if (!rm->labels)
		return -ENOMEM;
	rm->nr_labels = rm->rs.nr;
	for (size_t i = 0; i < rm->rs.nr; i++)
		if (asprintf(&rm->labels[rm->rs.r[i].id], "[%s]", rm->rs.r[i].arg) < 0)
			return -ENOMEM;
	drain_session__set_ranges(rm->stacks.ds, (const char *const *)rm->labels);
	return 0;
}

/* --stacks FILE, opened with -o: a file that cannot be written stops everything. */
static int range__open(struct session *s, void *priv)
{
	struct range_mode *rm = priv;
	char why[OUTFILE_WHY_MAX];

	if (rm->o->stacks &&
	    !(rm->stacks_out = outfile__open(rm->o->stacks, why, sizeof(why))))
		return session__fail(s, EXIT_USAGE, "cannot write '%s': %s", rm->o->stacks, why);
	return 0;
}

/*
 * A range resolved to a function other than the one named (an IFUNC's
 * choice, the default version of a name several functions have): say
 * which, once, when it is resolved.
 */
static void range__told(struct session *s, struct range *r)
{
	r->told = true;
	if (r->versions && r->impl)
		session__note(s, "range '%s': %zu functions are named %s in %s; the default "
				 "one runs %s on this CPU: that is the range",
			      r->arg, r->versions, r->spec.symbol, r->spec.binary, r->impl);
	else if (r->versions)
		session__note(s, "range '%s': %zu functions are named %s in %s; the range is "
				 "the default one",
			      r->arg, r->versions, r->spec.symbol, r->spec.binary);
	else if (r->impl)
		session__note(s, "range '%s': %s is an IFUNC; it runs %s on this CPU: that is "
				 "the range",
			      r->arg, r->spec.symbol, r->impl);
}

/*
 * After a mapping was placed: a range resolved by it is told about; one
 * that could not be (its symbol is not in the file of that name now
 * mapped) ends the run as it would have before sampling, with exit 64.
 */
static void range__check_late(struct session *s, struct range_mode *rm)
{
	for (size_t i = 0; i < rm->rs.nr; i++) {
		struct range *r = &rm->rs.r[i];

		if (r->told)
			continue;
		if (r->late) {
			r->told = true;
			session__fail(s, EXIT_USAGE, "range '%s': %s (%s, just mapped by process %d)",
				      r->arg, r->late, r->bin ? r->bin->path : r->spec.binary,
				      rm->late_pid);
			session__stop(s, EXIT_USAGE);
		} else if (r->end > r->start) {
			range__told(s, r);
		}
	}
}

/* Resolve every range; one that cannot be is a usage error. */
static int range__prepare(struct session *s, void *priv)
{
	struct range_mode *rm = priv;
	const struct session_opts *so = session__opts(s);
	struct range_set_opts rso = {
		.demangle = so->symbols.demangle,
		.debug_roots = so->symbols.debug_dirs,
		.kallsyms = "/proc/kallsyms",
		.not_yet = session__command_pid(s),
		.one_target = session__one_target(s),
		.lines = rm->o->out.source,
	};
	int err;

	err = range_set__init(&rm->rs, rm->o->ranges, rm->o->nr_ranges, &rso);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot set up the ranges: %s",
				     strerror(-err));
	err = range_set__resolve(&rm->rs, session__procs(s));
	if (err)
		return session__fail(s, err == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE, "%s",
				     range_set__error(&rm->rs));
	if (rm->stacks.ds && range__labels(rm))
		return session__fail(s, EXIT_RUNTIME, "out of memory");
	for (size_t i = 0; i < rm->rs.nr; i++) {
		struct range *r = &rm->rs.r[i];

		if (r->end > r->start)
			range__told(s, r);
		/*
		 * A command maps its libraries right after its exec: an error
		 * then, or a warning at the end if it never does. A running
		 * target that does not map it now may never do.
		 */
		if (r->unmapped && !rso.not_yet)
			session__warn(s, "range '%s': no target process maps %s yet; it counts "
					 "from when one does",
				      r->arg, r->spec.binary);
		if (r->other)
			session__warn(s, "range '%s': only %s is counted, not %s, another file "
					 "of that name",
				      r->arg, r->bin->path, r->other->path);
	}
	return 0;
}

/* Most page entries the range check gets: a bigger range gets bigger pages. */
#define RANGE_MAX_PAGES (1u << 18)
/* Most (range, address) pairs counted: room for any function, bounded memory. */
#define RANGE_MAX_ADDRS (1u << 20)

/*
 * Lay the ranges out in pages, and size the maps from them, with room for
 * the places made while sampling runs (a binary's ranges in libraries and
 * processes that appear later): every binary range may share a page with
 * the others, a by-name range not resolved yet may be any size, and the
 * page and (range, process) maps, unpreallocated, may fill up to their
 * bound.
 */
static int range__configure(struct session *s, void *priv, struct loader_cfg *cfg)
{
	struct range_mode *rm = priv;
	struct range_place *places = NULL;
	uint64_t span = range_set__span(&rm->rs);
	unsigned int bin_ranges = 0;
	bool pending = false;
	size_t n;
	int err;

	for (size_t i = 0; i < rm->rs.nr; i++) {
		const struct range *r = &rm->rs.r[i];

		if (r->spec.kind == RANGE_BIN_SYM || r->spec.kind == RANGE_BIN_ADDR) {
			bin_ranges++;
			pending |= !r->bin;
		}
	}
	err = range_set__places(&rm->rs, &places, &n);
	err = err ?: range_pages__build(&rm->pages, places, n, RANGE_MAX_PAGES);
	free(places);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot lay out the ranges: %s",
				     strerror(-err));
	rm->maps = (struct loader_range_cfg){
		.slots = rm->pages.slots > bin_ranges ? rm->pages.slots : bin_ranges,
		.shift = rm->pages.shift,
		.pages = bin_ranges ? RANGE_MAX_PAGES : rm->pages.nr,
		.addrs = span < RANGE_MAX_ADDRS && !pending ? span : RANGE_MAX_ADDRS,
		.stacks = rm->o->stacks != NULL,
	};
	rm->maps.hit_keys = rm->maps.pages;
	cfg->range = &rm->maps;
	return 0;
}

/* Store the page entries laid out before load; later ones go through rm->live. */
static int range__start(struct session *s, void *priv, const struct loader_cfg *cfg)
{
	struct range_mode *rm = priv;
	int err;

	rm->live = range_live__new(session__loader(s), cfg->range->shift, cfg->range->slots);
	err = rm->live ? range_live__store(rm->live, &rm->pages) : -ENOMEM;
	range_pages__free(&rm->pages);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot store the ranges: %s",
				     strerror(-err));
	return 0;
}

/* A mapping of @tgid (new, or a forked child's copy): place the ranges of its binary. */
static int range__place(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct range_mode *rm = ctx;
	struct range_place *places;
	size_t n;
	int err;

	err = range_set__place_mapping(&rm->rs, tgid, m, &places, &n);
	if (!err && n)
		err = range_live__add(rm->live, places, n);
	free(places);
	if (err < 0 && !rm->live_err)
		rm->live_err = err;
	return 0;
}

static void range__mmap(struct session *s, void *priv, pid_t tgid, const struct mapping *m)
{
	struct range_mode *rm = priv;

	if (!m)
		return;
	rm->late_pid = tgid;
	range__place(tgid, m, rm);
	range__check_late(s, rm);
}

static void range__exec(struct session *s, void *priv, pid_t tgid)
{
	struct range_mode *rm = priv;

	(void)s;
	/* the command's own image from here on */
	if (tgid == rm->rs.o.not_yet)
		rm->rs.o.not_yet = 0;
	/* a new image: the old one's places mean other code now */
	range_live__drop(rm->live, tgid);
}

static void range__fork(struct session *s, void *priv, pid_t ppid, pid_t pid)
{
	struct range_mode *rm = priv;

	(void)ppid;
	range_live__drop(rm->live, pid); /* a reused pid's */
	rm->late_pid = pid;
	proc_table__for_each_mapping_of(session__procs(s), pid, range__place, rm);
	range__check_late(s, rm);
}

static void range__summary(struct session *s, const struct range_mode *rm,
			   const struct listing *ls)
{
	const uint64_t *st = ls->stats;
	double hz = ls->duration > 0 ? rm->busiest / ls->duration : 0;

	fprintf(stderr, "%s: %" PRIu64 " samples in %zu range%s, %" PRIu64 " outside, %" PRIu64
		" lost, %" PRIu64 " seen, %.2f s, ",
		session__prog(s), st[STAT_KEPT], ls->nr, ls->nr == 1 ? "" : "s",
		st[STAT_OUT_OF_RANGE], st[STAT_DROP_COUNTS_FULL], st[STAT_SEEN], ls->duration);
	session__print_rate(s, hz);
	session__print_output(s, "listing");
	fputc('\n', stderr);
}

/* --stacks: the stacks of the samples in the ranges, as record writes them. 0 or -errno. */
static int range__stacks(struct session *s, struct range_mode *rm, const struct listing *ls)
{
	const struct range_opts *o = rm->o;
	struct profile *p = &rm->stacks.p;
	int err;

	p->ncpus = session__nr_cpus(s);
	p->duration = ls->duration;
	memcpy(p->stats, ls->stats, sizeof(p->stats));
	err = o->stacks_out.format->write_profile(outfile__stream(rm->stacks_out), p,
						  &o->stacks_out, NULL);
	return err ? outfile__error(rm->stacks_out) ?: err : outfile__commit(rm->stacks_out);
}

/* Ranges that counted nothing because of what happened during the run. */
static void range__warnings(struct session *s, const struct range_mode *rm)
{
	for (size_t i = 0; i < rm->rs.nr; i++) {
		const struct range *r = &rm->rs.r[i];

		if (r->late)
			session__warn(s, "range '%s': %s", r->arg, r->late);
		else if (r->unmapped)
			session__warn(s, "range '%s': no target process mapped %s during the run",
				      r->arg, r->spec.binary);
	}
	if (rm->live && range_live__missed(rm->live))
		session__warn(s, "%" PRIu64 " placements of ranges in processes that appeared "
				 "during the run were not stored whole (the page map is full): "
				 "their samples are missing",
			      range_live__missed(rm->live));
	if (rm->live_err)
		session__warn(s, "ranges could not be placed in processes that appeared "
				 "during the run: %s",
			      strerror(-rm->live_err));
}

static int range__finish(struct session *s, void *priv)
{
	struct range_mode *rm = priv;
	const struct range_opts *o = rm->o;
	struct listing ls = { 0 };
	uint64_t busiest[STAT__MAX];
	int err, status;

	ls.duration = session__seconds(s);
	/* --stacks: both sets into the profile first, so the counters read include every sample */
	err = rm->stacks.ds ? drain_session__final(rm->stacks.ds) : 0;
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot drain the BPF maps: %s",
				     strerror(-err));
	err = loader__read_stats(session__loader(s), ls.stats, busiest);
	if (err)
		return session__fail(s, EXIT_RUNTIME, "cannot read the BPF counters: %s",
				     strerror(-err));
	rm->busiest = busiest[STAT_SEEN];
	range__warnings(s, rm);
	err = drain_range__listing(session__loader(s), &rm->rs, session__procs(s), true, &ls);
	if (!err && rm->stacks_out) {
		err = range__stacks(s, rm, &ls);
		if (err) {
			session__fail(s, EXIT_RUNTIME, "cannot write the stacks to %s: %s",
				      outfile__name(rm->stacks_out), strerror(-err));
			listing__free(&ls);
			return EXIT_RUNTIME;
		}
		if (ls.stats[STAT_STACKS_LOST])
			session__warn(s, "%" PRIu64 " samples in the ranges have no stack in "
					 "'%s' (the stacks maps were full)",
				      ls.stats[STAT_STACKS_LOST], o->stacks);
	}
	err = err ?: o->out.format->write_listing(session__out(s), &ls, &o->out);
	status = session__commit(s, err, "listing");
	if (!status) {
		if (!ls.stats[STAT_KEPT])
			session__warn(s, "no samples fell in the ranges");
		if (!o->session.quiet)
			range__summary(s, rm, &ls);
	}
	listing__free(&ls);
	return status;
}

/* Before the loader and the process table go: the live pages, the ranges' binaries. */
static void range__end(struct session *s, void *priv)
{
	struct range_mode *rm = priv;

	(void)s;
	range_pages__free(&rm->pages);
	range_live__free(rm->live);
	rm->live = NULL;
	range_set__free(&rm->rs); /* its binaries may be the process table's */
	outfile__free(rm->stacks_out);
	rm->stacks_out = NULL;
}

static const struct session_hooks range_hooks = {
	.open = range__open,
	.prepare = range__prepare,
	.configure = range__configure,
	.start = range__start,
	.mmap = range__mmap,
	.exec = range__exec,
	.fork = range__fork,
	.finish = range__finish,
	.end = range__end,
};

int range__run(const struct range_opts *o)
{
	struct range_mode rm = { .o = o };
	struct session_plug plugs[3];
	size_t n = 0;
	int status = EXIT_RUNTIME;

	/*
	 * --stacks: the unwinder, first: its tables are loaded before the
	 * ranges are stored; then the drain, which takes the stack sets out
	 * while sampling, as record's does (processes and binaries stay: the
	 * ranges hold binaries, the listing names processes at the end)
	 */
	if (o->stacks) {
		rm.stacks.p.keep_bins = output__keep_bins(&o->stacks_out);
		if (stacks__init(&rm.stacks, &o->unwind, true, false)) {
			fprintf(stderr, "bpfprof range: out of memory\n");
			goto out;
		}
		n = stacks__plugs(&rm.stacks, plugs);
	}
	plugs[n++] = (struct session_plug){ &range_hooks, &rm };
	status = session__main(&o->session, "bpfprof range", plugs, n);
out:
	stacks__free(&rm.stacks);
	for (size_t i = 0; i < rm.nr_labels; i++)
		free(rm.labels[i]);
	free(rm.labels);
	return status;
}
