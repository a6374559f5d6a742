// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The output registry: one row per format, profiles and listings alike. */
#include <stddef.h>
#include <string.h>

#include "array.h"
#include "output.h"

/* The first format of each input is its default. */
static const struct output_format *const formats[] = {
	&output_folded,
	&output_listing_text,
	&output_listing_json,
};

const struct output_format *output__by_name(enum output_input in, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->takes == in && !strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const struct output_format *output__by_file(enum output_input in, const char *file)
{
	const char *ext = file ? strrchr(file, '.') : NULL;
	const struct output_format *first = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		if (formats[i]->takes != in)
			continue;
		if (ext && !strchr(ext, '/') && formats[i]->ext && !strcmp(formats[i]->ext, ext))
			return formats[i];
		if (!first)
			first = formats[i];
	}
	return first;
}

static const char *output__name(enum output_input in, unsigned int i)
{
	for (size_t j = 0; j < ARRAY_SIZE(formats); j++)
		if (formats[j]->takes == in && !i--)
			return formats[j]->name;
	return NULL;
}

const char *output__profile_name(unsigned int i)
{
	return output__name(OUTPUT_PROFILE, i);
}

const char *output__listing_name(unsigned int i)
{
	return output__name(OUTPUT_LISTING, i);
}
