// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JIT maps: parsing, overlaps (the latest entry wins), and the ownership rule. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "perfmap.h"

static struct perfmap *parse(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct perfmap *pm = perfmap__parse(f);

	fclose(f);
	return pm;
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

		pm = perfmap__new();
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

	/* our own map, through /proc/self/root and our NSpid */
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	CHECK(f && fputs("5000 10 mine\n", f) >= 0 && !fclose(f), "write a map for this process");
	f = perfmap__open(getpid());
	pm = f ? perfmap__parse(f) : NULL;
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
