/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A 64-bit hash built a value at a time (FNV-1a's prime, a 64-bit step per
 * value, then a shift to spread the high bits down): for the indexes of
 * distinct items (the profile's, the pprof writer's). Not for anything an
 * adversary picks collisions in on purpose.
 */
#ifndef BPFPROF_HASH_H
#define BPFPROF_HASH_H

#include <stdint.h>

#define HASH_BASIS 0xcbf29ce484222325ULL

static inline uint64_t hash__mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/* @s's bytes, then whether it was NULL (so NULL and "" differ). */
static inline uint64_t hash__str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = hash__mix(h, (unsigned char)*s);
	return hash__mix(h, s ? 1 : 2);
}

#endif /* BPFPROF_HASH_H */
