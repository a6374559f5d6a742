/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/disasm/disasm.c (Zydis): x86-64 bytes -> address, size, text. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"
#include "check.h"
#include "disasm.h"

struct want {
	uint64_t addr;
	unsigned int size;
	const char *text;
	const char *mnemonic;
	const char *operands;
};

/* Instructions seen by collect(), copied (the strings do not outlive a call). */
struct seen {
	struct {
		uint64_t addr;
		const uint8_t *bytes;
		unsigned int size;
		bool bad;
		char text[256], mnemonic[64], operands[192];
	} insn[64];
	size_t nr;
	size_t stop_after; /* return 1 after this many; 0: never */
};

static int collect(const struct insn *insn, void *arg)
{
	struct seen *s = arg;

	if (s->nr < ARRAY_SIZE(s->insn)) {
		s->insn[s->nr].addr = insn->addr;
		s->insn[s->nr].bytes = insn->bytes;
		s->insn[s->nr].size = insn->size;
		s->insn[s->nr].bad = insn->bad;
		snprintf(s->insn[s->nr].text, sizeof(s->insn[0].text), "%s", insn->text);
		snprintf(s->insn[s->nr].mnemonic, sizeof(s->insn[0].mnemonic), "%s",
			 insn->mnemonic);
		snprintf(s->insn[s->nr].operands, sizeof(s->insn[0].operands), "%s",
			 insn->operands);
	}
	s->nr++;
	if (s->stop_after && s->nr == s->stop_after)
		return 1;
	return 0;
}

/* Disassemble @code at @vaddr and compare with @want, instruction by instruction. */
static void expect(struct disasm *d, const char *what, const uint8_t *code, size_t size,
		   uint64_t vaddr, const struct want *want, size_t nr)
{
	struct seen *s = calloc(1, sizeof(*s));
	size_t i, off = 0;

	CHECK(disasm__each(d, code, size, vaddr, collect, s) == 0, "%s: walk returns 0",
	      what);
	CHECK(s->nr == nr, "%s: %zu instructions", what, nr);
	for (i = 0; i < nr && i < s->nr; i++) {
		CHECK(s->insn[i].addr == want[i].addr &&
			      s->insn[i].size == want[i].size &&
			      s->insn[i].bytes == code + off,
		      "%s: #%zu at %#llx, %u bytes", what, i,
		      (unsigned long long)want[i].addr, want[i].size);
		CHECK_STR(s->insn[i].text, want[i].text, "%s: #%zu is '%s'", what, i,
			  want[i].text);
		CHECK_STR(s->insn[i].mnemonic, want[i].mnemonic, "%s: #%zu mnemonic '%s'",
			  what, i, want[i].mnemonic);
		CHECK_STR(s->insn[i].operands, want[i].operands, "%s: #%zu operands '%s'",
			  what, i, want[i].operands);
		CHECK(s->insn[i].bad == !strcmp(want[i].mnemonic, ".byte"), "%s: #%zu %s",
		      what, i, s->insn[i].bad ? "is bad" : "is not bad");
		off += want[i].size;
	}
	free(s);
}

static void test_prologue(struct disasm *d)
{
	static const uint8_t code[] = {
		0x55, /* push rbp */
		0x48, 0x89, 0xe5, /* mov rbp, rsp */
		0x5d, /* pop rbp */
		0xc3, /* ret */
	};
	static const struct want want[] = {
		{ 0x401000, 1, "push rbp", "push", "rbp" },
		{ 0x401001, 3, "mov rbp, rsp", "mov", "rbp, rsp" },
		{ 0x401004, 1, "pop rbp", "pop", "rbp" },
		{ 0x401005, 1, "ret", "ret", "" },
	};

	expect(d, "prologue", code, sizeof(code), 0x401000, want, ARRAY_SIZE(want));
}

static void test_assorted(struct disasm *d)
{
	static const uint8_t code[] = {
		0xf3, 0x0f, 0x1e, 0xfa, /* endbr64 */
		0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00, /* lea rax, [rip+0x10] */
		0xe8, 0x00, 0x00, 0x00, 0x00, /* call next */
		0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00, /* 6-byte nop */
		0x0f, 0x0b, /* ud2 */
	};
	static const struct want want[] = {
		{ 0xffffffff81000000ULL, 4, "endbr64", "endbr64", "" },
		{ 0xffffffff81000004ULL, 7, "lea rax, [rip+0x10]", "lea", "rax, [rip+0x10]" },
		{ 0xffffffff8100000bULL, 5, "call 0xffffffff81000010", "call",
		  "0xffffffff81000010" },
		{ 0xffffffff81000010ULL, 6, "nop word ptr [rax+rax*1]", "nop",
		  "word ptr [rax+rax*1]" },
		{ 0xffffffff81000016ULL, 2, "ud2", "ud2", "" },
	};

	expect(d, "assorted", code, sizeof(code), 0xffffffff81000000ULL, want,
	       ARRAY_SIZE(want));
}

