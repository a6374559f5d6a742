// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Event strings -> perf_event_attr, as perf spells them (evspec.h has the
 * grammar; cache event names are evcache.c's). One event is parsed in
 * three steps: its body (a name, a cache event, rHEX, PMU/TERMS/, a named
 * event, mem:) gives one attr per PMU it runs on; its terms give the
 * period and the name; its modifiers the exclusions and precise_ip,
 * applied to every attr.
 *
 * A body is tried as a generic name, a cache event, a named event of any
 * PMU, then rHEX; PMU/TERMS/ when the part before the slash is a PMU. A
 * named event's terms are applied before the user's, which replace them;
 * a '?' term must be given. Errors are one line (escaped by their printer)
 * naming the part and what was expected: the nearest names (nearest.c, up
 * to three) or the PMU's terms. evspec__parse_with takes a parser for the
 * names evspec rejects (libpfm4's, pfmevents.c) as a function, so evspec
 * stays pure; that parser's error replaces evspec's only when evspec did
 * not know the name and it did.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/hw_breakpoint.h>

#include "array.h"
#include "evcache.h"
#include "evspec.h"
#include "nearest.h"
#include "number.h"
#include "pmudb.h"

/* suggestions for an unknown name */
#define EVSPEC_NEAREST 3

struct evname {
	const char *name;
	__u32 type;
	__u64 config;
	bool alias; /* not the canonical name of type/config */
};

/* Canonical names first within each type/config pair, as perf spells them. */
static const struct evname evnames[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, true },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, true },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  true },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, true },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  true },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* The terms every event takes in /TERMS/, whatever its PMU. */
static const char *const config_terms[] = { "period", "freq", "name" };

/* One event being parsed. */
struct evparse {
	const struct pmu_db *db;
	evspec_other_fn other; /* the parser of the events evspec rejects, or NULL */
	bool unknown;          /* the error is an unknown name or PMU */
	const char *text; /* the event as written */
	char *why;
	size_t size;
	struct evspec_event ev;
	unsigned long long period, freq;
	const char *name; /* name=, inside a copy of the terms */
};

