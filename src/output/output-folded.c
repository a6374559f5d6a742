// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Folded stacks, as flamegraph.pl, inferno and speedscope read them: one
 * line per unique stack, root first, ';' between frames, one space, an
 * integer count; lines sorted and aggregated. The first frame is the
 * process. Kernel frames end in "_[k]", inlined calls in "_[i]", JIT frames
 * in "_[j]"; with --lines a frame whose source line is known reads
 * "name file.c:42" (the file's base name, as perf shows it). Names come
 * from outside: control bytes and invalid UTF-8 are written "\xHH" and a
 * backslash "\\" (escape.c); the format has no escape for ';', so a ';'
 * in a name becomes ':'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "output.h"

static void fold__put_name(FILE *f, const char *name)
{
	for (;;) {
		size_t n = strcspn(name, ";");

		escape__write(f, name, n);
		if (!name[n])
			return;
		fputc(':', f);
		name += n + 1;
	}
}

static void fold__put_process(FILE *f, const struct profile_stack *st,
			      const struct output_opts *o)
{
	fold__put_name(f, st->comm[0] ? st->comm : "[unknown comm]");
	if (o->per_thread)
		fprintf(f, "-%" PRIu32 "/%" PRIu32, st->tgid, st->tid);
	else if (o->per_pid)
		fprintf(f, "-%" PRIu32, st->tgid);
}

char *fold__line(const struct profile_stack *st, const struct output_opts *o)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	fold__put_process(f, st, o);
	for (uint32_t i = 0; i < st->nr; i++) {
		const struct frame *fr = &st->frames[i];

		fputc(';', f);
		fold__put_name(f, fr->name);
		if (o->lines && fr->file && fr->line) {
			const char *base = strrchr(fr->file, '/');

			fputc(' ', f);
			fold__put_name(f, base ? base + 1 : fr->file);
			fprintf(f, ":%" PRIu32, fr->line);
		}
		if (fr->kind == FRAME_KERNEL)
			fputs("_[k]", f);
		else if (fr->kind == FRAME_INLINE)
			fputs("_[i]", f);
		else if (fr->kind == FRAME_JIT)
			fputs("_[j]", f);
	}
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}

struct fold_entry {
	char *line;
	uint64_t count;
};

static int fold__cmp(const void *a, const void *b)
{
	return strcmp(((const struct fold_entry *)a)->line, ((const struct fold_entry *)b)->line);
}

static int fold__write(FILE *f, const struct profile *p, const struct output_opts *o)
{
	struct fold_entry *e = calloc(p->nr ? p->nr : 1, sizeof(*e));
	size_t n = 0;
	int err = 0;

	if (!e)
		return -ENOMEM;
	for (; n < p->nr; n++) {
		e[n].line = fold__line(&p->stacks[n], o);
		e[n].count = p->stacks[n].count;
		if (!e[n].line) {
			err = -ENOMEM;
			goto out;
		}
	}
	qsort(e, n, sizeof(*e), fold__cmp);
	for (size_t i = 0; i < n;) {
		uint64_t count = e[i].count;
		size_t j = i + 1;

		while (j < n && !strcmp(e[j].line, e[i].line))
			count += e[j++].count;
		if (fprintf(f, "%s %" PRIu64 "\n", e[i].line, count) < 0) {
			err = -EIO;
			goto out;
		}
		i = j;
	}
out:
	for (size_t i = 0; i < n; i++)
		free(e[i].line);
	free(e);
	return err;
}

const struct output_format output_folded = {
	.name = "folded",
	.ext = ".folded",
	.takes = OUTPUT_PROFILE,
	.write_profile = fold__write,
};