static void test_bad(struct disasm *d)
{
	static const uint8_t code[] = {
		0x06, /* push es: invalid in 64-bit mode */
		0xd6, /* salc: invalid in 64-bit mode */
		0x90, /* nop */
		0x48, 0x89, /* mov, cut short by the end of the buffer */
	};
	static const struct want want[] = {
		{ 0x1000, 1, ".byte 0x06", ".byte", "0x06" },
		{ 0x1001, 1, ".byte 0xd6", ".byte", "0xd6" },
		{ 0x1002, 1, "nop", "nop", "" },
		{ 0x1003, 1, ".byte 0x48", ".byte", "0x48" },
		{ 0x1004, 1, ".byte 0x89", ".byte", "0x89" },
	};

	expect(d, "bad bytes", code, sizeof(code), 0x1000, want, ARRAY_SIZE(want));
}

/*
 * glibc's __memcmp_evex_movbe (Debian 12, libc.so.6 at 0x163950), which
 * capstone 4 could not decode: VEX opmask moves and EVEX (AVX-512) compares.
 */
static void test_avx512(struct disasm *d)
{
	static const uint8_t code[] = {
		0xc5, 0xfb, 0x92, 0xd1, /* kmovd k2, ecx */
		0x62, 0xe1, 0x7f, 0x2a, 0x6f, 0x16, /* vmovdqu8 ymm18{k2}, [rsi] */
		0x62, 0xf3, 0x6d, 0x22, 0x3e, 0x0f, 0x04, /* vpcmpnequb k1{k2}, ymm18, [rdi] */
		0xc5, 0xfb, 0x93, 0xc1, /* kmovd eax, k1 */
		0x62, 0xb1, 0x75, 0x20, 0xda, 0xc0, /* vpminub ymm0, ymm17, ymm16 */
		0xc3, /* ret */
	};
	static const struct want want[] = {
		{ 0x163950, 4, "kmovd k2, ecx", "kmovd", "k2, ecx" },
		{ 0x163954, 6, "vmovdqu8 ymm18 {k2}, ymmword ptr [rsi]", "vmovdqu8",
		  "ymm18 {k2}, ymmword ptr [rsi]" },
		{ 0x16395a, 7, "vpcmpnequb k1 {k2}, ymm18, ymmword ptr [rdi]", "vpcmpnequb",
		  "k1 {k2}, ymm18, ymmword ptr [rdi]" },
		{ 0x163961, 4, "kmovd eax, k1", "kmovd", "eax, k1" },
		{ 0x163965, 6, "vpminub ymm0, ymm17, ymm16", "vpminub", "ymm0, ymm17, ymm16" },
		{ 0x16396b, 1, "ret", "ret", "" },
	};

	expect(d, "avx-512", code, sizeof(code), 0x163950, want, ARRAY_SIZE(want));
}

/* Names as objdump and perf print them, where Zydis's own differ. */
static void test_names(struct disasm *d)
{
	static const uint8_t code[] = {
		0x77, 0x3a, /* ja (Zydis: jnbe) */
		0x0f, 0x84, 0x00, 0x01, 0x00, 0x00, /* je (jz) */
		0x0f, 0x95, 0xc0, /* setne al (setnz) */
		0x0f, 0x4f, 0xc1, /* cmovg eax, ecx (cmovnle) */
		0x62, 0xf3, 0x6d, 0x22, 0x3e, 0x0f, 0x03, /* predicate 3: no alias */
		0x0f, 0xc2, 0xc1, 0x01, /* cmpltps xmm0, xmm1 */
		0xc5, 0xf0, 0xc2, 0xc2, 0x0c, /* vcmpneq_oqps xmm0, xmm1, xmm2 */
		0xa7, /* cmpsd: a string compare, no predicate */
		0x66, 0x90, /* the 2-byte nop */
	};
	static const struct want want[] = {
		{ 0x5000, 2, "ja 0x503c", "ja", "0x503c" },
		{ 0x5002, 6, "je 0x5108", "je", "0x5108" },
		{ 0x5008, 3, "setne al", "setne", "al" },
		{ 0x500b, 3, "cmovg eax, ecx", "cmovg", "eax, ecx" },
		{ 0x500e, 7, "vpcmpub k1 {k2}, ymm18, ymmword ptr [rdi], 0x3", "vpcmpub",
		  "k1 {k2}, ymm18, ymmword ptr [rdi], 0x3" },
		{ 0x5015, 4, "cmpltps xmm0, xmm1", "cmpltps", "xmm0, xmm1" },
		{ 0x5019, 5, "vcmpneq_oqps xmm0, xmm1, xmm2", "vcmpneq_oqps", "xmm0, xmm1, xmm2" },
		{ 0x501e, 1, "cmpsd", "cmpsd", "" },
		{ 0x501f, 2, "nop", "nop", "" },
	};

	expect(d, "names", code, sizeof(code), 0x5000, want, ARRAY_SIZE(want));
}

/*
 * An undecodable byte costs one ".byte" row and no more: the instruction
 * after it is decoded from its own start, whatever its length.
 */
