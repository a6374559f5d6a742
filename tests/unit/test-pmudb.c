/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of src/kernel/pmudb.c: sysfs-like PMU roots (tests/fixtures/pmu-*). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmudb.h"

static void test_intel(const char *root)
{
	const struct pmu_format *f;
	const struct pmu_alias *a;
	const struct pmu *cpu, *df, *bad;
	struct pmu_db db;
	char why[256];

	CHECK(!pmudb__load(&db, root, why, sizeof(why)), "intel: loads");
	cpu = pmudb__find(&db, "cpu");
	CHECK(cpu && cpu->type == 4 && cpu->core && !cpu->error, "intel: cpu is core type 4");
	CHECK(pmudb__find(&db, "software") && pmudb__find(&db, "software")->type == 1 &&
		      !pmudb__find(&db, "software")->core,
	      "intel: software is type 1, not core");
	CHECK(pmudb__core(&db, 0) == cpu && !pmudb__core(&db, 1), "intel: one core PMU");
	CHECK(!pmudb__find(&db, "nope"), "intel: no such PMU");
	f = cpu ? pmudb__format(cpu, "cmask") : NULL;
	CHECK(f && f->field == PMU_CONFIG && f->nr_bits == 8 && f->bit[0] == 24 &&
		      f->bit[7] == 31,
	      "intel: cmask is config:24-31");
	f = cpu ? pmudb__format(cpu, "ldlat") : NULL;
	CHECK(f && f->field == PMU_CONFIG1 && f->nr_bits == 16, "intel: ldlat is config1:0-15");
	df = pmudb__find(&db, "amd_df");
	f = df ? pmudb__format(df, "filter") : NULL;
	CHECK(f && f->field == PMU_CONFIG1 && f->nr_bits == 7 && f->bit[0] == 1 &&
		      f->bit[1] == 6 && f->bit[5] == 10 && f->bit[6] == 44,
	      "intel: filter is config1:1,6-10,44");
	f = df ? pmudb__format(df, "event") : NULL;
	CHECK(f && f->nr_bits == 14 && f->bit[8] == 32 && f->bit[12] == 59,
	      "intel: event is config:0-7,32-35,59-60");
	if (f) {
		__u64 fields[3] = { 0, 0, 0 };

		CHECK(!pmudb__place(f, 0x3fff, fields) &&
			      fields[0] == (0xffULL | 0xfULL << 32 | 3ULL << 59),
		      "place: split bits");
		CHECK(pmudb__place(f, 0x4000, fields) == -ERANGE, "place: too wide");
		CHECK(!pmudb__place(f, 1, fields) && fields[0] == 1, "place: replaces");
	}
	a = cpu ? pmudb__alias(cpu, "MEM-LOADS") : NULL;
	CHECK(a && !strcmp(a->terms, "event=0xcd,umask=0x1,ldlat=3") && a->scale == 1 &&
		      !a->unit,
	      "intel: mem-loads' terms, any case");
	CHECK(cpu && !pmudb__alias(cpu, "topdown-retiring.scale"), "intel: .scale is no event");
	a = pmudb__find(&db, "power") ? pmudb__alias(pmudb__find(&db, "power"), "energy-pkg")
				      : NULL;
	CHECK(a && a->scale == 2.3283064365386962890625e-10 && a->unit &&
		      !strcmp(a->unit, "Joules"),
	      "intel: energy-pkg's scale and unit");
	bad = pmudb__find(&db, "broken");
	CHECK(bad && bad->error && strstr(bad->error, "format/event: 'config:x'") &&
		      !bad->nr_formats,
	      "intel: a broken PMU keeps its error: %s", bad && bad->error ? bad->error : "");
	pmudb__free(&db);
	pmudb__free(&db);
	pmudb__free(NULL);
}

static void test_hybrid(const char *root)
{
	struct pmu_db db;
	char why[256];

	CHECK(!pmudb__load(&db, root, why, sizeof(why)), "hybrid: loads");
	CHECK(pmudb__core(&db, 0) && !strcmp(pmudb__core(&db, 0)->name, "cpu_atom") &&
		      pmudb__core(&db, 0)->type == 10,
	      "hybrid: cpu_atom first, type 10");
	CHECK(pmudb__core(&db, 1) && !strcmp(pmudb__core(&db, 1)->name, "cpu_core") &&
		      pmudb__core(&db, 1)->type == 4 && !pmudb__core(&db, 2),
	      "hybrid: then cpu_core, type 4");
	pmudb__free(&db);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* What sysfs never has: a FIFO, a huge file, a bad type. Errors, no hang. */
static void test_hostile(void)
{
	char root[] = "/tmp/test-pmudb-XXXXXX", path[512], big[8192];
	const struct pmu *p;
	struct pmu_db db;
	char why[256];

	if (!mkdtemp(root)) {
		CHECK(0, "hostile: mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/fifo", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/fifo/type", root);
	mkfifo(path, 0600);
	snprintf(path, sizeof(path), "%s/big", root);
	mkdir(path, 0755);
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(path, "type", big);
	snprintf(path, sizeof(path), "%s/word", root);
	mkdir(path, 0755);
	put(path, "type", "four\n");
	snprintf(path, sizeof(path), "%s/scale", root);
	mkdir(path, 0755);
	put(path, "type", "7\n");
	snprintf(path, sizeof(path), "%s/scale/events", root);
	mkdir(path, 0755);
	put(path, "e", "event=1\n");
	put(path, "e.scale", "-1\n");
	CHECK(!pmudb__load(&db, root, why, sizeof(why)) && db.nr == 4, "hostile: loads");
	p = pmudb__find(&db, "fifo");
	CHECK(p && p->error && strstr(p->error, "not a regular file"), "hostile: FIFO: %s",
	      p && p->error ? p->error : "");
	p = pmudb__find(&db, "big");
	CHECK(p && p->error && strstr(p->error, "type"), "hostile: a file too big: %s",
	      p && p->error ? p->error : "");
	p = pmudb__find(&db, "word");
	CHECK(p && p->error && strstr(p->error, "'four' is not a number"), "hostile: %s",
	      p && p->error ? p->error : "");
	p = pmudb__find(&db, "scale");
	CHECK(p && p->error && strstr(p->error, "e.scale: '-1'"), "hostile: %s",
	      p && p->error ? p->error : "");
	pmudb__free(&db);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	CHECK(system(path) == 0, "hostile: cleaned up");
	CHECK(!pmudb__load(&db, "/nonexistent/pmus", why, sizeof(why)) && db.nr == 0,
	      "missing root: no PMUs");
	CHECK(pmudb__load(&db, "/etc/passwd", why, sizeof(why)) == -ENOTDIR &&
		      strstr(why, "/etc/passwd"),
	      "root not a directory: %s", why);
}

int main(void)
{
	const char *intel = getenv("FIXTURE_PMU_INTEL"), *hybrid = getenv("FIXTURE_PMU_HYBRID");

	CHECK(intel && hybrid, "fixtures set");
	if (intel && hybrid) {
		test_intel(intel);
		test_hybrid(hybrid);
	}
	test_hostile();
	return check_done();
}
