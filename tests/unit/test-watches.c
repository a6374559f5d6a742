/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/watch/watchset.c, the parts that need no process:
 * LOCATION arguments into locations (one per *COUNT element, named
 * BASE[i]), the checks, the elements within their symbol (an ELF fixture)
 * and kernel elements following their first (a kallsyms file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "watchset.h"

static void names(char *arg, size_t nr, const char *last)
{
	struct watch_set ws;
	char *args[] = { arg };
	int err = watch_set__init(&ws, args, 1, WATCH_ACCESS_W);

	CHECK(err == 0 && ws.nr == nr, "'%s': %zu locations (%zu)", arg, nr, ws.nr);
	if (!err && ws.nr == nr)
		CHECK_STR(ws.w[nr - 1].name, last, "'%s': the last is named %s", arg, last);
	watch_set__free(&ws);
}

/* x86-64 with 4-level page tables, vm.mmap_min_addr 65536 */
static const struct uspace us4 = { .lo = 0x10000, .hi = 0x7ffffffff000 };

/* @arg checked with @access (a process target): the error, or "" */
static void checked_in(char *arg, enum watch_access access, const struct uspace *us,
		       const char *want)
{
	struct watch_set ws;
	char *args[] = { arg };
	int err = watch_set__init(&ws, args, 1, access);

	err = err ?: watch_set__check(&ws, false, true, us);
	CHECK_STR(err ? watch_set__error(&ws) : "", want, "check '%s'", arg);
	watch_set__free(&ws);
}

static void checked(char *arg, enum watch_access access, const char *want)
{
	checked_in(arg, access, &us4, want);
}

/* @arg checked against the ELF fixture: the error, or "" */
static void in_file(char *arg, const char *want)
{
	const char *exe = getenv("FIXTURE_EXE");
	struct watch_set ws;
	char *args[] = { arg };
	int err;

	if (!exe) {
		CHECK(0, "FIXTURE_EXE is set");
		return;
	}
	err = watch_set__init(&ws, args, 1, WATCH_ACCESS_W);
	err = err ?: watch_set__check_file(&ws, exe);
	CHECK_STR(err ? watch_set__error(&ws) : "", want, "'%s' in the fixture", arg);
	watch_set__free(&ws);
}

int main(void)
{
	char a0[] = "ring:4*3", a1[] = "counter", a2[] = "kernel:jiffies:1*8";
	char *args[] = { a0, a1 };
	char kallsyms[] = "/tmp/test-watches-XXXXXX";
	struct watch_set ws;
	int err, fd;

	/* elements: locations in a row, each its index, its offset, the first's strings */
	err = watch_set__init(&ws, args, 2, WATCH_ACCESS_W);
	CHECK(err == 0 && ws.nr == 4, "ring:4*3 counter: 4 locations");
	if (!err && ws.nr == 4) {
		CHECK(ws.w[0].index == 0 && ws.w[2].index == 2 && ws.w[3].index == 3,
		      "each location its index");
		CHECK(ws.w[0].elem == 0 && ws.w[1].elem == 1 && ws.w[2].elem == 2 &&
		      ws.w[3].elem == 0, "elements 0, 1, 2, then counter's 0");
		CHECK(ws.w[0].spec.offset == 0 && ws.w[1].spec.offset == 4 &&
		      ws.w[2].spec.offset == 8 && ws.w[3].spec.offset == 0,
		      "element i at +i*LEN");
		CHECK(ws.w[1].spec.symbol == ws.w[0].spec.symbol, "an element shares the symbol");
		CHECK_STR(ws.w[1].name, "ring[1]", "element 1 is ring[1]");
		CHECK_STR(ws.w[3].name, "counter", "a single location is named as given");
		CHECK(ws.w[1].arg == a0, "an element's errors name the argument");
	}
	watch_set__free(&ws);
	watch_set__free(&ws);

	names((char[]){ "arr+8:2*2" }, 2, "arr+8[1]");
	names((char[]){ "libc.so.6:arr:8*3" }, 3, "libc.so.6:arr[2]");
	names((char[]){ "kernel:jiffies:1*8" }, 8, "kernel:jiffies[7]");
	names((char[]){ "0x1000:8*2" }, 2, "0x1000[1]");
	names((char[]){ "ns::arr:4*2" }, 2, "ns::arr[1]");
	names((char[]){ "arr*2" }, 2, "arr[1]");
	names((char[]){ "arr:4*1" }, 1, "arr:4*1");

	checked((char[]){ "ring:4*16" }, WATCH_ACCESS_W, "");
	checked((char[]){ "ring*16" }, WATCH_ACCESS_W, "location 'ring*16': elements (*COUNT) "
		"need their length: e.g. 'ring:4*16' for 16 elements of 4 bytes");
	checked((char[]){ "ring+8*2" }, WATCH_ACCESS_RW, "location 'ring+8*2': elements "
		"(*COUNT) need their length: e.g. 'ring+8:4*2' for 2 elements of 4 bytes");
	checked((char[]){ "f:1*2" }, WATCH_ACCESS_X, "location 'f:1*2': elements (*COUNT) are "
		"data; an instruction breakpoint (--access=x) watches one function each");
	checked((char[]){ "0xfffffffffffffff0:8*3" }, WATCH_ACCESS_W,
		"location '0xfffffffffffffff0:8*3': its elements end past the last address");
	checked((char[]){ "0xfffffffffffffff0:8*2" }, WATCH_ACCESS_W,
		"location '0xfffffffffffffff0:8*2': 0xfffffffffffffff0 is not where a process "
		"can map: expected all its bytes at addresses from 0x10000 (vm.mmap_min_addr) "
		"to 0x7fffffffefff (the top of user space)");

	/* addresses: from vm.mmap_min_addr to the top of user space, all bytes */
	checked((char[]){ "0x0:8" }, WATCH_ACCESS_W,
		"location '0x0:8': 0x0 is not where a process can map: expected all its bytes "
		"at addresses from 0x10000 (vm.mmap_min_addr) to 0x7fffffffefff (the top of "
		"user space)");
	checked((char[]){ "0xffffffff81000000:8" }, WATCH_ACCESS_RW,
		"location '0xffffffff81000000:8': 0xffffffff81000000 is not where a process "
		"can map: expected all its bytes at addresses from 0x10000 (vm.mmap_min_addr) "
		"to 0x7fffffffefff (the top of user space)");
	checked((char[]){ "0xfff0+8:1" }, WATCH_ACCESS_W,
		"location '0xfff0+8:1': 0xfff8 is not where a process can map: expected "
		"addresses from 0x10000 (vm.mmap_min_addr) to 0x7fffffffefff (the top of user "
		"space)");
	checked((char[]){ "0x10000:8" }, WATCH_ACCESS_W, "");
	checked((char[]){ "0x7fffffffeff8:8" }, WATCH_ACCESS_W, "");
	checked((char[]){ "0x7fffffffeff0:8*2" }, WATCH_ACCESS_W, "");
	checked((char[]){ "0x7fffffffeff8:8*2" }, WATCH_ACCESS_W,
		"location '0x7fffffffeff8:8*2': 0x7ffffffff000 is not where a process can map: "
		"expected all its bytes at addresses from 0x10000 (vm.mmap_min_addr) to "
		"0x7fffffffefff (the top of user space)");
	checked((char[]){ "0x7fffffffeffc:8" }, WATCH_ACCESS_W,
		"location '0x7fffffffeffc:8': 0x7fffffffeffc is not where a process can map: "
		"expected all its bytes at addresses from 0x10000 (vm.mmap_min_addr) to "
		"0x7fffffffefff (the top of user space)");
	checked((char[]){ "0x7ffffffff000" }, WATCH_ACCESS_X,
		"location '0x7ffffffff000': 0x7ffffffff000 is not where a process can map: "
		"expected addresses from 0x10000 (vm.mmap_min_addr) to 0x7fffffffefff (the top "
		"of user space)");
	/* 5-level page tables: 56 bits; vm.mmap_min_addr 0: page 0 too */
	checked_in((char[]){ "0x7ffffffff000:8" }, WATCH_ACCESS_W,
		   &(struct uspace){ .lo = 0, .hi = 0xfffffffffff000 }, "");
	checked_in((char[]){ "0x0:8" }, WATCH_ACCESS_W,
		   &(struct uspace){ .lo = 0, .hi = 0xfffffffffff000 }, "");
	checked_in((char[]){ "0x100000000000000:8" }, WATCH_ACCESS_W,
		   &(struct uspace){ .lo = 0, .hi = 0xfffffffffff000 },
		   "location '0x100000000000000:8': 0x100000000000000 is not where a process can "
		   "map: expected all its bytes at addresses from 0x0 (vm.mmap_min_addr) to "
		   "0xffffffffffefff (the top of user space)");

	/* fx_data_var is an int */
	in_file((char[]){ "fx_data_var:2*2" }, "");
	in_file((char[]){ "fx_data_var+1:1*3" }, "");
	in_file((char[]){ "fx_data_var:2*3" }, "location 'fx_data_var:2*3': 3 elements of 2 "
		"bytes from offset 0 end at byte 6; fx_data_var is 4 bytes");
	in_file((char[]){ "fx_data_var+2:1*3" }, "location 'fx_data_var+2:1*3': 3 elements of "
		"1 byte from offset 2 end at byte 5; fx_data_var is 4 bytes");
	in_file((char[]){ "fx_data_var+8:1*2" }, "location 'fx_data_var+8:1*2': 2 elements of "
		"1 byte from offset 8 end at byte 10; fx_data_var is 4 bytes");

	/* kernel elements: the first from kallsyms, the others LEN bytes apart */
	fd = mkstemp(kallsyms);
	CHECK(fd >= 0 && dprintf(fd, "ffffffff81000000 T _text\nffffffff82001000 D jiffies\n") > 0,
	      "a kallsyms file");
	if (fd >= 0)
		close(fd);
	args[0] = a2;
	err = watch_set__init(&ws, args, 1, WATCH_ACCESS_RW);
	err = err ?: watch_set__check(&ws, true, false, &us4);
	err = err ?: watch_set__resolve_kernel(&ws, kallsyms);
	CHECK(err == 0 && ws.nr == 8, "kernel:jiffies:1*8: resolved (%s)", watch_set__error(&ws));
	if (!err && ws.nr == 8) {
		const struct watch_place *p0 = watch_set__place(&ws.w[0], 0);
		const struct watch_place *p7 = watch_set__place(&ws.w[7], 0);

		CHECK(p0 && p0->addr == 0xffffffff82001000ull, "element 0 at jiffies");
		CHECK(p7 && p7->addr == 0xffffffff82001007ull && ws.w[7].len == 1,
		      "element 7 at jiffies+7, 1 byte");
		CHECK(!watch_set__place(&ws.w[7], 1), "no place in a process");
	}
	watch_set__free(&ws);
	unlink(kallsyms);
	return check_done();
}
