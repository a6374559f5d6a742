// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "array.h"
#include "demangler.h"
#include "u64map.h"

static const char *const mode_names[] = {
	[DEMANGLE_SHORT] = "short",
	[DEMANGLE_FULL] = "full",
	[DEMANGLE_NONE] = "none",
};

struct demangler {
	enum demangle_mode mode;
	struct u64map cache; /* raw name address -> result (maybe the raw name) */
	char **owned; /* demangled strings we allocated */
	size_t nr_owned, cap_owned;
};

int demangler__parse_mode(const char *name, enum demangle_mode *mode)
{
	for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (strcmp(mode_names[i], name) == 0) {
			*mode = (enum demangle_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *demangler__mode_name(unsigned int i)
{
	return i < ARRAY_SIZE(mode_names) ? mode_names[i] : NULL;
}

struct demangler *demangler__new(enum demangle_mode mode)
{
	struct demangler *d;

	if ((unsigned int)mode >= ARRAY_SIZE(mode_names)) {
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->mode = mode;
	return d;
}

void demangler__free(struct demangler *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_owned; i++)
		free(d->owned[i]);
	free(d->owned);
	u64map__free(&d->cache);
	free(d);
}

static int demangler__own(struct demangler *d, char *s)
{
	if (array__grow((void **)&d->owned, &d->cap_owned, d->nr_owned + 1,
			sizeof(*d->owned)))
		return -ENOMEM;
	d->owned[d->nr_owned++] = s;
	return 0;
}

/*
 * libiberty with no style bits tries Rust (legacy and v0) first, then the
 * Itanium C++ ABI: DMGL_RUST alone would refuse C++ names. Without
 * DMGL_PARAMS C++ argument lists (and clone suffixes such as " [clone
 * .cold]") are left out; without DMGL_VERBOSE the legacy Rust hash is.
 */
static char *demangle(const char *raw, enum demangle_mode mode)
{
	int flags = DMGL_ANSI | (mode == DEMANGLE_FULL ? DMGL_PARAMS : 0);
	const char *at;
	char *base, *out, *joined;
	size_t len;

	/* "name@VERSION" or "name@@VERSION": demangle the name, keep the rest. */
	at = strchr(raw, '@');
	if (!at)
		return cplus_demangle(raw, flags);
	base = strndup(raw, at - raw);
	if (!base)
		return NULL;
	out = cplus_demangle(base, flags);
	free(base);
	if (!out)
		return NULL;
	len = strlen(out);
	joined = realloc(out, len + strlen(at) + 1);
	if (!joined) {
		free(out);
		return NULL;
	}
	strcpy(joined + len, at);
	return joined;
}

const char *demangler__name(struct demangler *d, const char *raw)
{
	const char *name;
	char *out;

	/* C++ and both Rust manglings start with _Z or _R; anything else is C. */
	if (d->mode == DEMANGLE_NONE || raw[0] != '_' || (raw[1] != 'Z' && raw[1] != 'R'))
		return raw;
	name = u64map__get(&d->cache, (uintptr_t)raw);
	if (name)
		return name;
	out = demangle(raw, d->mode); /* NULL: not mangled (or no memory: raw) */
	if (out && strcmp(out, raw) == 0) {
		free(out);
		out = NULL;
	}
	if (out && demangler__own(d, out)) {
		free(out);
		errno = ENOMEM;
		return NULL;
	}
	name = out ? out : raw;
	if (u64map__set(&d->cache, (uintptr_t)raw, (void *)name)) {
		errno = ENOMEM;
		return NULL;
	}
	return name;
}
