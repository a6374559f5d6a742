/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/range/rangespec.c: RANGE arguments of `bpfprof range`. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "rangespec.h"

#define NOT_KSYM "not a kernel symbol name (a function in a binary is BINARY:SYMBOL)"
#define DIGIT_FIRST "a symbol does not start with a digit (addresses start with 0x)"

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Parse @arg and compare every field of the result with the wanted ones. */
static void good(const char *arg, enum range_kind kind, const char *binary, bool is_path,
		 const char *symbol, uint64_t start, uint64_t end)
{
	struct rangespec r = { 0 };
	const char *why = "unset";
	int err = rangespec__parse(arg, &r, &why);

	CHECK(err == 0, "good '%s': parses", arg);
	if (err) {
		printf("#   err %d, why '%s'\n", err, why ? why : "(null)");
		return;
	}
	CHECK(r.kind == kind, "good '%s': kind %s", arg, range_spec__kind_name(kind));
	CHECK(str_eq(r.binary, binary) && r.binary_is_path == is_path,
	      "good '%s': binary '%s'%s", arg, binary ? binary : "(none)",
	      is_path ? " (a path)" : "");
	if (!str_eq(r.binary, binary))
		printf("#   got '%s'\n", r.binary ? r.binary : "(null)");
	CHECK(str_eq(r.symbol, symbol), "good '%s': symbol '%s'", arg,
	      symbol ? symbol : "(none)");
	if (!str_eq(r.symbol, symbol))
		printf("#   got '%s'\n", r.symbol ? r.symbol : "(null)");
	CHECK(r.start == start && r.end == end, "good '%s': [%#llx, %#llx)", arg,
	      (unsigned long long)start, (unsigned long long)end);
	if (r.start != start || r.end != end)
		printf("#   got [%#llx, %#llx)\n", (unsigned long long)r.start,
		       (unsigned long long)r.end);
	rangespec__free(&r);
}

/* @arg is rejected with -EINVAL and exactly @want as the reason; @out untouched. */
static void bad(const char *arg, const char *want)
{
	struct rangespec r = { .kind = RANGE_ABS_ADDR, .start = 7, .end = 9 };
	const char *why = NULL;
	int err = rangespec__parse(arg, &r, &why);

	CHECK(err == -EINVAL, "bad '%s': -EINVAL", arg ? arg : "(NULL)");
	CHECK_STR(why, want, "bad '%s': %s", arg ? arg : "(NULL)", want);
	CHECK(r.kind == RANGE_ABS_ADDR && r.start == 7 && r.end == 9 && !r.binary &&
		      !r.symbol,
	      "bad '%s': output untouched", arg ? arg : "(NULL)");
	if (!err)
		rangespec__free(&r);
}

static void test_kernel(void)
{
	good("schedule", RANGE_KERNEL_SYM, NULL, false, "schedule", 0, 0);
	good("kernel:schedule", RANGE_KERNEL_SYM, NULL, false, "schedule", 0, 0);
	good("kernel:__x64_sys_getpid", RANGE_KERNEL_SYM, NULL, false, "__x64_sys_getpid",
	     0, 0);
	good("copy_page.isra.0", RANGE_KERNEL_SYM, NULL, false, "copy_page.isra.0", 0, 0);
	good("_RNvCs1234_4core3fmt", RANGE_KERNEL_SYM, NULL, false,
	     "_RNvCs1234_4core3fmt", 0, 0);
	good("kernel:0xffffffff81000000-0xffffffff81001000", RANGE_KERNEL_ADDR, NULL,
	     false, NULL, 0xffffffff81000000ULL, 0xffffffff81001000ULL);
	good("kernel:0xffffffff81000000+4096", RANGE_KERNEL_ADDR, NULL, false, NULL,
	     0xffffffff81000000ULL, 0xffffffff81001000ULL);
	good("./kernel:main", RANGE_BIN_SYM, "./kernel", true, "main", 0, 0);
	good("kernel.so:f", RANGE_BIN_SYM, "kernel.so", false, "f", 0, 0);
	good("Kernel:f", RANGE_BIN_SYM, "Kernel", false, "f", 0, 0);
}

static void test_binary(void)
{
	good("libc.so.6:memcpy", RANGE_BIN_SYM, "libc.so.6", false, "memcpy", 0, 0);
	good("/usr/bin/ls:main", RANGE_BIN_SYM, "/usr/bin/ls", true, "main", 0, 0);
	good("./a.out:main", RANGE_BIN_SYM, "./a.out", true, "main", 0, 0);
	good("[vdso]:__vdso_clock_gettime", RANGE_BIN_SYM, "[vdso]", false,
	     "__vdso_clock_gettime", 0, 0);
	good("/opt/my app/bin:f", RANGE_BIN_SYM, "/opt/my app/bin", true, "f", 0, 0);
}

