// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -F -c -e -d: what is sampled, how often, for how long; checked against
 * the kernel's limits (kernel.perf_event_max_sample_rate) as parsed.
 * -F max is kernel.perf_event_max_sample_rate. Every -e event is sampled
 * (cli_sampling__finish: sampling_opts.events, a name given twice refused);
 * the PMU database is read at the first -e.
 */
#include <argp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-sampling.h"
#include "evspec.h"
#include "number.h"
#include "pfmevents.h"
#include "pmudb.h"
#include "procfs.h"

#define FALLBACK_MAX_STACK 127
#define FALLBACK_MAX_SAMPLE_RATE 100000
#define PERIOD_MAX ((unsigned long long)LLONG_MAX)

/* Where the kernel describes its PMUs. */
#define PMU_ROOT "/sys/bus/event_source/devices"

/* -e LIST: every event parsed now, in order; cli_sampling__finish takes them all. */
static void parse_event(const struct argp_state *state, struct cli_parser *p,
			const char *arg)
{
	char why[512];
	int err;

	if (!p->pmus) {
		p->pmus = calloc(1, sizeof(*p->pmus));
		if (!p->pmus)
			cli__usage_error(state, "out of memory");
		if (pmudb__load(p->pmus, PMU_ROOT, why, sizeof(why)))
			cli__usage_error(state, "cannot read the PMUs: %s", why);
	}
	err = evspec__parse_with(arg, p->pmus, pfmevents__parse, &p->events, why,
				 sizeof(why));
	if (err)
		cli__usage_error(state, "%s", why);
}

static void parse_duration(const struct argp_state *state, struct session_opts *opts,
			   const char *arg)
{
	if (number__parse_seconds(arg, &opts->sampling.duration))
		cli__usage_error(
			state,
			"invalid --duration '%s': expected a number of seconds above 0 "
			"and at most 31536000, e.g. 10 or 0.5",
			arg);
}

