/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * x86-64 disassembly with Zydis (Intel syntax: "mov rbp, rsp", "lea rax,
 * [rip+0x10]", AVX-512 with its masks: "vpcmpnequb k1 {k2}, ymm18, ymmword
 * ptr [rdi]"), one instruction at a time over a byte buffer at a given
 * virtual address. Mnemonics are objdump's and perf's where Zydis's own
 * differ: condition codes ("ja", "jne", not "jnbe", "jnz") and compare
 * predicates ("vpcmpnequb", "cmpltps", not "vpcmpub ..., 0x4"). A byte that
 * does not start an instruction (or one cut short by the end of the
 * buffer) becomes a one-byte ".byte 0x62" and the walk goes on from the
 * next byte, so a listing never stops short and one bad byte costs one row.
 */
#ifndef BPFPROF_DISASM_H
#define BPFPROF_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One instruction; the strings live until the next call on the same disasm. */
struct insn {
	uint64_t addr; /* virtual address of its first byte */
	const uint8_t *bytes; /* its bytes, inside the caller's buffer */
	unsigned int size; /* in bytes, >= 1 */
	bool bad; /* undecodable byte: text ".byte 0x62", size 1 */
	const char *mnemonic; /* "mov", "rep stosb", ".byte" */
	const char *operands; /* "rbp, rsp", "0x62", "" when none */
	const char *text; /* "mov rbp, rsp", "ret": mnemonic and operands */
};

struct disasm;

/* An x86-64 disassembler. NULL and errno (ENOMEM, ENOTSUP) on failure. */
struct disasm *disasm__new(void);
void disasm__free(struct disasm *d);

/*
 * Decode the instruction at *@code (*@size bytes left, at virtual address
 * *@vaddr) into @insn and advance the three past it. Returns 0, or -ENOENT
 * when *@size is 0.
 */
int disasm__next(struct disasm *d, const uint8_t **code, size_t *size, uint64_t *vaddr,
		 struct insn *insn);

/*
 * Call @fn for each instruction of the @size bytes at @code, the first at
 * virtual address @vaddr. Stops early when @fn returns nonzero and returns
 * that value; else returns 0.
 */
int disasm__each(struct disasm *d, const uint8_t *code, size_t size, uint64_t vaddr,
		 int (*fn)(const struct insn *insn, void *arg), void *arg);

#endif /* BPFPROF_DISASM_H */
