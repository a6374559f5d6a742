/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* x86-64 disassembly with capstone's cs_disasm_iter, one instruction at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <capstone/capstone.h>

#include "disasm.h"

struct disasm {
	csh handle;
	cs_insn *ci; /* capstone's buffer for one instruction (cs_malloc) */
	/* "mnemonic operands" of the last instruction. */
	char text[sizeof(((cs_insn *)0)->mnemonic) + 1 + sizeof(((cs_insn *)0)->op_str)];
};

static int cs_err__errno(cs_err err)
{
	switch (err) {
	case CS_ERR_MEM:
		return ENOMEM;
	case CS_ERR_ARCH:
	case CS_ERR_MODE:
	case CS_ERR_OPTION:
		return ENOTSUP;
	default:
		return EINVAL;
	}
}

struct disasm *disasm__new(void)
{
	struct disasm *d = calloc(1, sizeof(*d));
	cs_err err;

	if (!d)
		return NULL;
	err = cs_open(CS_ARCH_X86, CS_MODE_64, &d->handle);
	if (err) {
		free(d);
		errno = cs_err__errno(err);
		return NULL;
	}
	err = cs_option(d->handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
	if (!err) {
		d->ci = cs_malloc(d->handle);
		if (!d->ci)
			err = CS_ERR_MEM;
	}
	if (err) {
		cs_close(&d->handle);
		free(d);
		errno = cs_err__errno(err);
		return NULL;
	}
	return d;
}

void disasm__free(struct disasm *d)
{
	if (!d)
		return;
	cs_free(d->ci, 1);
	cs_close(&d->handle);
	free(d);
}

int disasm__next(struct disasm *d, const uint8_t **code, size_t *size, uint64_t *vaddr,
		 struct insn *insn)
{
	const uint8_t *start = *code;
	uint64_t addr = *vaddr;
	size_t left = *size;

	if (!left)
		return -ENOENT;
	if (cs_disasm_iter(d->handle, code, size, vaddr, d->ci)) {
		const cs_insn *ci = d->ci;

		*insn = (struct insn){
			.addr = addr,
			.bytes = start,
			.size = ci->size,
			.mnemonic = ci->mnemonic,
			.operands = ci->op_str,
			.text = d->text,
		};
		snprintf(d->text, sizeof(d->text), "%s%s%s", ci->mnemonic,
			 ci->op_str[0] ? " " : "", ci->op_str);
		return 0;
	}
	/* Undecodable (or cut short by the end of the buffer): one byte. */
	*code = start + 1;
	*size = left - 1;
	*vaddr = addr + 1;
	*insn = (struct insn){
		.addr = addr,
		.bytes = start,
		.size = 1,
		.bad = true,
		.mnemonic = "(bad)",
		.operands = "",
		.text = "(bad)",
	};
	return 0;
}

int disasm__each(struct disasm *d, const uint8_t *code, size_t size, uint64_t vaddr,
		 int (*fn)(const struct insn *insn, void *arg), void *arg)
{
	struct insn insn;
	int ret;

	while (!disasm__next(d, &code, &size, &vaddr, &insn)) {
		ret = fn(&insn, arg);
		if (ret)
			return ret;
	}
	return 0;
}
