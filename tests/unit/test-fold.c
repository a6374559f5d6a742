// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Folded output: frame order, suffixes, sanitizing, process frames, sorting and merging. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output.h"

static struct profile_sample stack(const char *comm, uint32_t tgid, uint32_t tid,
				   struct frame *f, uint32_t nr, uint64_t count)
{
	return (struct profile_sample){ .tgid = tgid, .tid = tid, .comm = comm, .frames = f,
					.nr = nr, .count = count };
}

static char *write_profile(const struct profile *p, const struct output_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (output_folded.write_profile(f, p, o, NULL))
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* The one line of a profile of @st alone, without its count; malloc'd. */
static char *fold__line(const struct profile_sample *st, const struct output_opts *o)
{
	struct profile p = { 0 };
	char *out, *sp;

	if (profile__add(&p, st))
		return NULL;
	out = write_profile(&p, o);
	profile__free(&p);
	sp = out ? strrchr(out, ' ') : NULL;
	if (sp)
		*sp = '\0';
	return out;
}

int main(void)
{
	struct frame f1[] = { { "main", FRAME_USER }, { "do_read", FRAME_USER },
			      { "vfs_read", FRAME_KERNEL } };
	struct frame f2[] = { { "a;b", FRAME_USER }, { "line\nbreak", FRAME_USER } };
	struct frame f3[] = { { "[truncated]", FRAME_MARK }, { "leaf", FRAME_USER } };
	struct output_opts none = { 0 }, pid = { .per_pid = true },
			   tid = { .per_pid = true, .per_thread = true };
	struct profile_sample st;
	struct profile p = { 0 };
	char *line, *out;

	st = stack("app", 42, 43, f1, 3, 7);
	line = fold__line(&st, &none);
	CHECK_STR(line, "app;main;do_read;vfs_read_[k]", "root first, kernel frames get _[k]");
	free(line);
	line = fold__line(&st, &pid);
	CHECK_STR(line, "app-42;main;do_read;vfs_read_[k]", "--per-pid: comm-PID");
	free(line);
	line = fold__line(&st, &tid);
	CHECK_STR(line, "app-42/43;main;do_read;vfs_read_[k]", "--per-thread: comm-PID/TID");
	free(line);

	struct frame fj[] = { { "main", FRAME_USER }, { "JS:*hot /a.js:7", FRAME_JIT } };

	st = stack("node", 1, 0, fj, 2, 1);
	line = fold__line(&st, &none);
	CHECK_STR(line, "node;main;JS:*hot /a.js:7_[j]", "JIT frames get _[j]");
	free(line);

	struct frame fi[] = { { "main", FRAME_USER, 30, "/src/app/main.c" },
			      { "hot", FRAME_INLINE, 12, "/src/app/hot.h" },
			      { "nofile", FRAME_USER },
			      { "vfs_read", FRAME_KERNEL } };
	struct output_opts lines = { .lines = true };

	st = stack("app", 1, 0, fi, 4, 1);
	line = fold__line(&st, &none);
	CHECK_STR(line, "app;main;hot_[i];nofile;vfs_read_[k]", "inlined calls get _[i]");
	free(line);
	line = fold__line(&st, &lines);
	CHECK_STR(line, "app;main main.c:30;hot hot.h:12_[i];nofile;vfs_read_[k]",
		  "--lines: 'name base.c:LINE' where known, before the suffix");
	free(line);

	st = stack("we;ird", 1, 0, f2, 2, 1);
	line = fold__line(&st, &none);
	CHECK_STR(line, "we:ird;a:b;line\\x0abreak", "';' becomes ':', a line break is escaped");
	free(line);

	st = stack("deep", 1, 0, f3, 2, 1);
	line = fold__line(&st, &none);
	CHECK_STR(line, "deep;[truncated];leaf", "a truncated stack starts with [truncated]");
	free(line);

	st = stack("", 1, 0, f3 + 1, 1, 1);
	line = fold__line(&st, &none);
	CHECK(line && strncmp(line, ";", 1) != 0, "an empty comm still gives a process frame");
	free(line);

	/* Two processes of the same name merge without --per-pid, sorted. */
	st = stack("zeta", 2, 0, f3 + 1, 1, 5);
	profile__add(&p, &st);
	st = stack("app", 10, 0, f1, 3, 2);
	profile__add(&p, &st);
	st = stack("app", 11, 0, f1, 3, 3);
	profile__add(&p, &st);
	out = write_profile(&p, &none);
	CHECK_STR(out, "app;main;do_read;vfs_read_[k] 5\nzeta;leaf 5\n",
		  "lines are sorted and identical stacks are summed");
	free(out);
	out = write_profile(&p, &pid);
	CHECK_STR(out, "app-10;main;do_read;vfs_read_[k] 2\napp-11;main;do_read;vfs_read_[k] 3\n"
		       "zeta-2;leaf 5\n",
		  "with --per-pid the processes stay apart");
	free(out);
	CHECK(profile__samples(&p) == 10, "profile__samples sums the counts");
	profile__free(&p);

	/* The profile keeps its own names: the symbolizer's may go. */
	char name[] = "transient", file[] = "/src/t.c", comm[] = "proc";
	struct frame ft[] = { { name, FRAME_USER, 9, file } };

	st = stack(comm, 1, 0, ft, 1, 4);
	profile__add(&p, &st);
	memset(name, 'X', sizeof(name) - 1);
	memset(file, 'Y', sizeof(file) - 1);
	memset(comm, 'Z', sizeof(comm) - 1);
	out = write_profile(&p, &lines);
	CHECK_STR(out, "proc;transient t.c:9 4\n", "names, files and comms are copied");
	free(out);
	profile__free(&p);

	/* Without --lines the profile keeps no line: stacks apart only there are one. */
	struct frame l1[] = { { "main", FRAME_USER, 3, "/src/m.c" } },
		     l2[] = { { "main", FRAME_USER, 4, "/src/m.c" } };

	for (int drop = 0; drop < 2; drop++) {
		p = (struct profile){ .drop_lines = drop };
		st = stack("app", 1, 0, l1, 1, 1);
		profile__add(&p, &st);
		st = stack("app", 1, 0, l2, 1, 2);
		profile__add(&p, &st);
		CHECK(p.nr == (drop ? 1u : 2u) && p.nr_frames == p.nr && profile__samples(&p) == 3,
		      "drop_lines %d: %zu stacks, %zu frames", drop, p.nr, p.nr_frames);
		CHECK(!drop || (p.frames[0].file == NULL && p.frames[0].line == 0),
		      "a dropped line leaves no file either");
		profile__free(&p);
	}

	/* Many stacks: each found again however the index grew. */
	struct frame deep[3] = { { "root", FRAME_USER }, { "mid", FRAME_USER } };
	char names[4096][8];
	size_t wrong = 0;

	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 4096; i++) {
			snprintf(names[i], sizeof(names[i]), "f%d", i);
			deep[2] = (struct frame){ names[i], FRAME_USER };
			st = stack("app", (uint32_t)i % 7, 0, deep + i % 2, 3 - i % 2, 1);
			profile__add(&p, &st);
		}
	}
	for (size_t i = 0; i < p.nr; i++)
		wrong += p.stacks[i].count != 2;
	CHECK(p.nr == 4096 && !wrong && p.nr_frames == 4098,
	      "4096 stacks twice: %zu stacks, %zu not counted twice, %zu frames", p.nr, wrong,
	      p.nr_frames);
	profile__free(&p);
	return check_done();
}