static void test_cxx(void)
{
	good("libfoo.so:ns::f", RANGE_BIN_SYM, "libfoo.so", false, "ns::f", 0, 0);
	good("libfoo.so:ns::Foo<int>::bar(double) const", RANGE_BIN_SYM, "libfoo.so",
	     false, "ns::Foo<int>::bar(double) const", 0, 0);
	good("/usr/lib/libstdc++.so.6:std::__cxx11::basic_string<char>::_M_create",
	     RANGE_BIN_SYM, "/usr/lib/libstdc++.so.6", true,
	     "std::__cxx11::basic_string<char>::_M_create", 0, 0);
	good("libfoo.so:::f", RANGE_BIN_SYM, "libfoo.so", false, "::f", 0, 0);
	good("a:b::c:d", RANGE_BIN_SYM, "a", false, "b::c:d", 0, 0);
	good("prog:type:.eq.main.T", RANGE_BIN_SYM, "prog", false, "type:.eq.main.T", 0,
	     0);
	good("prog:go:buildid", RANGE_BIN_SYM, "prog", false, "go:buildid", 0, 0);
	good("prog:<T as core::fmt::Debug>::fmt", RANGE_BIN_SYM, "prog", false,
	     "<T as core::fmt::Debug>::fmt", 0, 0);
	good("lib::x.so:f", RANGE_BIN_SYM, "lib::x.so", false, "f", 0, 0);
}

static void test_addresses(void)
{
	good("0x1000-0x2000", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0x2000);
	good("0X1000-0XaBcD", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0xabcd);
	good("0x1000+0x10", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0x1010);
	good("0x1000+16", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0x1010);
	good("0x1000+1", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0x1001);
	good("0x0-0x1", RANGE_ABS_ADDR, NULL, false, NULL, 0, 1);
	good("0x0+0xffffffffffffffff", RANGE_ABS_ADDR, NULL, false, NULL, 0, UINT64_MAX);
	good("0xfffffffffffffffe+1", RANGE_ABS_ADDR, NULL, false, NULL,
	     0xfffffffffffffffeULL, UINT64_MAX);
	good("0x0000000000000000001-0x00000000000000000002", RANGE_ABS_ADDR, NULL, false,
	     NULL, 1, 2);
	good("0x1000+010", RANGE_ABS_ADDR, NULL, false, NULL, 0x1000, 0x100a);
	good("libc.so.6:0x28000-0x28100", RANGE_BIN_ADDR, "libc.so.6", false, NULL,
	     0x28000, 0x28100);
	good("/usr/bin/prog:0x401000+256", RANGE_BIN_ADDR, "/usr/bin/prog", true, NULL,
	     0x401000, 0x401100);
	good("lib::x.so:0x10+0x10", RANGE_BIN_ADDR, "lib::x.so", false, NULL, 0x10, 0x20);
}

