/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* x86-64 disassembly with Zydis: one instruction decoded, then tokenized. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "array.h"
#include "disasm.h"

/* Room for any formatted instruction (Zydis's own examples use 256). */
#define DISASM_TEXT 256

struct disasm {
	ZydisDecoder dec;
	ZydisFormatter fmt;
	/* The last instruction's tokens, its text, its mnemonic and operands. */
	char tokens[DISASM_TEXT * 2];
	char text[DISASM_TEXT], mnemonic[DISASM_TEXT];
};

/* objdump's looks, where Zydis's defaults differ. */
static const struct {
	ZydisFormatterProperty prop;
	ZyanUPointer value;
} disasm_props[] = {
	{ ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE },
	{ ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE }, /* "dword ptr [rdi]" */
	{ ZYDIS_FORMATTER_PROP_FORCE_RELATIVE_RIPREL, ZYAN_TRUE }, /* "[rip+0x10]" */
	{ ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE, ZYDIS_PADDING_DISABLED },
	{ ZYDIS_FORMATTER_PROP_ADDR_PADDING_RELATIVE, ZYDIS_PADDING_DISABLED },
	{ ZYDIS_FORMATTER_PROP_DISP_PADDING, ZYDIS_PADDING_DISABLED },
	{ ZYDIS_FORMATTER_PROP_IMM_PADDING, ZYDIS_PADDING_DISABLED },
};

/* Condition codes as objdump and perf spell them (Zydis: "jnbe", "jz"). */
static const struct {
	ZydisMnemonic m;
	const char *name;
} disasm_names[] = {
	{ ZYDIS_MNEMONIC_JNB, "jae" },	      { ZYDIS_MNEMONIC_JZ, "je" },
	{ ZYDIS_MNEMONIC_JNZ, "jne" },	      { ZYDIS_MNEMONIC_JNBE, "ja" },
	{ ZYDIS_MNEMONIC_JNL, "jge" },	      { ZYDIS_MNEMONIC_JNLE, "jg" },
	{ ZYDIS_MNEMONIC_SETNB, "setae" },    { ZYDIS_MNEMONIC_SETZ, "sete" },
	{ ZYDIS_MNEMONIC_SETNZ, "setne" },    { ZYDIS_MNEMONIC_SETNBE, "seta" },
	{ ZYDIS_MNEMONIC_SETNL, "setge" },    { ZYDIS_MNEMONIC_SETNLE, "setg" },
	{ ZYDIS_MNEMONIC_CMOVNB, "cmovae" },  { ZYDIS_MNEMONIC_CMOVZ, "cmove" },
	{ ZYDIS_MNEMONIC_CMOVNZ, "cmovne" },  { ZYDIS_MNEMONIC_CMOVNBE, "cmova" },
	{ ZYDIS_MNEMONIC_CMOVNL, "cmovge" },  { ZYDIS_MNEMONIC_CMOVNLE, "cmovg" },
};

/* The predicates of vpcmp[u]{b,w,d,q} that objdump names (3, 7: none). */
static const char *const vpcmp_preds[8] = { "eq", "lt", "le", NULL, "neq", "nlt", "nle" };

/* The predicates of [v]cmp{ps,pd,ss,sd,ph,sh}; the legacy SSE ones have 8. */
static const char *const cmp_preds[32] = {
	"eq",	 "lt",	   "le",     "unord",	"neq",	  "nlt",    "nle",    "ord",
	"eq_uq", "nge",	   "ngt",    "false",	"neq_oq", "ge",	    "gt",     "true",
	"eq_os", "lt_oq",  "le_oq",  "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
	"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq",  "true_us",
};

/*
 * objdump's name for a compare whose last operand is a predicate it spells
 * in the mnemonic ("vpcmpnequb", "cmpltps", "vcmpneq_oqps") in @buf; false
 * for any other instruction, which keeps Zydis's name and its immediate.
 */
static bool disasm__predicate(const ZydisDecodedInstruction *zi,
			      const ZydisDecodedOperand *ops, char *buf, size_t size)
{
	const char *name = ZydisMnemonicGetString(zi->mnemonic), *pred = NULL;
	const ZydisDecodedOperand *imm;
	size_t stem = 0; /* length of the name before the predicate goes in */
	uint64_t v;

	if (!zi->operand_count_visible || !name)
		return false;
	imm = &ops[zi->operand_count_visible - 1];
	if (imm->type != ZYDIS_OPERAND_TYPE_IMMEDIATE)
		return false;
	v = imm->imm.value.u;
	switch (zi->mnemonic) {
	case ZYDIS_MNEMONIC_VPCMPB: case ZYDIS_MNEMONIC_VPCMPUB:
	case ZYDIS_MNEMONIC_VPCMPW: case ZYDIS_MNEMONIC_VPCMPUW:
	case ZYDIS_MNEMONIC_VPCMPD: case ZYDIS_MNEMONIC_VPCMPUD:
	case ZYDIS_MNEMONIC_VPCMPQ: case ZYDIS_MNEMONIC_VPCMPUQ:
		pred = v < ARRAY_SIZE(vpcmp_preds) ? vpcmp_preds[v] : NULL;
		stem = strlen("vpcmp");
		break;
	case ZYDIS_MNEMONIC_CMPPS: case ZYDIS_MNEMONIC_CMPPD:
	case ZYDIS_MNEMONIC_CMPSS: case ZYDIS_MNEMONIC_CMPSD:
		pred = v < 8 ? cmp_preds[v] : NULL;
		stem = strlen("cmp");
		break;
	case ZYDIS_MNEMONIC_VCMPPS: case ZYDIS_MNEMONIC_VCMPPD:
	case ZYDIS_MNEMONIC_VCMPSS: case ZYDIS_MNEMONIC_VCMPSD:
	case ZYDIS_MNEMONIC_VCMPPH: case ZYDIS_MNEMONIC_VCMPSH:
		pred = v < ARRAY_SIZE(cmp_preds) ? cmp_preds[v] : NULL;
		stem = strlen("vcmp");
		break;
	default:
		break;
	}
	if (!pred)
		return false;
	snprintf(buf, size, "%.*s%s%s", (int)stem, name, pred, name + stem);
	return true;
}

