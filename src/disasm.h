/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Placeholder: being written for issue 4. */
#ifndef BPFPROF_DISASM_H
#define BPFPROF_DISASM_H
#endif