static int evspec__fail(struct evparse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int evspec__fail(struct evparse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, p->size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int evspec__push(struct evparse *p, const struct perf_event_attr *attr)
{
	struct perf_event_attr *a;

	a = realloc(p->ev.attrs, (p->ev.nr_attrs + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	p->ev.attrs = a;
	a[p->ev.nr_attrs++] = *attr;
	return 0;
}

static unsigned int evspec__nr_cores(const struct pmu_db *db)
{
	unsigned int n = 0;

	while (pmudb__core(db, n))
		n++;
	return n;
}

/*
 * A generic hardware or cache event: one attr, or on a hybrid machine one
 * per core PMU with its type in config's top 32 bits (perf's extended type).
 */
static int evspec__push_hw(struct evparse *p, __u32 type, __u64 config)
{
	struct perf_event_attr a = { .type = type, .config = config };
	const struct pmu *core;
	int err = 0;

	if (type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE)
		return evspec__push(p, &a);
	if (evspec__nr_cores(p->db) < 2)
		return evspec__push(p, &a);
	for (unsigned int i = 0; !err && (core = pmudb__core(p->db, i)); i++) {
		a.config = config | (__u64)core->type << PERF_PMU_TYPE_SHIFT;
		err = evspec__push(p, &a);
	}
	return err;
}

/* A generic event name or alias from evnames[]: 0, or -ENOENT. */
static int evspec__body_name(struct evparse *p, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(evnames); i++)
		if (!strcmp(name, evnames[i].name))
			return evspec__push_hw(p, evnames[i].type, evnames[i].config);
	return -ENOENT;
}

/* A cache event (evcache.c): one attr, or one per core PMU. */
static int evspec__body_cache(struct evparse *p, const char *name)
{
	__u64 config;
	int err = evcache__parse(name, &config);

	return err ? err : evspec__push_hw(p, PERF_TYPE_HW_CACHE, config);
}

/* rHEX: config as given, of the core PMU (each core PMU's type on a hybrid one). */
static int evspec__body_raw(struct evparse *p, const char *name)
{
	struct perf_event_attr a = { .type = PERF_TYPE_RAW };
	const struct pmu *core;
	const char *s = name + 1;
	int err = 0;

	if (name[0] != 'r' || !*s || strlen(s) > 16)
		return -ENOENT;
	for (; *s; s++) {
		int d = number__hex_digit(*s);

		if (d < 0)
			return -ENOENT;
		a.config = a.config << 4 | (unsigned int)d;
	}
	if (!pmudb__core(p->db, 0))
		return evspec__push(p, &a);
	for (unsigned int i = 0; !err && (core = pmudb__core(p->db, i)); i++) {
		a.type = core->type;
		err = evspec__push(p, &a);
	}
	return err;
}

/* The valid terms of @pmu, for an error: "event, umask, ..., period, freq, name". */
static void evspec__valid_terms(const struct pmu *pmu, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; pmu && i < pmu->nr_formats && n < size; i++)
		n += snprintf(buf + n, size - n, "%s, ", pmu->formats[i].name);
	if (pmu && n < size)
		n += snprintf(buf + n, size - n, "config, config1, config2, ");
	for (size_t i = 0; i < ARRAY_SIZE(config_terms) && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", config_terms[i],
			      i + 1 < ARRAY_SIZE(config_terms) ? ", " : "");
}

/*
 * A term every event takes (period, freq, name): 0 when it was one,
 * -ENOENT when it is not, -EINVAL when its value is wrong.
 */
static int evspec__config_term(struct evparse *p, const char *term, char *value)
{
	unsigned long long *v;

	if (!strcmp(term, "name")) {
		if (!value || !*value)
			return evspec__fail(p, "event '%s': name= needs a name", p->text);
		p->name = value;
		return 0;
	}
	if (!strcmp(term, "period"))
		v = &p->period;
	else if (!strcmp(term, "freq"))
		v = &p->freq;
	else
		return -ENOENT;
	if (!value || number__parse_ull(value, 1, (unsigned long long)LLONG_MAX, v))
		return evspec__fail(p, "event '%s': invalid %s '%s': expected an integer "
				    "from 1 to %lld", p->text, term, value ? value : "",
				    LLONG_MAX);
	return 0;
}

/* A term's value: a number (decimal or 0x hex); -EINVAL with the error. */
static int evspec__term_value(struct evparse *p, const char *term, const char *value,
			      unsigned long long *out)
{
	if (!value) {
		*out = 1; /* a flag term written alone (edge) is 1, as in perf */
		return 0;
	}
	if (number__parse_u64(value, out))
		return evspec__fail(p, "event '%s': invalid value '%s' of term '%s': expected "
				    "a number (decimal or 0x hex)", p->text, value, term);
	return 0;
}

/* One term TERM[=VALUE] of @pmu into @fields. */
static int evspec__pmu_term(struct evparse *p, const struct pmu *pmu, const char *term,
			    char *value, __u64 fields[3])
{
	static const char *const direct[] = { "config", "config1", "config2" };
	const struct pmu_format *f;
	unsigned long long v;
	char valid[512];
	int err;

	err = evspec__config_term(p, term, value);
	if (err != -ENOENT)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(direct); i++) {
		if (strcmp(term, direct[i]))
			continue;
		err = evspec__term_value(p, term, value, &v);
		if (!err)
			fields[i] = v;
		return err;
	}
	f = pmudb__format(pmu, term);
	if (!f) {
		evspec__valid_terms(pmu, valid, sizeof(valid));
		return evspec__fail(p, "event '%s': unknown term '%s' of PMU '%s' (valid "
				    "terms: %s)", p->text, term, pmu->name, valid);
	}
	err = evspec__term_value(p, term, value, &v);
	if (err)
		return err;
	if (pmudb__place(f, v, fields))
		return evspec__fail(p, "event '%s': value %s of term '%s' does not fit in "
				    "its %u bits", p->text, value, term, f->nr_bits);
	return 0;
}

/* Split "a=1,b" in place: the next term of *@s, its value (or NULL). */
static char *evspec__next_term(char **s, char **value)
{
	char *term = *s, *comma = strchr(term, ','), *eq;

	if (comma) {
		*comma = '\0';
		*s = comma + 1;
	} else {
		*s = NULL;
	}
	eq = strchr(term, '=');
	*value = NULL;
	if (eq) {
		*eq = '\0';
		*value = eq + 1;
	}
	return term;
}

/*
 * The terms of named event @alias of @pmu into @fields, but its "?" terms
 * (the user's give them); *@copy is the copy of its terms split here,
 * freed by the caller.
 */
static int evspec__alias_terms(struct evparse *p, const struct pmu *pmu,
			       const struct pmu_alias *alias, char **copy, __u64 fields[3])
{
	char *s, *term, *value;
	int err = 0;

	*copy = strdup(alias->terms);
	if (!*copy)
		return -ENOMEM;
	for (s = *copy; !err && s;) {
		term = evspec__next_term(&s, &value);
		if (!*term)
			continue;
		if (value && !strcmp(value, "?"))
			continue; /* the user's terms must give it */
		err = evspec__pmu_term(p, pmu, term, value, fields);
		if (err == -EINVAL)
			return evspec__fail(p, "event '%s': PMU '%s' event '%s' has a term "
					    "that does not parse: '%s'", p->text, pmu->name,
					    alias->name, alias->terms);
	}
	return err;
}

/* Does the user's term list @terms (a copy) give term @name? */
static bool evspec__gives(const char *terms, const char *name)
{
	size_t n = strlen(name);

	for (const char *t = terms; t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL)
		if (!strncmp(t, name, n) && (t[n] == '=' || t[n] == ',' || !t[n]))
			return true;
	return false;
}

/* The "?" terms of @alias the user's @terms do not give: an error naming the first. */
static int evspec__check_asked(struct evparse *p, const struct pmu *pmu,
			       const struct pmu_alias *alias, const char *terms)
{
	const char *t = alias->terms;

	for (; t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL) {
		const char *q = strstr(t, "=?");
		const char *comma = strchr(t, ',');
		char name[64];

		if (!q || (comma && q > comma))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(q - t), t);
		if (!evspec__gives(terms, name))
			return evspec__fail(p, "event '%s': PMU '%s' event '%s' needs %s=VALUE "
					    "(its events file says %s=?)", p->text, pmu->name,
					    alias->name, name, name);
	}
	return 0;
}

