// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "array.h"
#include "output.h"

/* Each format: its writer, its -f name, the file extension that implies it. */
static const struct {
	const struct output_ops *ops;
	const char *name, *ext;
} formats[] = {
	[FORMAT_FOLDED] = { &output_folded, "folded", ".folded" },
};

const struct output_ops *output__ops(enum output_format format)
{
	if ((size_t)format >= ARRAY_SIZE(formats))
		return NULL;
	return formats[format].ops;
}

const char *output__format_name(unsigned int i)
{
	return i < ARRAY_SIZE(formats) ? formats[i].name : NULL;
}

int output__format_by_name(const char *name, enum output_format *format)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i].name, name)) {
			*format = i;
			return 0;
		}
	return -ENOENT;
}

enum output_format output__format_by_file(const char *file)
{
	const char *ext = file ? strrchr(file, '.') : NULL;

	if (ext && !strchr(ext, '/'))
		for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
			if (!strcmp(formats[i].ext, ext))
				return i;
	return FORMAT_FOLDED;
}
