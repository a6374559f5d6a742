/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/symbolize/demangler.c: C++ and Rust names in each mode, the cache. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "demangler.h"

static const char cxx_method[] = "_ZN2ns6WorkerIiE4spinEd";
static const char cxx_lambda[] = "_ZZN2ns3runEdENKUldE_clEd";
static const char cxx_cold[] = "_ZN3foo3barEv.cold";
static const char cxx_versioned[] = "_ZN3foo3barEv@@LIB_1.0";
static const char rust_legacy[] = "_ZN10rust_names4spin8hot_loop17he031c1af9ca70d33E";
static const char rust_v0[] = "_RNvNtCsbt0fQicOZbh_10rust_names4spin8hot_loop";
static const char rust_v0_generic[] = "_RINvNtCs1234_4test4spin8hot_loopmEB4_";
static const char plain_c[] = "other_busy_loop";
static const char not_mangled[] = "_Znot_really_mangled";

static void test_short(void)
{
	struct demangler *d = demangler__new(DEMANGLE_SHORT);

	CHECK(d, "short: new");
	if (!d)
		return;
	CHECK_STR(demangler__name(d, cxx_method), "ns::Worker<int>::spin",
		  "short: C++ method of a class template, no argument list");
	CHECK_STR(demangler__name(d, cxx_lambda),
		  "ns::run(double)::{lambda(double)#1}::operator()", "short: C++ lambda");
	CHECK_STR(demangler__name(d, cxx_cold), "foo::bar",
		  "short: clone suffix dropped");
	CHECK_STR(demangler__name(d, cxx_versioned), "foo::bar@@LIB_1.0",
		  "short: symbol version kept");
	CHECK_STR(demangler__name(d, rust_legacy), "rust_names::spin::hot_loop",
		  "short: Rust legacy, hash dropped");
	CHECK_STR(demangler__name(d, rust_v0), "rust_names::spin::hot_loop",
		  "short: Rust v0");
	CHECK_STR(demangler__name(d, rust_v0_generic), "test::spin::hot_loop::<u32>",
		  "short: Rust v0 generic arguments kept");
	CHECK(demangler__name(d, plain_c) == plain_c, "short: C name is the raw pointer");
	CHECK(demangler__name(d, not_mangled) == not_mangled,
	      "short: a _Z name that is not mangled is the raw pointer");
	demangler__free(d);
}

static void test_full(void)
{
	struct demangler *d = demangler__new(DEMANGLE_FULL);

	CHECK(d, "full: new");
	if (!d)
		return;
	CHECK_STR(demangler__name(d, cxx_method), "ns::Worker<int>::spin(double)",
		  "full: C++ with argument list");
	CHECK_STR(demangler__name(d, cxx_lambda),
		  "ns::run(double)::{lambda(double)#1}::operator()(double) const",
		  "full: C++ lambda");
	CHECK_STR(demangler__name(d, cxx_cold), "foo::bar() [clone .cold]",
		  "full: clone suffix kept");
	CHECK_STR(demangler__name(d, rust_legacy), "rust_names::spin::hot_loop",
		  "full: Rust legacy, hash dropped");
	CHECK_STR(demangler__name(d, rust_v0), "rust_names::spin::hot_loop",
		  "full: Rust v0");
	CHECK(demangler__name(d, plain_c) == plain_c, "full: C name is the raw pointer");
	demangler__free(d);
}

static void test_none(void)
{
	struct demangler *d = demangler__new(DEMANGLE_NONE);

	CHECK(d, "none: new");
	if (!d)
		return;
	CHECK(demangler__name(d, cxx_method) == cxx_method, "none: C++ stays raw");
	CHECK(demangler__name(d, rust_legacy) == rust_legacy,
	      "none: Rust legacy stays raw");
	CHECK(demangler__name(d, rust_v0) == rust_v0, "none: Rust v0 stays raw");
	demangler__free(d);
}

static void test_cache(void)
{
	struct demangler *d = demangler__new(DEMANGLE_SHORT);
	const char *a, *b;

	if (!d) {
		CHECK(0, "cache: new");
		return;
	}
	a = demangler__name(d, cxx_method);
	b = demangler__name(d, cxx_method);
	CHECK(a && a == b, "cache: the same raw pointer gives the same result pointer");
	CHECK(a != cxx_method, "cache: a demangled name is a new string");
	a = demangler__name(d, rust_v0);
	b = demangler__name(d, rust_v0);
	CHECK(a && a == b, "cache: Rust v0 too");
	demangler__free(d);
	demangler__free(NULL);
}

static void test_modes(void)
{
	enum demangle_mode m = DEMANGLE_NONE;

	CHECK(demangler__parse_mode("short", &m) == 0 && m == DEMANGLE_SHORT,
	      "mode: short");
	CHECK(demangler__parse_mode("full", &m) == 0 && m == DEMANGLE_FULL, "mode: full");
	CHECK(demangler__parse_mode("none", &m) == 0 && m == DEMANGLE_NONE, "mode: none");
	CHECK(demangler__parse_mode("Full", &m) == -EINVAL && m == DEMANGLE_NONE,
	      "mode: unknown name");
	CHECK_STR(demangler__mode_name(0), "short", "mode: first name");
	CHECK(demangler__mode_name(3) == NULL, "mode: names end with NULL");
	errno = 0;
	CHECK(!demangler__new((enum demangle_mode)7) && errno == EINVAL,
	      "mode: bad mode");
}

int main(void)
{
	test_short();
	test_full();
	test_none();
	test_cache();
	test_modes();
	return check_done();
}