/*
 * PMU/TERMS/: the named events among @terms first (their terms, then the
 * user's replace them, as in perf), then the user's terms in order.
 */
static int evspec__pmu_event(struct evparse *p, const struct pmu *pmu, const char *terms,
			     char **keep)
{
	struct perf_event_attr a = { .type = pmu->type };
	__u64 fields[3] = { 0 };
	char *copy, *s, *term, *value, *alias_copy = NULL;
	const struct pmu_alias *alias;
	int err = 0;

	if (pmu->error)
		return evspec__fail(p, "event '%s': PMU '%s' cannot be used: %s", p->text,
				    pmu->name, pmu->error);
	copy = strdup(terms);
	if (!copy)
		return -ENOMEM;
	for (s = copy; !err && s;) {
		term = evspec__next_term(&s, &value);
		alias = value ? NULL : pmudb__alias(pmu, term);
		if (!alias)
			continue;
		free(alias_copy);
		err = evspec__alias_terms(p, pmu, alias, &alias_copy, fields);
		if (!err)
			err = evspec__check_asked(p, pmu, alias, terms);
		if (!err) {
			p->ev.scale = alias->scale;
			free(p->ev.unit);
			p->ev.unit = alias->unit ? strdup(alias->unit) : NULL;
			if (alias->unit && !p->ev.unit)
				err = -ENOMEM;
		}
	}
	free(alias_copy);
	strcpy(copy, terms);
	for (s = copy; !err && s;) {
		term = evspec__next_term(&s, &value);
		if (!*term) {
			err = evspec__fail(p, "event '%s': empty term (expected TERM[=VALUE] "
					   "between commas)", p->text);
			break;
		}
		if (!value && pmudb__alias(pmu, term))
			continue;
		err = evspec__pmu_term(p, pmu, term, value, fields);
	}
	if (err) {
		free(copy);
		return err;
	}
	*keep = copy; /* name= points into it */
	a.config = fields[PMU_CONFIG];
	a.config1 = fields[PMU_CONFIG1];
	a.config2 = fields[PMU_CONFIG2];
	return evspec__push(p, &a);
}

