// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A saved profile read back (bpfprof report, diff): profileread__mem,
 * which tells pprof (gzipped or not) from folded stacks and parses either.
 * Any input is refused with one of the errors the header names, or read
 * into a profile that the folded and svg writers write, and whose folded
 * text reads back as folded stacks.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"
#include "profileread.h"

/* @p written by @fmt into memory: the text, or NULL. */
static char *fuzz_report__write(const struct profile *p, const struct output_format *fmt,
				size_t *len)
{
	struct output_opts o = { .format = fmt };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t rows;

	assert(f);
	assert(fmt->write_profile(f, p, &o, &rows) == 0);
	assert(fclose(f) == 0);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p = { 0 }, again = { 0 };
	struct profileread_info info;
	char why[256] = "";
	size_t len;
	char *text;
	int err;

	err = profileread__mem(&p, data, size, NULL, 0, &info, why, sizeof(why));
	assert(err == 0 || err == -EBADMSG || err == -EINVAL || err == -EFBIG ||
	       err == -E2BIG || err == -ENOMEM);
	assert(err == 0 || err == -ENOMEM || err == -E2BIG || why[0]);
	if (!err) {
		free(fuzz_report__write(&p, &output_svg, &len));
		text = fuzz_report__write(&p, &output_folded, &len);
		/* folded text reads back (a last name ending in " DIGITS" reads as a
		   second count: refused, not misread) */
		if (len) {
			err = profileread__mem(&again, text, len, NULL, 0, &info, why, sizeof(why));
			assert(err == 0 || err == -EINVAL);
			assert(err || profile__samples(&again) == profile__samples(&p));
		}
		free(text);
	}
	profile__free(&p);
	profile__free(&again);
	return 0;
}
