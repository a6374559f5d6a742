// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `bpfprof watch` LOCATION, --access and --if -> plain data (pure). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "number.h"
#include "watchspec.h"

#define KERNEL_PREFIX "kernel:"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A number ending @s (after the last @sep, digits and hex letters only, not
 * part of a "::" for ':'): its start, or NULL when @s does not end so.
 */
static char *spec__suffix(char *s, char sep)
{
	char *p = strrchr(s, sep);

	if (!p || !p[1] || p == s)
		return NULL;
	if (sep == ':' && p[-1] == ':')
		return NULL;
	for (const char *q = p + 1; *q; q++)
		if (!is_digit(*q) && !(q == p + 2 && (*q == 'x' || *q == 'X')) &&
		    number__hex_digit(*q) < 0)
			return NULL;
	return p;
}

/* The first ':' of @s not part of a "::", or NULL. */
static char *spec__separator(char *s)
{
	for (char *p = strchr(s, ':'); p; p = strchr(p + 1, ':')) {
		if (p[1] == ':') {
			p++;
			continue;
		}
		return p;
	}
	return NULL;
}

static int spec__symbol_ok(const char *sym, const char **why)
{
	if (!*sym) {
		*why = "the symbol is empty";
		return -EINVAL;
	}
	if (is_digit(*sym) || is_space(*sym) || is_space(sym[strlen(sym) - 1])) {
		*why = "a symbol does not start with a digit or a space, nor end with a space";
		return -EINVAL;
	}
	return 0;
}

/* The suffixes of @s, from its end: *COUNT, :LEN, +OFFSET (cut off @s). */
static int spec__suffixes(char *s, struct watchspec *w, const char **why)
{
	unsigned long long v;
	char *p;

	w->count = 1;
	p = spec__suffix(s, '*');
	if (p) {
		if (number__parse_u64(p + 1, &v) || v < 1 || v > 1u << 20) {
			*why = "COUNT after '*' is a number of elements from 1 to 1048576";
			return -EINVAL;
		}
		w->count = v;
		*p = '\0';
	} else if (strchr(s, '*')) {
		*why = "COUNT after '*' is a number of elements";
		return -EINVAL;
	}
	/* "0x10:8", "sym:8": a symbol never starts with a digit, so this is a length */
	p = spec__suffix(s, ':');
	if (p && !number__parse_u64(p + 1, &v)) {
		if (v != 1 && v != 2 && v != 4 && v != 8) {
			*why = "LEN after ':' is 1, 2, 4 or 8 bytes";
			return -EINVAL;
		}
		w->len = v;
		*p = '\0';
	}
	p = strrchr(s, '+');
	if (p && p != s && spec__suffix(s, '+') == p) {
		if (number__parse_u64(p + 1, &v)) {
			*why = "OFFSET after '+' is a decimal or 0x hexadecimal number";
			return -EINVAL;
		}
		w->offset = v;
		*p = '\0';
	}
	return 0;
}

int watchspec__parse(const char *arg, struct watchspec *out, const char **why)
{
	struct watchspec w = { 0 };
	const char *dummy;
	char *s, *sep;
	unsigned long long v;
	int err;

	if (!why)
		why = &dummy;
	*why = NULL;
	if (!arg || !*arg) {
		*why = "the location is empty";
		return -EINVAL;
	}
	s = strdup(arg);
	if (!s)
		return -ENOMEM;
	err = spec__suffixes(s, &w, why);
	if (err)
		goto out;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (number__parse_u64(s, &v)) {
			*why = "an address is 0x and hexadecimal digits";
			err = -EINVAL;
			goto out;
		}
		w.kind = WATCH_ABS_ADDR;
		w.addr = v;
		if (w.addr + w.offset < w.addr) {
			*why = "the address plus OFFSET does not fit in 64 bits";
			err = -EINVAL;
		}
		goto out;
	}
	if (!strncmp(s, KERNEL_PREFIX, strlen(KERNEL_PREFIX))) {
		w.kind = WATCH_KERNEL_SYM;
		err = spec__symbol_ok(s + strlen(KERNEL_PREFIX), why);
		if (!err && !(w.symbol = strdup(s + strlen(KERNEL_PREFIX))))
			err = -ENOMEM;
		goto out;
	}
	sep = spec__separator(s);
	if (sep) {
		*sep = '\0';
		w.kind = WATCH_BIN_SYM;
		if (!*s) {
			*why = "the binary before ':' is empty";
			err = -EINVAL;
			goto out;
		}
		err = spec__symbol_ok(sep + 1, why);
		if (!err && (!(w.binary = strdup(s)) || !(w.symbol = strdup(sep + 1))))
			err = -ENOMEM;
		goto out;
	}
	w.kind = WATCH_EXE_SYM;
	err = spec__symbol_ok(s, why);
	if (!err && !(w.symbol = strdup(s)))
		err = -ENOMEM;
out:
	free(s);
	if (err) {
		watchspec__free(&w);
		if (err == -ENOMEM)
			*why = NULL;
		return err;
	}
	*out = w;
	return 0;
}

void watchspec__free(struct watchspec *w)
{
	if (!w)
		return;
	free(w->binary);
	free(w->symbol);
	memset(w, 0, sizeof(*w));
}

static const char *const access_names[] = {
	[WATCH_ACCESS_W] = "w",
	[WATCH_ACCESS_R] = "r",
	[WATCH_ACCESS_RW] = "rw",
	[WATCH_ACCESS_X] = "x",
};

