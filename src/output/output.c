// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The output registry: one row per format, profiles and listings alike. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "output.h"

/*
 * The first format of each input is its default. A name or an extension
 * may be a profile's and a listing's (json, .json): each input has its own.
 */
static const struct output_format *const formats[] = {
	&output_folded,
	&output_pprof,
	&output_svg,
	&output_top,
	&output_profile_json,
	&output_listing_text,
	&output_listing_json,
};

/*
 * Extensions that name a format of other tools, which bpfprof does not
 * write (yet): a file named so would hold folded text or a listing under
 * a name that promises something else. Longest first where one ends
 * another (.pb.gz before .gz).
 */
static const struct {
	const char *ext;
	const char *what;
} foreign[] = {
	{ ".pb", "uncompressed protobuf (pprof is written gzipped, as .pb.gz)" },
	{ ".pprof", "pprof by another name (-f pprof writes it anyway)" },
	{ ".html", "an HTML page" },
	{ ".htm", "an HTML page" },
	{ ".data", "perf's perf.data" },
	{ ".svgz", "a gzip-compressed SVG (svg is written uncompressed, as .svg)" },
	{ ".png", "a PNG image" },
	{ ".jpg", "a JPEG image" },
	{ ".jpeg", "a JPEG image" },
	{ ".gif", "a GIF image" },
	{ ".webp", "a WebP image" },
	{ ".bmp", "a BMP image" },
	{ ".tif", "a TIFF image" },
	{ ".tiff", "a TIFF image" },
	{ ".pdf", "a PDF document" },
	{ ".ps", "a PostScript document" },
	{ ".eps", "an Encapsulated PostScript image" },
	{ ".dot", "a Graphviz graph" },
	{ ".gz", "gzip-compressed data" },
	{ ".xz", "xz-compressed data" },
	{ ".zst", "zstd-compressed data" },
	{ ".bz2", "bzip2-compressed data" },
	{ ".lz4", "lz4-compressed data" },
	{ ".zip", "a zip archive" },
};

static const char *const input_noun[] = {
	[OUTPUT_PROFILE] = "profile",
	[OUTPUT_LISTING] = "listing",
};

/* Does the last name of @file end in @ext (any case), with more before it? */
static bool output__has_ext(const char *file, const char *ext)
{
	const char *base = strrchr(file, '/');
	size_t n, e = strlen(ext);

	base = base ? base + 1 : file;
	n = strlen(base);
	return n > e && !strcasecmp(base + n - e, ext);
}

const struct output_format *output__by_name(enum output_input in, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->takes == in && !strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const struct output_format *output__by_file(enum output_input in, const char *file)
{
	const struct output_format *first = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		if (formats[i]->takes != in)
			continue;
		if (file && formats[i]->ext && output__has_ext(file, formats[i]->ext))
			return formats[i];
		if (!first)
			first = formats[i];
	}
	return first;
}

/* "folded (.folded, the default)", "text (the default) or json (.json)" into @buf. */
static void output__known(enum output_input in, char *buf, size_t size)
{
	size_t len = 0, n = 0, total = 0;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		total += formats[i]->takes == in;
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(formats) && len < size; i++) {
		const struct output_format *f = formats[i];
		const char *sep = !n ? "" : n + 1 == total ? " or " : ", ";

		if (f->takes != in)
			continue;
		if (!n)
			len += snprintf(buf + len, size - len, "%s (%s%sthe default)", f->name,
					f->ext ? f->ext : "", f->ext ? ", " : "");
		else
			len += snprintf(buf + len, size - len, "%s%s (%s)", sep, f->name,
					f->ext ? f->ext : "-f only");
		n++;
	}
}

int output__check_file(enum output_input in, const char *file, char *why, size_t size)
{
	const struct output_format *other = NULL;
	const char *ext = NULL, *what = NULL;
	char known[160];
	size_t i;

	if (!file)
		return 0;
	/* one of @in's own (x.pb.gz is pprof's before it is gzip's) */
	for (i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->takes == in && formats[i]->ext &&
		    output__has_ext(file, formats[i]->ext))
			return 0;
	for (i = 0; i < ARRAY_SIZE(formats) && !other; i++)
		if (formats[i]->takes != in && formats[i]->ext &&
		    output__has_ext(file, formats[i]->ext))
			other = formats[i];
	for (i = 0; i < ARRAY_SIZE(foreign) && !other && !ext; i++)
		if (output__has_ext(file, foreign[i].ext)) {
			ext = foreign[i].ext;
			what = foreign[i].what;
		}
	if (!other && !ext)
		return 0;
	output__known(in, known, sizeof(known));
	if (other)
		snprintf(why, size, "%s is bpfprof's %s format for a %s, not a %s; a %s is "
				    "written as %s",
			 other->ext, other->name, input_noun[other->takes], input_noun[in],
			 input_noun[in], known);
	else
		snprintf(why, size, "%s is %s, a format bpfprof does not write; a %s is "
				    "written as %s",
			 ext, what, input_noun[in], known);
	return -EINVAL;
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
