// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JIT maps: parsing, overlaps (the latest entry wins), oversized entries,
 * the caps on bytes, entries and line length, and the ownership rule.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "perfmap.h"

#define MAX (UINT64_C(64) << 20)

static struct perfmap *parse_max(const char *text, uint64_t max)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct perfmap *pm = perfmap__parse(f, max);

	fclose(f);
	return pm;
}

static struct perfmap *parse(const char *text)
{
	return parse_max(text, MAX);
}

/* @n lines "START SIZE fN" made by @line, in a file of their own. */
static struct perfmap *parse_lines(size_t n, uint64_t max,
				   void (*line)(FILE *f, size_t i))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct perfmap *pm;

	for (size_t i = 0; i < n; i++)
		line(f, i);
	fclose(f);
	f = fmemopen(text, len, "r");
	pm = f ? perfmap__parse(f, max) : NULL;
	if (f)
		fclose(f);
	free(text);
	return pm;
}

static void tiny_line(FILE *f, size_t i)
{
	fprintf(f, "%zx 1 a\n", i * 2);
}

/* random entries: starts in [0, 0x1000), sizes up to 0x200, some huge */
static uint64_t rnd_start[3000], rnd_size[3000];

static void random_line(FILE *f, size_t i)
{
	fprintf(f, "%llx %llx f%zu\n", (unsigned long long)rnd_start[i],
		(unsigned long long)rnd_size[i], i);
}

/* The latest of the @n random entries holding @addr (oversized: clipped), or -1. */
static long random_owner(size_t n, uint64_t addr)
{
	for (size_t i = n; i-- > 0;) {
		uint64_t end = rnd_start[i] + rnd_size[i];

		if (rnd_size[i] > PERFMAP_SIZE_MAX) { /* ends at the next greater start */
			end = UINT64_MAX;
			for (size_t k = 0; k < n; k++)
				if (rnd_start[k] > rnd_start[i] && rnd_start[k] < end)
					end = rnd_start[k];
		}
		if (addr >= rnd_start[i] && addr < end)
			return i;
	}
	return -1;
}

/* Addresses of [0, 0x1400), @step apart, that @pm names otherwise than the first @n entries. */
static size_t random_wrong(struct perfmap *pm, size_t n, uint64_t step)
{
	size_t bad = 0;

	for (uint64_t addr = 0; addr < 0x1400; addr += step) {
		long want = random_owner(n, addr);
		const char *got = perfmap__lookup(pm, addr);
		char name[16];

		snprintf(name, sizeof(name), "f%ld", want);
		if (want < 0 ? got != NULL : !got || strcmp(got, name))
			bad++;
	}
	return bad;
}

