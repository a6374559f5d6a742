/*
 * The bulk of unwind-cold's CFI: FILL_FUNCS small functions (never called)
 * that push and pop callee-saved registers, four rows apiece once
 * neighbours merge: 600,000 rows, a table of 7 MB that takes a noticeable
 * time to build with an empty unwind cache (tests/cold.bats).
 */
#ifndef FILL_FUNCS
#define FILL_FUNCS 150000
#endif
	.text
	.rept FILL_FUNCS
	.cfi_startproc
	pushq %rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -16
	pushq %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -24
	popq %rbp
	.cfi_adjust_cfa_offset -8
	popq %rbx
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.endr
	.section .note.GNU-stack,"",@progbits