int watchspec__parse_access(const char *arg, enum watch_access *out)
{
	for (size_t i = 0; arg && i < ARRAY_SIZE(access_names); i++)
		if (!strcmp(arg, access_names[i])) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

const char *watch_spec__access_name(enum watch_access a)
{
	return a < ARRAY_SIZE(access_names) ? access_names[a] : "?";
}

/* Registers by name: DWARF numbers, WATCH_REG_IP for the ip. */
static const struct {
	const char *name;
	unsigned int reg;
} regs[] = {
	{ "rax", 0 }, { "rdx", 1 }, { "rcx", 2 }, { "rbx", 3 }, { "rsi", 4 },
	{ "rdi", 5 }, { "rbp", 6 }, { "rsp", 7 }, { "sp", 7 }, { "r8", 8 },
	{ "r9", 9 }, { "r10", 10 }, { "r11", 11 }, { "r12", 12 }, { "r13", 13 },
	{ "r14", 14 }, { "r15", 15 }, { "ip", WATCH_REG_IP }, { "rip", WATCH_REG_IP },
};

static const struct {
	const char *op;
	enum watch_cmp cmp;
} ops[] = {
	/* two-character operators first */
	{ "==", WATCH_EQ }, { "!=", WATCH_NE }, { "<=", WATCH_LE },
	{ ">=", WATCH_GE }, { "<", WATCH_LT },  { ">", WATCH_GT },
};

/* @s without the spaces around it, in place. */
static char *trim(char *s)
{
	char *e;

	while (is_space(*s))
		s++;
	e = s + strlen(s);
	while (e > s && is_space(e[-1]))
		*--e = '\0';
	return s;
}

static int term__operand(char *s, struct watch_term *t)
{
	if (!strcmp(s, "value")) {
		t->operand = WATCH_VALUE;
		return 0;
	}
	if (!strcmp(s, "tid")) {
		t->operand = WATCH_TID;
		return 0;
	}
	if (!strcmp(s, "pid")) {
		t->operand = WATCH_PID;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		if (!strcmp(s, regs[i].name)) {
			t->operand = WATCH_REG;
			t->reg = regs[i].reg;
			return 0;
		}
	return -EINVAL;
}

/* A constant: [+-] then decimal or 0x hex; *@is_signed when a sign was written. */
static int term__constant(const char *s, __u64 *out, bool *is_signed)
{
	unsigned long long v;
	bool neg = *s == '-';

	*is_signed = *s == '-' || *s == '+';
	if (*is_signed)
		s++;
	if (number__parse_u64(s, &v))
		return -EINVAL;
	if (*is_signed && v > (neg ? 1ull << 63 : (1ull << 63) - 1))
		return -ERANGE;
	*out = neg ? -(uint64_t)v : v;
	return 0;
}

static int term__parse(char *s, struct watch_term *t, char *why, size_t len)
{
	char *op = NULL, *lhs, *rhs, *mask;
	bool is_signed;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < ARRAY_SIZE(ops) && !op; i++) {
		op = strstr(s, ops[i].op);
		if (op) {
			t->cmp = ops[i].cmp;
			*op = '\0';
			rhs = op + strlen(ops[i].op);
		}
	}
	if (!op) {
		snprintf(why, len, "term '%s' has no comparison: expected ==, !=, <, <=, > or >=",
			 trim(s));
		return -EINVAL;
	}
	lhs = trim(s);
	rhs = trim(rhs);
	t->mask = ~0ull;
	mask = strchr(lhs, '&');
	if (mask) {
		unsigned long long m;

		*mask = '\0';
		if (number__parse_u64(trim(mask + 1), &m)) {
			snprintf(why, len, "mask '%s' is not a number", trim(mask + 1));
			return -EINVAL;
		}
		t->mask = m;
		lhs = trim(lhs);
	}
	if (term__operand(lhs, t)) {
		snprintf(why, len, "unknown operand '%s': expected value, tid, pid, a register "
			 "(rdi, rsi, rdx, rcx, r8, r9, rax, ..., ip, sp)", lhs);
		return -EINVAL;
	}
	if (term__constant(rhs, &t->constant, &is_signed)) {
		snprintf(why, len, "'%s' is not a constant: expected a decimal or 0x "
			 "hexadecimal number, with a sign for a signed comparison", rhs);
		return -EINVAL;
	}
	t->is_signed = is_signed;
	return 0;
}

int watchspec__parse_if(const char *expr, struct watch_term *terms, unsigned int *nr,
			char *why, size_t len)
{
	char *s = strdup(expr ? expr : ""), *p, *next;
	int err = 0;

	*nr = 0;
	if (!s)
		return -ENOMEM;
	if (!*trim(s)) {
		snprintf(why, len, "the expression is empty");
		free(s);
		return -EINVAL;
	}
	for (p = s; p && !err; p = next) {
		next = strstr(p, "&&");
		if (next) {
			*next = '\0';
			next += 2;
		}
		if (!*trim(p)) {
			snprintf(why, len, "an empty term around '&&'");
			err = -EINVAL;
		} else if (*nr == WATCH_MAX_TERMS) {
			snprintf(why, len, "more than %d terms", WATCH_MAX_TERMS);
			err = -EINVAL;
		} else {
			err = term__parse(p, &terms[(*nr)++], why, len);
		}
	}
	free(s);
	return err;
}