static void test_malformed(void)
{
	bad(NULL, "the range is empty");
	bad("", "the range is empty");
	bad(":memcpy", "the binary name is empty");
	bad(":0x10-0x20", "the binary name is empty");
	bad("libc.so.6:", "the symbol name is empty");
	bad("kernel:", "the symbol name is empty");
	bad("/usr/lib/:f", "the binary path ends with '/'");
	bad(" libc.so.6:memcpy", "a name starts or ends with a space");
	bad("libc.so.6 :memcpy", "a name starts or ends with a space");
	bad("libc.so.6: memcpy", "a name starts or ends with a space");
	bad("libc.so.6:memcpy ", "a name starts or ends with a space");
	bad(" schedule", "a name starts or ends with a space");
	bad("lib.so:1f", DIGIT_FIRST);
	bad("1000-2000", DIGIT_FIRST);
	bad("lib.so:1000-2000", DIGIT_FIRST);
	bad("kernel:ns::f", NOT_KSYM);
	bad("ns::f", NOT_KSYM);
	bad("/usr/bin/ls", NOT_KSYM);
	bad("libc.so.6 memcpy", NOT_KSYM);
	bad("ffffffff81000000-ffffffff81001000", NOT_KSYM);
	bad("kernel:schedule+0x10", NOT_KSYM);

	/* Addresses. */
	bad("0x2000-0x1000", "the end address is not above the start");
	bad("lib.so:0x2000-0x1fff", "the end address is not above the start");
	bad("0x1000-0x1000", "the range is empty");
	bad("0x1000+0", "the range is empty");
	bad("0x1000+0x0", "the range is empty");
	bad("kernel:0x1000+0", "the range is empty");
	bad("0x1+0xffffffffffffffff", "the range runs past the end of the address space");
	bad("0xffffffffffffffff+1", "the range runs past the end of the address space");
	bad("lib.so:0xfffffffffffffff0+18446744073709551615",
	    "the range runs past the end of the address space");
	bad("0x10000000000000000-0x10000000000000001",
	    "a number does not fit in 64 bits");
	bad("0x1-0x10000000000000000", "a number does not fit in 64 bits");
	bad("0x1+0x10000000000000000", "a number does not fit in 64 bits");
	bad("0x1+18446744073709551616", "a number does not fit in 64 bits");
	bad("0x", "expected hexadecimal digits after 0x");
	bad("0x-0x10", "expected hexadecimal digits after 0x");
	bad("0xg-0x10", "expected hexadecimal digits after 0x");
	bad("0x10-0x", "expected hexadecimal digits after 0x");
	bad("0x10+0x", "expected hexadecimal digits after 0x");
	bad("0x10", "expected -0xEND or +LEN after the start address");
	bad("lib.so:0x10", "expected -0xEND or +LEN after the start address");
	bad("0x10g-0x20", "expected -0xEND or +LEN after the start address");
	bad("0x10 -0x20", "expected -0xEND or +LEN after the start address");
	bad("0x10*0x20", "expected -0xEND or +LEN after the start address");
	bad("0x10-", "the end address is missing");
	bad("0x10+", "the length is missing");
	bad("0x10-20", "addresses are hexadecimal and start with 0x");
	bad("0x10--0x20", "addresses are hexadecimal and start with 0x");
	bad("0x10-+0x20", "addresses are hexadecimal and start with 0x");
	bad("0x10+-5", "the length is not a number");
	bad("0x10++5", "the length is not a number");
	bad("0x10+abc", "the length is not a number");
	bad("0x10-0x20x", "junk after the end of the range");
	bad("0x10-0x20 ", "junk after the end of the range");
	bad("0x10-0x20-0x30", "junk after the end of the range");
	bad("0x10+16k", "junk after the end of the range");
	bad("0x10+0x10g", "junk after the end of the range");
	bad("lib.so:0x10-0x20:f", "junk after the end of the range");
}

static void test_free(void)
{
	struct rangespec r = { 0 };
	const char *why = "unset";

	CHECK(rangespec__parse("libc.so.6:memcpy", &r, NULL) == 0 && r.binary && r.symbol,
	      "free: parse without a why pointer");
	rangespec__free(&r);
	CHECK(!r.binary && !r.symbol && r.start == 0 && r.end == 0, "free: spec cleared");
	rangespec__free(&r);
	rangespec__free(NULL); /* a crash here prints no plan, and the run fails */
	CHECK(!r.binary && !r.symbol && r.start == 0 && r.end == 0,
	      "free: twice leaves the spec cleared");
	CHECK(rangespec__parse("0x2-0x1", &r, NULL) == -EINVAL,
	      "bad without a why pointer");
	CHECK(rangespec__parse("0x1-0x2", &r, &why) == 0 && !r.binary && !r.symbol,
	      "address ranges allocate nothing");
	rangespec__free(&r);
}

static void test_kind_names(void)
{
	CHECK_STR(range_spec__kind_name(RANGE_KERNEL_SYM), "kernel symbol",
		  "kind name: kernel symbol");
	CHECK_STR(range_spec__kind_name(RANGE_KERNEL_ADDR), "kernel addresses",
		  "kind name: kernel addresses");
	CHECK_STR(range_spec__kind_name(RANGE_BIN_SYM), "symbol in a binary",
		  "kind name: symbol in a binary");
	CHECK_STR(range_spec__kind_name(RANGE_BIN_ADDR), "addresses in a binary",
		  "kind name: addresses in a binary");
	CHECK_STR(range_spec__kind_name(RANGE_ABS_ADDR), "absolute addresses",
		  "kind name: absolute addresses");
}

int main(void)
{
	test_kernel();
	test_binary();
	test_cxx();
	test_addresses();
	test_malformed();
	test_free();
	test_kind_names();
	return check_done();
}