/* /TERMS/ of a generic or cache event: only period, freq, name. */
static int evspec__plain_terms(struct evparse *p, const char *terms, char **keep)
{
	char *copy = strdup(terms), *s, *term, *value, valid[64];
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (s = copy; !err && s;) {
		term = evspec__next_term(&s, &value);
		err = evspec__config_term(p, term, value);
		if (err == -ENOENT) {
			evspec__valid_terms(NULL, valid, sizeof(valid));
			err = evspec__fail(p, "event '%s': unknown term '%s' (valid terms: %s)",
					   p->text, term, valid);
		}
	}
	if (err)
		free(copy);
	else
		*keep = copy;
	return err;
}

/* Every PMU's named event @name: one attr each; -ENOENT when none has it. */
static int evspec__body_alias(struct evparse *p, const char *name, char **keep)
{
	bool found = false;
	int err = 0;

	for (size_t i = 0; !err && p->db && i < p->db->nr; i++) {
		const struct pmu *pmu = &p->db->pmus[i];

		if (pmu->error || !pmudb__alias(pmu, name))
			continue;
		found = true;
		free(*keep);
		*keep = NULL;
		err = evspec__pmu_event(p, pmu, name, keep);
	}
	return err ? err : found ? 0 : -ENOENT;
}

/* The names nearest to @name among every event name this machine knows. */
static void evspec__suggest(struct evparse *p, const char *name, char *buf, size_t size)
{
	struct nearest n;
	size_t len = 0;

	buf[0] = '\0';
	if (nearest__init(&n, name, EVSPEC_NEAREST)) {
		nearest__free(&n);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(evnames); i++)
		nearest__offer(&n, evnames[i].name);
	for (unsigned int i = 0; evcache__known(i); i++)
		nearest__offer(&n, evcache__known(i));
	for (size_t i = 0; p->db && i < p->db->nr; i++)
		for (size_t j = 0; j < p->db->pmus[i].nr_aliases; j++)
			nearest__offer(&n, p->db->pmus[i].aliases[j].name);
	for (size_t i = 0; i < n.nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "", n.names[i]);
	nearest__free(&n);
}

static int evspec__unknown(struct evparse *p, const char *name)
{
	char near[256];

	p->unknown = true;
	evspec__suggest(p, name, near, sizeof(near));
	if (*near)
		return evspec__fail(p, "unknown event '%s' (did you mean: %s?)", name, near);
	return evspec__fail(p, "unknown event '%s': expected an event name (cpu-clock, "
			    "cycles, ...), a cache event (L1-dcache-load-misses, ...), rHEX, "
			    "PMU/TERMS/ or mem:ADDR[/LEN][:rwx]", name);
}