/* The name to print instead of Zydis's, or NULL; *@zi loses a predicate operand. */
static const char *disasm__name(ZydisDecodedInstruction *zi, const ZydisDecodedOperand *ops,
				char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(disasm_names); i++)
		if (disasm_names[i].m == zi->mnemonic)
			return disasm_names[i].name;
	if (disasm__predicate(zi, ops, buf, size)) {
		zi->operand_count_visible--;
		return buf;
	}
	return NULL;
}

struct disasm *disasm__new(void)
{
	struct disasm *d = calloc(1, sizeof(*d));
	ZyanStatus st;

	if (!d)
		return NULL;
	st = ZydisDecoderInit(&d->dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	if (ZYAN_SUCCESS(st))
		st = ZydisFormatterInit(&d->fmt, ZYDIS_FORMATTER_STYLE_INTEL);
	for (size_t i = 0; ZYAN_SUCCESS(st) && i < ARRAY_SIZE(disasm_props); i++)
		st = ZydisFormatterSetProperty(&d->fmt, disasm_props[i].prop,
					       disasm_props[i].value);
	if (!ZYAN_SUCCESS(st)) {
		free(d);
		errno = ENOTSUP;
		return NULL;
	}
	return d;
}

void disasm__free(struct disasm *d)
{
	free(d);
}

/*
 * Tokenize the decoded instruction into d->text ("mnemonic operands"),
 * d->mnemonic (with its prefixes: "rep stosb", "lock cmpxchg") and the
 * operands that follow in d->text; *@operands points at them.
 */
static bool disasm__format(struct disasm *d, const ZydisDecodedInstruction *zi,
			   const ZydisDecodedOperand *ops, uint64_t addr, const char **operands)
{
	ZydisDecodedInstruction shown = *zi;
	const ZydisFormatterToken *tok;
	size_t len = 0, mlen = 0;
	char alias[32];
	const char *name;
	ZyanStatus st;

	name = disasm__name(&shown, ops, alias, sizeof(alias));
	/* The multi-byte nop's second operand (its ModRM.reg) is noise, as in objdump. */
	if (shown.mnemonic == ZYDIS_MNEMONIC_NOP && shown.operand_count_visible > 1)
		shown.operand_count_visible = 1;
	st = ZydisFormatterTokenizeInstruction(&d->fmt, &shown, ops, zi->operand_count_visible,
					       d->tokens, sizeof(d->tokens), addr, &tok,
					       NULL);
	while (ZYAN_SUCCESS(st)) {
		ZydisTokenType type;
		ZyanConstCharPointer value;
		size_t n;

		if (!ZYAN_SUCCESS(ZydisFormatterTokenGetValue(tok, &type, &value)))
			return false;
		if (type == ZYDIS_TOKEN_MNEMONIC && name)
			value = name;
		n = strlen(value);
		if (len + n >= sizeof(d->text))
			return false;
		memcpy(d->text + len, value, n);
		len += n;
		if (type == ZYDIS_TOKEN_MNEMONIC)
			mlen = len;
		st = ZydisFormatterTokenNext(&tok);
	}
	if (st != ZYAN_STATUS_OUT_OF_RANGE || !mlen)
		return false; /* OUT_OF_RANGE: past the last token */
	d->text[len] = '\0';
	memcpy(d->mnemonic, d->text, mlen);
	d->mnemonic[mlen] = '\0';
	while (d->text[mlen] == ' ')
		mlen++;
	*operands = d->text + mlen;
	return true;
}

int disasm__next(struct disasm *d, const uint8_t **code, size_t *size, uint64_t *vaddr,
		 struct insn *insn)
{
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	ZydisDecodedInstruction zi;
	const uint8_t *start = *code;
	const char *operands;
	uint64_t addr = *vaddr;
	size_t left = *size;

	if (!left)
		return -ENOENT;
	if (ZYAN_SUCCESS(ZydisDecoderDecodeFull(&d->dec, start, left, &zi, ops)) &&
	    zi.length && zi.length <= left && disasm__format(d, &zi, ops, addr, &operands)) {
		*insn = (struct insn){
			.addr = addr,
			.bytes = start,
			.size = zi.length,
			.mnemonic = d->mnemonic,
			.operands = operands,
			.text = d->text,
		};
	} else {
		/* Undecodable, or cut short by the end of the buffer: one byte. */
		snprintf(d->text, sizeof(d->text), ".byte 0x%02x", start[0]);
		*insn = (struct insn){
			.addr = addr,
			.bytes = start,
			.size = 1,
			.bad = true,
			.mnemonic = ".byte",
			.operands = d->text + sizeof(".byte"),
			.text = d->text,
		};
	}
	*code = start + insn->size;
	*size = left - insn->size;
	*vaddr = addr + insn->size;
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