int main(void)
{
	const char *text = "1000 100 LazyCompile:~hot /app/main.js:3\n"
			   "0x2000 0x10 jit with 0x prefixes\n"
			   "garbage line\n"
			   "3000 0 zero size is skipped\n"
			   "4000 10\n"
			   "1080 20 py::newer_code\n";
	struct perfmap *pm = parse(text);
	char path[64];
	FILE *f;

	CHECK(pm && perfmap__count(pm) == 3, "three good lines of six");
	CHECK_STR(perfmap__lookup(pm, 0x1000), "LazyCompile:~hot /app/main.js:3",
		  "the name is the rest of the line, spaces and all");
	CHECK_STR(perfmap__lookup(pm, 0x1090), "py::newer_code",
		  "where entries overlap, the later line wins");
	CHECK_STR(perfmap__lookup(pm, 0x10a0), "LazyCompile:~hot /app/main.js:3",
		  "past the newer entry, the older one still holds");
	CHECK(perfmap__lookup(pm, 0x1100) == NULL, "the end is exclusive");
	CHECK_STR(perfmap__lookup(pm, 0x200f), "jit with 0x prefixes", "0x prefixes are accepted");
	CHECK(perfmap__lookup(pm, 0xfff) == NULL && perfmap__lookup(pm, 0x3000) == NULL,
	      "addresses in no entry have no name");
	perfmap__free(pm);

	pm = parse("");
	CHECK(pm && perfmap__count(pm) == 0 && !perfmap__lookup(pm, 1), "an empty map");
	perfmap__free(pm);

	/* a map read while it grows: whole lines only, then the rest from there */
	{
		const char *grown = "1000 100 first\n2000 10 second\n1040 10 thi";
		const char *full = "1000 100 first\n2000 10 second\n1040 10 third\n";
		FILE *g = fmemopen((void *)grown, strlen(grown), "r");
		ssize_t used;

		pm = perfmap__new(MAX);
		used = pm && g ? perfmap__read_more(pm, g) : -1;
		CHECK(used == 30 && perfmap__count(pm) == 2,
		      "a line still being written is left for later (%zd bytes used)", used);
		CHECK_STR(perfmap__lookup(pm, 0x1044), "first", "before the rest: the older entry");
		fclose(g);
		g = fmemopen((void *)full, strlen(full), "r");
		used = g && !fseek(g, 30, SEEK_SET) ? perfmap__read_more(pm, g) : -1;
		CHECK(used == 14 && perfmap__count(pm) == 3, "the rest, from where reading stopped");
		CHECK_STR(perfmap__lookup(pm, 0x1044), "third",
			  "a line read later still wins the overlap");
		CHECK_STR(perfmap__lookup(pm, 0x2004), "second", "earlier entries stay");
		fclose(g);
		perfmap__free(pm);
	}

	/* sizes that wrap or are impossible end at the next entry's start */
	pm = parse("1000 10 a\n2000 10 b\n1800 ffffffffffffffff huge\n3000 10 c\n"
		   "0 fffffffffff00000 big\nfffffffffffffff0 100 wraps\n");
	CHECK(pm && perfmap__count(pm) == 6 && perfmap__oversized(pm) == 3,
	      "six entries, three oversized");
	CHECK_STR(perfmap__lookup(pm, 0x2004), "b", "an entry after a huge one keeps its name");
	CHECK_STR(perfmap__lookup(pm, 0x3004), "c", "so does the one after that");
	CHECK_STR(perfmap__lookup(pm, 0x1900), "huge", "the huge one ends at the next start");
	CHECK(perfmap__lookup(pm, 0x2010) == NULL, "and not past it");
	CHECK_STR(perfmap__lookup(pm, 0x500), "big", "a later huge one holds up to the next");
	CHECK_STR(perfmap__lookup(pm, 0x1004), "a", "and no further");
	CHECK_STR(perfmap__lookup(pm, 0xfffffffffffffff8), "wraps",
		  "an entry that wraps ends at the top of the address space");
	perfmap__free(pm);

	/* the byte cap, the entry cap, and lines too long */
	pm = parse_lines(1000, 4096, tiny_line);
	CHECK(pm && perfmap__full(pm) && perfmap__count(pm) == 4096 / PERFMAP_BYTES_PER_ENTRY,
	      "tiny lines: one entry per %d bytes of the cap (%zu)", PERFMAP_BYTES_PER_ENTRY,
	      pm ? perfmap__count(pm) : 0);
	CHECK_STR(perfmap__lookup(pm, 0), "a", "the entries before the cap are there");
	CHECK(perfmap__lookup(pm, 2 * 4096 / PERFMAP_BYTES_PER_ENTRY) == NULL,
	      "the ones after it are not");
	perfmap__free(pm);
	{
		size_t long_len = 70 * 1024;
		char *big = malloc(long_len + 64);

		memcpy(big, "1000 10 ", 8);
		memset(big + 8, 'x', long_len);
		strcpy(big + 8 + long_len, "\n2000 10 after\n");
		pm = parse(big);
		CHECK(pm && perfmap__count(pm) == 2 && !perfmap__full(pm),
		      "a line longer than a chunk (64 KiB) is read whole");
		CHECK(pm && strlen(perfmap__lookup(pm, 0x1000)) == long_len, "its name too");
		CHECK_STR(pm ? perfmap__lookup(pm, 0x2000) : NULL, "after", "the next one is read");
		perfmap__free(pm);
		big[8 + long_len + 1] = '\0';
		pm = parse_max(big, 4096);
		CHECK(pm && perfmap__count(pm) == 0 && perfmap__full(pm),
		      "a line beyond the byte cap stops the reading");
		perfmap__free(pm);
		free(big);
	}

	/* random overlaps against the rule itself: the latest entry holding it */
	{
		size_t n = sizeof(rnd_start) / sizeof(rnd_start[0]), bad = 0;

		srand(42);
		for (size_t i = 0; i < n; i++) {
			rnd_start[i] = rand() % 0x1000;
			rnd_size[i] = i % 97 == 0 ? UINT64_MAX - (uint64_t)(rand() % 3) :
						    1 + (uint64_t)(rand() % 0x200);
		}
		pm = parse_lines(n, MAX, random_line);
		bad = pm ? random_wrong(pm, n, 1) : 1;
		CHECK(pm && !bad, "3000 random overlapping entries: every address of 0x1400 "
				  "named by the latest entry holding it (%zu wrong)", bad);
		perfmap__free(pm);

		/* the same without the huge ones, read in 6 batches, looked up between */
		char *all = NULL;
		size_t len = 0;
		FILE *w = open_memstream(&all, &len);
		off_t off = 0;

		for (size_t i = 0; i < n; i++) {
			if (rnd_size[i] > PERFMAP_SIZE_MAX)
				rnd_size[i] = 0x300;
			random_line(w, i);
		}
		fclose(w);
		pm = perfmap__new(MAX);
		bad = 0;
		for (size_t b = 1; pm && b <= 6; b++) {
			size_t upto = len * b / 6, nr = 0;
			FILE *r;

			while (upto < len && all[upto - 1] != '\n')
				upto++; /* whole lines */
			for (size_t k = 0; k < upto; k++)
				nr += all[k] == '\n';
			r = fmemopen(all, upto, "r");
			if (!r)
				break;
			if (!fseeko(r, off, SEEK_SET))
				off += perfmap__read_more(pm, r); /* from where the last batch stopped */
			fclose(r);
			bad += random_wrong(pm, nr, 3);
		}
		CHECK(pm && perfmap__count(pm) == n && !bad,
		      "read in 6 batches, looked up after each: the latest entry still wins "
		      "(%zu wrong)", bad);
		perfmap__free(pm);
		free(all);
	}

	/* our own map, through /proc/self/root and our NSpid */
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	CHECK(f && fputs("5000 10 mine\n", f) >= 0 && !fclose(f), "write a map for this process");
	f = perfmap__open(getpid());
	pm = f ? perfmap__parse(f, MAX) : NULL;
	CHECK_STR(pm ? perfmap__lookup(pm, 0x5004) : NULL, "mine",
		  "a map owned by the process's user is read");
	if (f)
		fclose(f);
	perfmap__free(pm);
	if (geteuid() == 0) {
		CHECK(chown(path, 65534, 65534) == 0, "give the map to another user");
		errno = 0;
		f = perfmap__open(getpid());
		CHECK(!f && errno == EPERM, "a map owned by another user is refused");
		if (f)
			fclose(f);
	} else {
		printf("ok %d - # SKIP ownership refusal needs root\n", ++check__n);
	}
	unlink(path);
	errno = 0;
	CHECK(!perfmap__open(getpid()) && errno == ENOENT, "no map: ENOENT");
	return check_done();
}
