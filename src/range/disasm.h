/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * x86-64 disassembly with capstone (Intel syntax, as capstone prints it:
 * "mov rbp, rsp", "lea rax, [rip + 0x10]"), one instruction at a time over
 * a byte buffer at a given virtual address. Bytes that do not decode become
 * a one-byte "(bad)" pseudo-instruction and the walk goes on, so a listing
 * never stops short.
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
	bool bad; /* undecodable byte: text "(bad)", size 1 */
	const char *mnemonic; /* "mov", "(bad)" */
	const char *operands; /* "rbp, rsp", "" when none */
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
