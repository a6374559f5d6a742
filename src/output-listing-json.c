// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The listing of `bpfprof range` as one JSON document. (placeholder) */
#include <errno.h>

#include "listing.h"

static int listing_json__write(FILE *f, const struct listing *ls, const struct listing_opts *o)
{
	(void)f;
	(void)ls;
	(void)o;
	return -ENOSYS;
}

const struct listing_output_ops output_listing_json = {
	.name = "json",
	.write = listing_json__write,
};