static void test_resync(struct disasm *d)
{
	static const uint8_t code[] = {
		0x62, /* an EVEX prefix cut short by a reserved P0 bit pattern */
		0x48, 0x89, 0xe5, /* mov rbp, rsp */
		0x0f, 0xff, /* ud0 without its ModRM: cut short */
	};
	static const struct want want[] = {
		{ 0x4000, 1, ".byte 0x62", ".byte", "0x62" },
		{ 0x4001, 3, "mov rbp, rsp", "mov", "rbp, rsp" },
		{ 0x4004, 1, ".byte 0x0f", ".byte", "0x0f" },
		{ 0x4005, 1, ".byte 0xff", ".byte", "0xff" },
	};

	expect(d, "resync", code, sizeof(code), 0x4000, want, ARRAY_SIZE(want));
}

static void test_edges(struct disasm *d)
{
	static const uint8_t code[] = { 0x90, 0x90, 0x90, 0xc3 };
	struct seen *s = calloc(1, sizeof(*s));
	const uint8_t *p = code;
	size_t left = sizeof(code);
	uint64_t vaddr = 0x2000;
	struct insn insn;

	CHECK(disasm__each(d, code, 0, 0x1000, collect, s) == 0 && s->nr == 0,
	      "edges: an empty buffer gives no instruction");
	s->stop_after = 2;
	CHECK(disasm__each(d, code, sizeof(code), 0x1000, collect, s) == 1 && s->nr == 2,
	      "edges: a nonzero return stops the walk and is returned");
	free(s);

	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == 0 && insn.addr == 0x2000 &&
		      insn.size == 1 && p == code + 1 && left == 3 && vaddr == 0x2001,
	      "next: decodes one and advances");
	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == 0, "next: second");
	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == 0, "next: third");
	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == 0 &&
		      !strcmp(insn.text, "ret") && left == 0 && vaddr == 0x2004 &&
		      p == code + 4,
	      "next: the last one ends the buffer");
	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == -ENOENT && left == 0 &&
		      vaddr == 0x2004,
	      "next: -ENOENT at the end");

	p = (const uint8_t[]){ 0x0f };
	left = 1;
	vaddr = 0x3000;
	CHECK(disasm__next(d, &p, &left, &vaddr, &insn) == 0 && insn.bad &&
		      insn.size == 1 && left == 0 && vaddr == 0x3001,
	      "next: a bad byte advances by one");
}

/*
 * A function of this very binary, alone in its own section, so the linker's
 * __start_/__stop_ symbols give its exact bytes. Unsigned arithmetic: no
 * sanitizer check to call out of it.
 */
#define OWN_SECTION "bpfprof_disasm_test"
static __attribute__((noinline, used, section(OWN_SECTION))) unsigned int
own_function(unsigned int a, unsigned int b)
{
	return a * 3 + (b ^ 0x5a5a);
}

extern const uint8_t __start_bpfprof_disasm_test[], __stop_bpfprof_disasm_test[];

struct own_walk {
	uint64_t next; /* the address the next instruction must start at */
	size_t nr, bad;
	bool contiguous;
	char last[256];
};

static int own_insn(const struct insn *insn, void *arg)
{
	struct own_walk *w = arg;

	if (insn->addr != w->next ||
	    insn->bytes != (const uint8_t *)(uintptr_t)insn->addr)
		w->contiguous = false;
	w->next = insn->addr + insn->size;
	w->nr++;
	w->bad += insn->bad;
	snprintf(w->last, sizeof(w->last), "%s", insn->text);
	return 0;
}

static void test_own_function(struct disasm *d)
{
	const uint8_t *start = __start_bpfprof_disasm_test;
	size_t size = (uintptr_t)__stop_bpfprof_disasm_test - (uintptr_t)start;
	struct own_walk w = { .next = (uintptr_t)start, .contiguous = true };
	unsigned int (*volatile fn)(unsigned int, unsigned int) = own_function;
	/* Through a volatile: the compiler takes distinct symbols for distinct. */
	volatile uintptr_t fn_addr = (uintptr_t)own_function;

	CHECK(fn(1, 0) == 3 + 0x5a5a, "own: the function runs");
	CHECK(fn_addr == (uintptr_t)start && size > 0,
	      "own: its section holds it (%zu bytes)", size);
	CHECK(disasm__each(d, start, size, (uintptr_t)start, own_insn, &w) == 0,
	      "own: walk returns 0");
	CHECK(w.nr > 0 && w.bad == 0, "own: %zu instructions, none bad", w.nr);
	CHECK(w.contiguous && w.next == (uintptr_t)start + size,
	      "own: instructions tile the function exactly");
	CHECK_STR(w.last, "ret", "own: the last instruction is ret");
}

int main(void)
{
	struct disasm *d = disasm__new();

	CHECK(d != NULL, "new: a disassembler");
	if (!d)
		return check_done();
	test_prologue(d);
	test_assorted(d);
	test_bad(d);
	test_avx512(d);
	test_names(d);
	test_resync(d);
	test_edges(d);
	test_own_function(d);
	disasm__free(d);
	disasm__free(NULL); /* harmless: a crash here prints no plan, and the run fails */
	return check_done();
}
