/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Profiles for the unit tests of the profile writers (svg, top, json): a
 * stack added, the 65,536 stacks of tests/workloads/paths, a writer's
 * output in memory.
 */
#ifndef BPFPROF_TEST_PROFILES_H
#define BPFPROF_TEST_PROFILES_H

#include <stdio.h>
#include <stdlib.h>

#include "output.h"

/* Add @n samples of the stack @f (@nr frames, root first) of process @comm, @tgid. */
static inline void profiles__add(struct profile *p, const char *comm, uint32_t tgid,
				 struct frame *f, uint32_t nr, uint64_t n)
{
	struct profile_sample s = { .tgid = tgid, .comm = comm, .frames = f, .nr = nr, .count = n };

	if (profile__add(p, &s))
		abort();
}

/*
 * tests/workloads/paths' 65,536 distinct stacks into @p:
 * main;sweep;aI;bJ;cK;dL (I, J, K, L from 0 to 15), one sample each.
 */
static inline void profiles__paths(struct profile *p)
{
	static char names[64][8];
	struct frame f[6] = { { "main", FRAME_USER }, { "sweep", FRAME_USER } };

	for (int i = 0; i < 64; i++)
		snprintf(names[i], sizeof(names[i]), "%c%d", 'a' + i / 16, i % 16);
	for (int i = 0; i < 65536; i++) {
		for (int l = 0; l < 4; l++)
			f[2 + l] = (struct frame){ names[l * 16 + ((i >> (4 * (3 - l))) & 15)],
						   FRAME_USER };
		profiles__add(p, "paths", 1, f, 6, 1);
	}
}

/* What @fmt writes of @p, in memory of its own; "(failed)" when the writer fails. */
static inline char *profiles__write(const struct output_format *fmt, const struct profile *p,
				    const struct output_opts *o, size_t *rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	if (fmt->write_profile(f, p, o, rows))
		fputs("(failed)", f);
	fclose(f);
	return buf;
}

#endif /* BPFPROF_TEST_PROFILES_H */