/* The nearest PMU names to @name, for an unknown PMU. */
static int evspec__unknown_pmu(struct evparse *p, const char *name)
{
	char near[256] = "";
	struct nearest n;
	size_t len = 0;

	p->unknown = true;
	if (!nearest__init(&n, name, EVSPEC_NEAREST)) {
		for (size_t i = 0; p->db && i < p->db->nr; i++)
			nearest__offer(&n, p->db->pmus[i].name);
		for (size_t i = 0; i < n.nr && len < sizeof(near); i++)
			len += snprintf(near + len, sizeof(near) - len, "%s%s", i ? ", " : "",
					n.names[i]);
	}
	nearest__free(&n);
	if (*near)
		return evspec__fail(p, "event '%s': unknown PMU '%s' (did you mean: %s?)",
				    p->text, name, near);
	return evspec__fail(p, "event '%s': unknown PMU '%s' (not in "
			    "/sys/bus/event_source/devices)", p->text, name);
}

/* mem:ADDR[/LEN][:ACCESS]; *@mods is set to what follows (modifiers). */
static int evspec__body_mem(struct evparse *p, char *body, char **mods)
{
	struct perf_event_attr a = { .type = PERF_TYPE_BREAKPOINT };
	unsigned long long addr, len = 0;
	char *colon, *slash;

	body += 4; /* "mem:" */
	*mods = NULL;
	colon = strchr(body, ':');
	if (colon)
		*colon = '\0';
	slash = strchr(body, '/');
	if (slash)
		*slash = '\0';
	if (number__parse_u64(body, &addr))
		return evspec__fail(p, "event '%s': invalid address '%s': expected a number "
				    "(0x hex or decimal)", p->text, body);
	if (slash && (number__parse_u64(slash + 1, &len) ||
		      (len != 1 && len != 2 && len != 4 && len != 8)))
		return evspec__fail(p, "event '%s': invalid length '%s': expected 1, 2, 4 "
				    "or 8", p->text, slash + 1);
	a.bp_addr = addr;
	a.bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (colon && colon[1] && strspn(colon + 1, "rwx") == strcspn(colon + 1, ":")) {
		char *access = colon + 1;

		*mods = strchr(access, ':');
		if (*mods)
			*(*mods)++ = '\0';
		a.bp_type = 0;
		for (char *c = access; *c; c++) {
			unsigned int bit = *c == 'r' ? HW_BREAKPOINT_R :
					   *c == 'w' ? HW_BREAKPOINT_W :
					   *c == 'x' ? HW_BREAKPOINT_X : 0;

			if (a.bp_type & bit)
				return evspec__fail(p, "event '%s': access '%s' gives '%c' twice",
						    p->text, access, *c);
			a.bp_type |= bit;
		}
		if (!a.bp_type || ((a.bp_type & HW_BREAKPOINT_X) &&
				   a.bp_type != HW_BREAKPOINT_X))
			return evspec__fail(p, "event '%s': invalid access '%s': expected r, "
					    "w, rw or x", p->text, access);
	} else if (colon) {
		*mods = colon + 1;
	}
	/* perf's defaults: an instruction breakpoint is a long, data 4 bytes */
	a.bp_len = len ? len : a.bp_type == HW_BREAKPOINT_X ? sizeof(long) : 4;
	a.sample_period = 1; /* every access, unless -c, -F or a term says otherwise */
	return evspec__push(p, &a);
}

/* :u :k :p :pp :ppp (and h) on every attr. */
static int evspec__modifiers(struct evparse *p, const char *mods)
{
	unsigned int u = 0, k = 0, h = 0, precise = 0;

	for (const char *c = mods; *c; c++) {
		if (*c == 'u')
			u = 1;
		else if (*c == 'k')
			k = 1;
		else if (*c == 'h')
			h = 1;
		else if (*c == 'p')
			precise++;
		else
			return evspec__fail(p, "event '%s': unknown modifier '%c' in ':%s' "
					    "(expected u, k, h, p, pp or ppp)", p->text, *c, mods);
	}
	if (precise > 3)
		return evspec__fail(p, "event '%s': modifier ':%s' asks for precise level %u "
				    "(expected at most ppp)", p->text, mods, precise);
	for (size_t i = 0; i < p->ev.nr_attrs; i++) {
		struct perf_event_attr *a = &p->ev.attrs[i];

		if (u || k || h) {
			a->exclude_user = !u;
			a->exclude_kernel = !k;
			a->exclude_hv = !h;
		}
		a->precise_ip = precise;
	}
	return 0;
}

