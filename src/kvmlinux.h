/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Placeholder: kernel source lines from a vmlinux with DWARF (being written). */
#ifndef BPFPROF_KVMLINUX_H
#define BPFPROF_KVMLINUX_H
#endif
