// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stddef.h>

#include "output.h"

static const struct output_ops *const formats[] = {
	[FORMAT_FOLDED] = &output_folded,
};

const struct output_ops *output__ops(enum output_format format)
{
	if ((size_t)format >= sizeof(formats) / sizeof(formats[0]))
		return NULL;
	return formats[format];
}