/*
 * Split @text in place: @body, its /TERMS/ (or NULL) and its modifiers (or
 * NULL). -EINVAL for a '/' with no closing one or text after it.
 */
static int evspec__split(struct evparse *p, char *text, char **terms, char **mods)
{
	char *slash = strchr(text, '/'), *close, *colon;

	*terms = *mods = NULL;
	if (!slash) {
		colon = strchr(text, ':');
		if (colon) {
			*colon = '\0';
			*mods = colon + 1;
		}
		return 0;
	}
	*slash = '\0';
	close = strchr(slash + 1, '/');
	if (!close)
		return evspec__fail(p, "event '%s': no closing '/' after the terms (expected "
				    "%s/TERMS/)", p->text, text);
	*close = '\0';
	*terms = slash + 1;
	*mods = close + 1;
	if (**mods == ':')
		(*mods)++;
	return 0;
}

static int evspec__body(struct evparse *p, char *text, char **keep)
{
	char *terms, *mods;
	const struct pmu *pmu;
	int err;

	if (!strncmp(text, "mem:", 4)) {
		err = evspec__body_mem(p, text, &mods);
		return err ? err : mods ? evspec__modifiers(p, mods) : 0;
	}
	err = evspec__split(p, text, &terms, &mods);
	if (err)
		return err;
	if (!*text)
		return evspec__fail(p, "event '%s': no event name (expected NAME, rHEX, "
				    "PMU/TERMS/ or mem:ADDR)", p->text);
	if (terms && (pmu = pmudb__find(p->db, text))) {
		err = evspec__pmu_event(p, pmu, terms, keep);
	} else {
		err = evspec__body_name(p, text);
		if (err == -ENOENT)
			err = evspec__body_cache(p, text);
		if (err == -ENOENT && !terms)
			err = evspec__body_alias(p, text, keep);
		if (err == -ENOENT && !terms)
			err = evspec__body_raw(p, text);
		if (err == -ENOENT)
			return terms ? evspec__unknown_pmu(p, text) : evspec__unknown(p, text);
		if (!err && terms)
			err = evspec__plain_terms(p, terms, keep);
	}
	if (!err && mods)
		err = evspec__modifiers(p, mods);
	return err;
}

static void evspec__free_event(struct evspec_event *ev)
{
	free(ev->name);
	free(ev->attrs);
	free(ev->unit);
	memset(ev, 0, sizeof(*ev));
}

/*
 * @text, which evspec rejected with @err, given to the other parser: its
 * attr replaces what the body left; its error replaces evspec's only when
 * evspec did not know the name.
 */
static int evspec__other(struct evparse *p, const char *text, int err)
{
	struct perf_event_attr attr;
	char why[256];
	int e = p->other(text, &attr, why, sizeof(why));

	if (e == -ENOENT || (e && !p->unknown))
		return err;
	if (e)
		return e == -EINVAL ? evspec__fail(p, "event '%s': %s", text, why) : e;
	free(p->ev.attrs);
	free(p->ev.unit);
	memset(&p->ev, 0, sizeof(p->ev));
	p->ev.scale = 1;
	p->period = p->freq = 0;
	p->name = NULL;
	return evspec__push(p, &attr);
}

