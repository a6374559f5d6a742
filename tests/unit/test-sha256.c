/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of src/lib/sha256.c: the FIPS 180-4 examples, and a buffer
 * of every length across the block and padding boundaries fed in uneven
 * pieces, against coreutils' sha256sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sha256.h"

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < SHA256_SIZE; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* The digest of @size bytes at @p, given @step bytes at a time, as hex. */
static void digest(const void *p, size_t size, size_t step, char *out)
{
	struct sha256 c;
	uint8_t d[SHA256_SIZE];

	sha256__init(&c);
	for (size_t i = 0; i < size; i += step)
		sha256__update(&c, (const char *)p + i, size - i < step ? size - i : step);
	sha256__final(&c, d);
	hex(d, out);
}

/* sha256sum of @size bytes at @p, as hex; "" when it cannot run. */
static void sha256sum(const void *p, size_t size, char *out)
{
	char path[] = "/tmp/test-sha256-XXXXXX", cmd[64];
	FILE *f;
	int fd = mkstemp(path);

	out[0] = '\0';
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (f && fwrite(p, 1, size, f) == size && !fclose(f)) {
		snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
		f = popen(cmd, "r");
		if (f) {
			if (fscanf(f, "%64s", out) != 1)
				out[0] = '\0';
			pclose(f);
		}
	}
	unlink(path);
}

int main(void)
{
	static const char *abc = "abc",
			  *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char got[2 * SHA256_SIZE + 1], want[2 * SHA256_SIZE + 1];
	unsigned char buf[300];
	int bad = 0;

	digest("", 0, 1, got);
	CHECK_STR(got, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		  "the empty message");
	digest(abc, 3, 3, got);
	CHECK_STR(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  "\"abc\" (FIPS 180-4 example)");
	digest(two, strlen(two), 7, got);
	CHECK_STR(got, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  "the two-block example, in 7-byte pieces");

	srand(1);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = rand();
	sha256sum(buf, 1, want);
	if (!want[0]) {
		CHECK(1, "every length from 0 to 299 # SKIP no sha256sum");
		return check_done();
	}
	for (size_t n = 0; n < sizeof(buf) && !bad; n++) {
		sha256sum(buf, n, want);
		digest(buf, n, 1 + n % 13, got);
		if (strcmp(got, want)) {
			printf("# length %zu: got %s, want %s\n", n, got, want);
			bad = 1;
		}
	}
	CHECK(!bad, "every length from 0 to 299, in uneven pieces, as sha256sum");
	return check_done();
}
