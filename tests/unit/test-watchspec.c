/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/watch/watchspec.c: LOCATION, --access and --if of `bpfprof watch`. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "watchspec.h"

static int str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static void good(const char *arg, enum watch_kind kind, const char *binary, const char *symbol,
		 uint64_t addr, uint64_t offset, unsigned int len, unsigned long long count)
{
	struct watchspec w = { 0 };
	const char *why = "unset";
	int err = watchspec__parse(arg, &w, &why);

	CHECK(err == 0, "good '%s': parses", arg);
	if (err) {
		printf("#   err %d, why '%s'\n", err, why ? why : "(null)");
		return;
	}
	CHECK(w.kind == kind, "good '%s': kind %d", arg, kind);
	CHECK(str_eq(w.binary, binary), "good '%s': binary '%s'", arg, binary ? binary : "(none)");
	CHECK(str_eq(w.symbol, symbol), "good '%s': symbol '%s'", arg, symbol ? symbol : "(none)");
	if (!str_eq(w.symbol, symbol))
		printf("#   got '%s'\n", w.symbol ? w.symbol : "(null)");
	CHECK(w.addr == addr && w.offset == offset, "good '%s': address %#llx + %#llx", arg,
	      (unsigned long long)addr, (unsigned long long)offset);
	CHECK(w.len == len && w.count == count, "good '%s': length %u, count %llu", arg, len,
	      count);
	watchspec__free(&w);
	watchspec__free(&w);
}

static void bad(const char *arg, const char *want)
{
	struct watchspec w = { .kind = WATCH_ABS_ADDR, .addr = 7 };
	const char *why = NULL;
	int err = watchspec__parse(arg, &w, &why);

	CHECK(err == -EINVAL, "bad '%s': -EINVAL", arg ? arg : "(NULL)");
	CHECK_STR(why, want, "bad '%s': %s", arg ? arg : "(NULL)", want);
	CHECK(w.kind == WATCH_ABS_ADDR && w.addr == 7 && !w.symbol && !w.binary,
	      "bad '%s': output untouched", arg ? arg : "(NULL)");
}

