// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -e EVENT over the sysfs reader: the input is "SPEC\nFORMAT\nEVENTS", the
 * last two written as the format/event and events/ev files of a PMU "fz"
 * (type 4, a core PMU) in a scratch root that pmudb__load reads; SPEC is
 * then parsed with that database (and without any).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "evspec.h"
#include "fuzzinput.h"
#include "pmudb.h"

static char root[] = "/tmp/fuzz-evspec-XXXXXX";
static int made;

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/fz/%s", root, name);
	f = fopen(path, "w");
	assert(f);
	fputs(text, f);
	fclose(f);
}

static void check(const char *spec, const struct pmu_db *db)
{
	struct evspec_list l = { 0 };
	char why[512] = "";
	int err;

	err = evspec__parse(spec, db, &l, why, sizeof(why));
	assert(err == 0 || err == -EINVAL);
	if (err) {
		/*
		 * what is wrong, and nothing added; quoted as it came (its
		 * printer escapes it), so one line once escaped
		 */
		char *line = escape__dup(why);

		assert(*why && l.nr == 0);
		assert(line && !strchr(line, '\n'));
		free(line);
		return;
	}
	assert(l.nr >= 1);
	for (size_t i = 0; i < l.nr; i++) {
		const struct evspec_event *ev = &l.events[i];

		assert(ev->name && ev->nr_attrs >= 1 && ev->scale > 0);
		for (size_t j = 0; j < ev->nr_attrs; j++) {
			assert(ev->attrs[j].size == sizeof(ev->attrs[j]));
			assert(!ev->attrs[j].freq || ev->attrs[j].sample_freq);
			(void)evspec__is_hardware(&ev->attrs[j]);
		}
	}
	evspec__free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_input__string(data, size), *format, *events, dir[128];
	struct pmu_db db;
	char why[256];

	if (!spec)
		return 0;
	if (!made++) {
		assert(mkdtemp(root));
		snprintf(dir, sizeof(dir), "%s/fz", root);
		mkdir(dir, 0755);
		snprintf(dir, sizeof(dir), "%s/fz/format", root);
		mkdir(dir, 0755);
		snprintf(dir, sizeof(dir), "%s/fz/events", root);
		mkdir(dir, 0755);
		put("type", "4\n");
		put("cpus", "0\n");
	}
	format = strchr(spec, '\n');
	events = format ? strchr(format + 1, '\n') : NULL;
	if (format)
		*format++ = '\0';
	if (events)
		*events++ = '\0';
	put("format/event", format ? format : "config:0-7");
	put("events/ev", events ? events : "event=1");
	assert(pmudb__load(&db, root, why, sizeof(why)) == 0);
	check(spec, &db);
	check(spec, NULL);
	pmudb__free(&db);
	free(spec);
	return 0;
}
