/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Placeholder: being written for issue 4. */
#ifndef BPFPROF_RANGESPEC_H
#define BPFPROF_RANGESPEC_H
#endif
