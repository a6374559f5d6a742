/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SHA-256 (FIPS 180-4): a digest of content that files from outside cannot
 * forge, e.g. of what an unwind table was built from (cficache.c).
 */
#ifndef BPFPROF_SHA256_H
#define BPFPROF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;     /* hashed so far */
	uint8_t block[64];  /* the partial block */
};

void sha256__init(struct sha256 *c);
void sha256__update(struct sha256 *c, const void *data, size_t size);
/* The digest of everything given since sha256__init; @c must be initialised again. */
void sha256__final(struct sha256 *c, uint8_t out[SHA256_SIZE]);

#endif /* BPFPROF_SHA256_H */