static void good_if(const char *expr, unsigned int nr, const struct watch_term *want)
{
	struct watch_term t[WATCH_MAX_TERMS];
	unsigned int n = 99;
	char why[256] = "";
	int err = watchspec__parse_if(expr, t, &n, why, sizeof(why));

	CHECK(err == 0 && n == nr, "--if '%s': %u terms", expr, nr);
	if (err || n != nr) {
		printf("#   err %d, %u terms, why '%s'\n", err, n, why);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		CHECK(t[i].operand == want[i].operand && t[i].reg == want[i].reg &&
		      t[i].cmp == want[i].cmp && t[i].is_signed == want[i].is_signed &&
		      t[i].mask == want[i].mask && t[i].constant == want[i].constant,
		      "--if '%s': term %u", expr, i);
}

static void bad_if(const char *expr, const char *want)
{
	struct watch_term t[WATCH_MAX_TERMS];
	unsigned int n;
	char why[256] = "";
	int err = watchspec__parse_if(expr, t, &n, why, sizeof(why));

	CHECK(err == -EINVAL, "bad --if '%s': -EINVAL", expr);
	CHECK(!strncmp(why, want, strlen(want)), "bad --if '%s': %s", expr, want);
	if (strncmp(why, want, strlen(want)))
		printf("#   got '%s'\n", why);
}

int main(void)
{
	enum watch_access a;

	good("counter", WATCH_EXE_SYM, NULL, "counter", 0, 0, 0, 1);
	good("counter:4", WATCH_EXE_SYM, NULL, "counter", 0, 0, 4, 1);
	good("counter+8", WATCH_EXE_SYM, NULL, "counter", 0, 8, 0, 1);
	good("arr+0x10:8", WATCH_EXE_SYM, NULL, "arr", 0, 16, 8, 1);
	good("arr:8*16", WATCH_EXE_SYM, NULL, "arr", 0, 0, 8, 16);
	good("libfoo.so:state", WATCH_BIN_SYM, "libfoo.so", "state", 0, 0, 0, 1);
	good("/usr/lib/libfoo.so:state:2", WATCH_BIN_SYM, "/usr/lib/libfoo.so", "state", 0, 0, 2,
	     1);
	good("ns::var", WATCH_EXE_SYM, NULL, "ns::var", 0, 0, 0, 1);
	good("lib.so:ns::var:1", WATCH_BIN_SYM, "lib.so", "ns::var", 0, 0, 1, 1);
	good("0x7ffc1000:8", WATCH_ABS_ADDR, NULL, NULL, 0x7ffc1000, 0, 8, 1);
	good("0x1000+4:4", WATCH_ABS_ADDR, NULL, NULL, 0x1000, 4, 4, 1);
	good("kernel:jiffies:8", WATCH_KERNEL_SYM, NULL, "jiffies", 0, 0, 8, 1);
	good("kernel:jiffies", WATCH_KERNEL_SYM, NULL, "jiffies", 0, 0, 0, 1);

	bad("", "the location is empty");
	bad(NULL, "the location is empty");
	bad("counter:3", "LEN after ':' is 1, 2, 4 or 8 bytes");
	bad("counter:16", "LEN after ':' is 1, 2, 4 or 8 bytes");
	bad("arr:8*0", "COUNT after '*' is a number of elements from 1 to 1048576");
	bad("arr:8*x", "COUNT after '*' is a number of elements");
	bad("0xzz:8", "an address is 0x and hexadecimal digits");
	bad("kernel:", "the symbol is empty");
	bad(":foo", "the binary before ':' is empty");
	bad("lib.so:", "the symbol is empty");
	bad("9lives", "a symbol does not start with a digit or a space, nor end with a space");
	bad("0xffffffffffffffff+1:1", "the address plus OFFSET does not fit in 64 bits");

	CHECK(!watchspec__parse_access("w", &a) && a == WATCH_ACCESS_W, "--access=w");
	CHECK(!watchspec__parse_access("rw", &a) && a == WATCH_ACCESS_RW, "--access=rw");
	CHECK(!watchspec__parse_access("x", &a) && a == WATCH_ACCESS_X, "--access=x");
	CHECK(watchspec__parse_access("wr", &a) == -EINVAL, "--access=wr refused");
	CHECK(watchspec__parse_access(NULL, &a) == -EINVAL, "no --access refused");
	CHECK_STR(watch_spec__access_name(WATCH_ACCESS_R), "r", "access name r");

	good_if("value == 7", 1,
		(struct watch_term[]){ { .operand = WATCH_VALUE, .cmp = WATCH_EQ, .mask = ~0ull,
					 .constant = 7 } });
	good_if("rdi==3&&value&0xff != 0x10 && tid >= 100", 3,
		(struct watch_term[]){
			{ .operand = WATCH_REG, .reg = 5, .cmp = WATCH_EQ, .mask = ~0ull,
			  .constant = 3 },
			{ .operand = WATCH_VALUE, .cmp = WATCH_NE, .mask = 0xff,
			  .constant = 0x10 },
			{ .operand = WATCH_TID, .cmp = WATCH_GE, .mask = ~0ull, .constant = 100 } });
	good_if("value < -1", 1,
		(struct watch_term[]){ { .operand = WATCH_VALUE, .cmp = WATCH_LT, .mask = ~0ull,
					 .is_signed = 1, .constant = (uint64_t)-1 } });
	good_if(" ip <= +5 && sp > 0 && pid != 1 && r15 == 0 ", 4,
		(struct watch_term[]){
			{ .operand = WATCH_REG, .reg = WATCH_REG_IP, .cmp = WATCH_LE, .mask = ~0ull,
			  .is_signed = 1, .constant = 5 },
			{ .operand = WATCH_REG, .reg = 7, .cmp = WATCH_GT, .mask = ~0ull },
			{ .operand = WATCH_PID, .cmp = WATCH_NE, .mask = ~0ull, .constant = 1 },
			{ .operand = WATCH_REG, .reg = 15, .cmp = WATCH_EQ, .mask = ~0ull } });
	bad_if("", "the expression is empty");
	bad_if("value", "term 'value' has no comparison");
	bad_if("rdq == 3", "unknown operand 'rdq'");
	bad_if("value == x", "'x' is not a constant");
	bad_if("value & zz == 1", "mask 'zz' is not a number");
	bad_if("value == 1 && ", "an empty term around '&&'");
	bad_if("value == -9223372036854775809", "'-9223372036854775809' is not a constant");
	bad_if("tid==1&&tid==1&&tid==1&&tid==1&&tid==1&&tid==1&&tid==1&&tid==1&&tid==1",
	       "more than 8 terms");
	return check_done();
}
