/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * C++ and Rust (legacy and v0) symbol names made readable, with libiberty.
 * Each unique raw name is demangled once: results are cached by the raw
 * name's address, so a caller passes names that live, unchanged, at least as
 * long as the demangler (symbol table strings do).
 */
#ifndef BPFPROF_DEMANGLER_H
#define BPFPROF_DEMANGLER_H

enum demangle_mode {
	DEMANGLE_SHORT, /* no argument lists, no Rust hash: "ns::Foo<int>::bar" */
	DEMANGLE_FULL, /* with argument lists: "ns::Foo<int>::bar(double)" */
	DEMANGLE_NONE, /* raw names */
};

struct demangler;

/* NULL and errno on failure. */
struct demangler *demangler__new(enum demangle_mode mode);
void demangler__free(struct demangler *d);

/*
 * The readable form of @raw. @raw itself when nothing changes (a C name,
 * a name libiberty does not understand, mode none); else a string that lives
 * as long as @d. The same @raw pointer gives the same result pointer. NULL
 * (errno ENOMEM) only when memory runs out.
 */
const char *demangler__name(struct demangler *d, const char *raw);

/* The mode called @name ("short", "full", "none"); -EINVAL when unknown. */
int demangler__parse_mode(const char *name, enum demangle_mode *mode);
/* The mode names in order, then NULL: for messages and help. */
const char *demangler__mode_name(unsigned int i);

#endif /* BPFPROF_DEMANGLER_H */