/* One event of the list, @text a copy of it, into @p->ev. */
static int evspec__event(struct evparse *p, const char *text)
{
	char *copy = strdup(text), *keep = NULL;
	int err;

	if (!copy)
		return -ENOMEM;
	p->text = text;
	p->ev.scale = 1;
	err = evspec__body(p, copy, &keep);
	if (err == -EINVAL && p->other)
		err = evspec__other(p, text, err);
	if (!err && p->period > 0 && p->freq > 0)
		err = evspec__fail(p, "event '%s': period= and freq= cannot be used together",
				   p->text);
	if (!err && !p->ev.nr_attrs)
		err = evspec__fail(p, "event '%s': no PMU has it", p->text);
	for (size_t i = 0; !err && i < p->ev.nr_attrs; i++) {
		struct perf_event_attr *a = &p->ev.attrs[i];

		a->size = sizeof(*a);
		if (p->freq) {
			a->freq = 1;
			a->sample_freq = p->freq;
		} else if (p->period) {
			a->sample_period = p->period;
		}
	}
	p->ev.period_set = p->period || p->freq;
	if (!err) {
		p->ev.name = strdup(p->name ? p->name : text);
		if (!p->ev.name)
			err = -ENOMEM;
	}
	free(keep);
	free(copy);
	if (err)
		evspec__free_event(&p->ev);
	return err;
}

/*
 * The next event of a comma list starting at @s: its length. A comma
 * between the slashes of /TERMS/ belongs to the terms (not in mem:, whose
 * '/' gives a length).
 */
static size_t evspec__event_len(const char *s)
{
	bool in_terms = false, mem = !strncmp(s, "mem:", 4);
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '/' && !mem)
			in_terms = !in_terms;
		else if (s[i] == ',' && !in_terms)
			break;
	}
	return i;
}

int evspec__parse(const char *spec, const struct pmu_db *db, struct evspec_list *list,
		  char *why, size_t size)
{
	return evspec__parse_with(spec, db, NULL, list, why, size);
}

int evspec__parse_with(const char *spec, const struct pmu_db *db, evspec_other_fn other,
		       struct evspec_list *list, char *why, size_t size)
{
	size_t nr = list->nr;
	int err = 0;

	if (!spec || !*spec) {
		snprintf(why, size, "empty event (expected an event name such as cpu-clock)");
		return -EINVAL;
	}
	for (const char *s = spec;; s++) {
		size_t len = evspec__event_len(s);
		struct evparse p = { .db = db, .other = other, .why = why, .size = size };
		struct evspec_event *events;
		char *text = strndup(s, len);

		if (!text) {
			err = -ENOMEM;
			break;
		}
		err = len ? evspec__event(&p, text) :
			    evspec__fail(&p, "empty event in '%s' (expected EVENT[,EVENT...])",
					 spec);
		free(text);
		if (err)
			break;
		events = realloc(list->events, (list->nr + 1) * sizeof(*events));
		if (!events) {
			evspec__free_event(&p.ev);
			err = -ENOMEM;
			break;
		}
		list->events = events;
		list->events[list->nr++] = p.ev;
		s += len;
		if (!*s)
			break;
	}
	if (err == -ENOMEM)
		snprintf(why, size, "out of memory");
	if (err) {
		while (list->nr > nr)
			evspec__free_event(&list->events[--list->nr]);
		if (!list->nr) {
			free(list->events);
			list->events = NULL;
		}
	}
	return err;
}

void evspec__free(struct evspec_list *list)
{
	if (!list)
		return;
	for (size_t i = 0; i < list->nr; i++)
		evspec__free_event(&list->events[i]);
	free(list->events);
	list->events = NULL;
	list->nr = 0;
}

const char *evspec__name(__u32 type, __u64 config)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(evnames); i++)
		if (!evnames[i].alias && evnames[i].type == type &&
		    evnames[i].config == config)
			return evnames[i].name;
	return NULL;
}

bool evspec__is_hardware(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	       attr->type == PERF_TYPE_RAW;
}

const char *evspec__known(unsigned int i)
{
	size_t j;

	for (j = 0; j < ARRAY_SIZE(evnames); j++) {
		if (evnames[j].alias)
			continue;
		if (i-- == 0)
			return evnames[j].name;
	}
	return NULL;
}