static error_t parse_sampling(int key, char *arg, struct argp_state *state)
{
	struct cli_parser *p = state->input;
	struct session_opts *opts = p->opts;

	switch (key) {
	case 'F':
		/* -F max: the kernel's limit, as perf spells it */
		if (!strcmp(arg, "max"))
			opts->sampling.freq = p->max_rate;
		else if (number__parse_ull(arg, 1, p->max_rate, &opts->sampling.freq))
			cli__usage_error(state, "invalid --freq '%s': expected an integer "
					 "from 1 to %llu, or max", arg, p->max_rate);
		p->freq_given = true;
		break;
	case 'c':
		opts->sampling.period = cli__parse_integer(state, "period", arg, 1, PERIOD_MAX);
		p->period_given = true;
		break;
	case 'e':
		parse_event(state, p, arg);
		break;
	case 'd':
		parse_duration(state, opts, arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option sampling_options[] = {
	{ "freq", 'F', "HZ", 0,
	  "Samples per second on each CPU (default 99); max is the kernel's "
	  "kernel.perf_event_max_sample_rate",
	  CLI_GROUP_SAMPLING },
	{ "period", 'c', "N", 0, "Sample once every N events instead of at a frequency",
	  CLI_GROUP_SAMPLING },
	{ "event", 'e', "EVENT", 0,
	  "Event to sample (default cpu-clock); repeatable, or a comma list: several "
	  "events are sampled in one run, each shown apart (-F and -c apply to each). "
	  "As perf spells it: a name, "
	  "L1-dcache-load-misses, rHEX, PMU/TERM=VAL,.../, mem:ADDR[/LEN][:rwx], with "
	  "/period=N,freq=HZ,name=NAME/ terms and :u :k :p modifiers (libpfm4's PMU::EVENT "
	  "when built with it; bpfprof list shows them all)",
	  CLI_GROUP_SAMPLING },
	{ "duration", 'd', "SECONDS", 0,
	  "Stop after SECONDS, e.g. 10 or 0.5 (default: at Ctrl-C, SIGTERM or when "
	  "COMMAND exits); a COMMAND still running then is ended, exit status 0",
	  CLI_GROUP_SAMPLING },
	{ 0 },
};

/* Add the list of event names to the -e help. */
static char *help_filter(int key, const char *text, void *input)
{
	char *known, *out;

	if (key != 'e' || !text)
		return (char *)text;
	known = cli__join_names(evspec__known);
	if (!known)
		return (char *)text;
	if (asprintf(&out, "%s; one of: %s", text, known) < 0)
		out = (char *)text;
	free(known);
	return out;
}

const struct argp cli_sampling_argp = { .options = sampling_options,
					.parser = parse_sampling,
					.help_filter = help_filter };

void cli_sampling__defaults(struct cli_parser *p, struct sampling_opts *so)
{
	p->max_rate = procfs__read_ull("/proc/sys/kernel/perf_event_max_sample_rate",
				       FALLBACK_MAX_SAMPLE_RATE);
	p->max_stack =
		procfs__read_ull("/proc/sys/kernel/perf_event_max_stack", FALLBACK_MAX_STACK);
	if (p->max_stack > UINT_MAX)
		p->max_stack = FALLBACK_MAX_STACK;
	so->freq = SAMPLING_DEFAULT_FREQ;
	so->max_depth = (unsigned int)p->max_stack;
	so->max_stacks = SAMPLING_DEFAULT_MAX_STACKS;
	so->stacks = STACKS_BOTH;
}

/* The period or frequency of @attr: -F or -c (or the default frequency). */
static void set_rate(struct perf_event_attr *attr, const struct sampling_opts *so)
{
	if (so->use_period) {
		attr->freq = 0;
		attr->sample_period = so->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = so->freq;
	}
}

/*
 * Event @ev's attrs as sampled: its own period= or freq= first (or a
 * breakpoint's period of 1 without -F/-c), else -F/-c, else 99 Hz. With one
 * event, its own rate becomes the run's (the summary's "requested").
 */
static void fill_event(const struct argp_state *state, struct cli_parser *p,
		       const struct evspec_event *ev, struct sampling_event *se)
{
	struct sampling_opts *so = &p->opts->sampling;
	bool own;

	se->name = strdup(ev->name);
	se->attrs = calloc(ev->nr_attrs, sizeof(*se->attrs));
	if (!se->name || !se->attrs)
		cli__usage_error(state, "out of memory");
	se->nr_attrs = ev->nr_attrs;
	for (size_t i = 0; i < ev->nr_attrs; i++) {
		struct perf_event_attr *attr = &se->attrs[i];

		*attr = ev->attrs[i];
		own = ev->period_set ||
		      (!p->freq_given && !p->period_given && attr->sample_period);
		if (own && attr->freq && attr->sample_freq > p->max_rate)
			cli__usage_error(state, "event '%s': freq=%llu is above "
					 "kernel.perf_event_max_sample_rate (%llu)",
					 ev->name, (unsigned long long)attr->sample_freq,
					 p->max_rate);
		if (own && p->events.nr == 1) {
			so->use_period = !attr->freq;
			if (attr->freq)
				so->freq = attr->sample_freq;
			else
				so->period = attr->sample_period;
		}
		if (!own)
			set_rate(attr, so);
		attr->size = sizeof(*attr);
		attr->disabled = 0;
	}
}

/* Every -e event (cpu-clock without one), each name once. */
static void fill_events(const struct argp_state *state, struct cli_parser *p)
{
	struct sampling_opts *so = &p->opts->sampling;
	struct evspec_event clock = { .name = "cpu-clock", .nr_attrs = 1 };
	struct perf_event_attr clock_attr = { .type = PERF_TYPE_SOFTWARE,
					      .config = PERF_COUNT_SW_CPU_CLOCK };
	size_t nr = p->events.nr ? p->events.nr : 1;

	clock.attrs = &clock_attr;
	for (size_t i = 0; i < p->events.nr; i++) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->events.events[i].name, p->events.events[j].name))
				cli__usage_error(state, "event '%s' is given twice: "
						 "expected each event once, or a name= term "
						 "telling the copies apart (e.g. "
						 "cpu-clock/name=clock2/)",
						 p->events.events[i].name);
	}
	so->events = calloc(nr, sizeof(*so->events));
	if (!so->events)
		cli__usage_error(state, "out of memory");
	so->nr_events = nr;
	for (size_t i = 0; i < nr; i++)
		fill_event(state, p, p->events.nr ? &p->events.events[i] : &clock,
			   &so->events[i]);
}

void cli_sampling__finish(const struct argp_state *state, struct cli_parser *p)
{
	struct sampling_opts *so = &p->opts->sampling;

	if (p->freq_given && p->period_given)
		cli__usage_error(state,
				 "-F/--freq %llu and -c/--period %llu cannot be used together",
				 so->freq, so->period);
	so->use_period = p->period_given;
	fill_events(state, p);
	evspec__free(&p->events);
	pmudb__free(p->pmus);
	free(p->pmus);
	p->pmus = NULL;
}

void cli_sampling__free(struct sampling_opts *so)
{
	for (size_t i = 0; i < so->nr_events; i++) {
		free(so->events[i].name);
		free(so->events[i].attrs);
	}
	free(so->events);
	so->events = NULL;
	so->nr_events = 0;
}
