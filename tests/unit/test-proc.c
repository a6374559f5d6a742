// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The process model: maps lines, file offsets, overlap replacement, exec generations, forks. */
#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "proc.h"

static struct map_event ev(uint64_t start, uint64_t end, uint64_t pgoff, const char *path,
			   uint64_t ino)
{
	return (struct map_event){ .start = start, .end = end, .pgoff = pgoff, .path = path,
				   .ino = ino, .dev = makedev(8, 1) };
}

/* Counts the mappings of each tgid seen, and the one with a binary at @want. */
struct walk {
	size_t nr[2]; /* tgids 100, 300 */
	const struct mapping *found;
	uint64_t want;
	int stop_at;
};

static int walk_one(pid_t tgid, const struct mapping *m, void *ctx)
{
	struct walk *w = ctx;

	w->nr[tgid == 300]++;
	if (m->start == w->want)
		w->found = m;
	return w->stop_at && w->nr[0] + w->nr[1] == (size_t)w->stop_at ? 42 : 0;
}

/* Every mapping of every process's newest generation; the comm of each. */
static void test_each_mapping(void)
{
	struct map_event a = ev(0x400000, 0x401000, 0x1000, "/nonexistent/a", 11);
	struct map_event b = ev(0x500000, 0x501000, 0x0, "/nonexistent/b", 12);
	struct proc_table *pt = proc_table__new(true);
	struct walk w = { .want = 0x500000 };

	proc_table__comm(pt, 100, 100, "first", false);
	proc_table__mmap(pt, 100, &a);
	proc_table__mmap(pt, 100, &b);
	proc_table__fork(pt, 100, 300, 300);
	proc_table__comm(pt, 300, 300, "second", true); /* exec: an empty generation */
	proc_table__mmap(pt, 300, &b);
	CHECK(proc_table__for_each_mapping(pt, walk_one, &w) == 0, "for_each_mapping: 0");
	CHECK(w.nr[0] == 2 && w.nr[1] == 1,
	      "two mappings of 100, one of 300's newest generation (%zu, %zu)", w.nr[0], w.nr[1]);
	CHECK(w.found && w.found->bin && w.found->bin->ino == 12, "the mapping of b, with b");
	w = (struct walk){ .stop_at = 2 };
	CHECK(proc_table__for_each_mapping(pt, walk_one, &w) == 42 && w.nr[0] + w.nr[1] == 2,
	      "a nonzero return stops the walk and is returned");
	CHECK_STR(proc_table__comm_of(pt, 100), "first", "comm_of the first process");
	CHECK_STR(proc_table__comm_of(pt, 300), "second", "comm_of: the newest generation's");
	CHECK(!proc_table__comm_of(pt, 999), "comm_of an unknown process: NULL");
	proc_table__free(pt);
}

int main(void)
{
	char l1[] = "7f0000001000-7f0000005000 r-xp 00002000 fd:01 1234   /usr/lib/libx.so (deleted)\n";
	char l2[] = "7f0000005000-7f0000006000 rw-p 00000000 00:00 0\n";
	char l3[] = "garbage\n";
	struct map_event e, a, b;
	const struct mapping *m;
	struct proc_table *pt;

	CHECK(proc_maps__parse_line(l1, &e) == 1, "an r-xp line is an executable mapping");
	CHECK(e.start == 0x7f0000001000 && e.end == 0x7f0000005000 && e.pgoff == 0x2000,
	      "start, end and offset are parsed as hex");
	CHECK(e.dev == makedev(0xfd, 1) && e.ino == 1234, "device and inode are parsed");
	CHECK_STR(e.path, "/usr/lib/libx.so (deleted)", "the path keeps its spaces, loses its newline");
	CHECK(proc_maps__parse_line(l2, &e) == 0, "a data mapping is skipped");
	CHECK(proc_maps__parse_line(l3, &e) == -EINVAL, "a malformed line is an error");
	CHECK(proc_maps__anon_path("/dev/zero (deleted)") &&
	      proc_maps__anon_path("/anon_hugepage (deleted)") &&
	      proc_maps__anon_path("/dev/zero") && proc_maps__anon_path("//anon") &&
	      proc_maps__anon_path("") && proc_maps__anon_path("[anon:jit]"),
	      "shared and private anonymous memory is anonymous, as perf has it");
	CHECK(!proc_maps__anon_path("/dev/zeros") &&
	      !proc_maps__anon_path("/usr/lib/libx.so (deleted)") &&
	      !proc_maps__anon_path("[vdso]") && !proc_maps__anon_path("/memfd:jit (deleted)"),
	      "files, the vDSO and memfds are not");

	pt = proc_table__new(true);
	a = ev(0x400000, 0x401000, 0x1000, "/nonexistent/a", 11);
	b = ev(0x400800, 0x400c00, 0x0, "/nonexistent/b", 12);
	CHECK(proc_table__mmap(pt, 100, &a) == 0, "a mapping is added");
	m = proc_table__find(pt, 100, NULL, 0x400010);
	CHECK(m && mapping__file_offset(m, 0x400010) == 0x1010, "file offset = addr - start + pgoff");
	CHECK(m && m->bin && !strcmp(m->bin->name, "a") && m->bin->fd < 0,
	      "an unopenable binary is still named");
	CHECK(proc_table__find(pt, 100, NULL, 0x401000) == NULL, "the end is exclusive");
	CHECK(proc_table__mmap(pt, 100, &b) == 0, "an overlapping mapping is added");
	m = proc_table__find(pt, 100, NULL, 0x400900);
	CHECK(m && !strcmp(m->bin->name, "b"), "the newer mapping wins where they overlap");
	m = proc_table__find(pt, 100, NULL, 0x400e00);
	CHECK(m && !strcmp(m->bin->name, "a") && mapping__file_offset(m, 0x400e00) == 0x1e00,
	      "the part above keeps its file offset");
	m = proc_table__find(pt, 100, NULL, 0x400100);
	CHECK(m && !strcmp(m->bin->name, "a"), "the part below is kept");

	/* Binaries are shared by identity across processes. */
	CHECK(proc_table__mmap(pt, 200, &a) == 0 && proc_table__nr_binaries(pt) == 2,
	      "the same file mapped by another process is one binary");

	/* fork copies the parent's mappings; exec starts a new generation. */
	CHECK(proc_table__comm(pt, 100, 100, "parent", false) == 0, "comm renames");
	CHECK(proc_table__fork(pt, 100, 300, 300) == 0, "fork adds the child");
	m = proc_table__find(pt, 300, "parent", 0x400010);
	CHECK(m && !strcmp(m->bin->name, "a"), "a forked child inherits the mappings");
	CHECK(proc_table__comm(pt, 300, 300, "child", true) == 0, "exec starts a generation");
	proc_table__mmap(pt, 300, &(struct map_event){ .start = 0x400000, .end = 0x402000,
						       .path = "/nonexistent/c", .ino = 13 });
	m = proc_table__find(pt, 300, "child", 0x400010);
	CHECK(m && !strcmp(m->bin->name, "c"), "after exec the new image answers");
	m = proc_table__find(pt, 300, "parent", 0x400010);
	CHECK(m && !strcmp(m->bin->name, "a"), "samples from before the exec keep the old image");
	CHECK(proc_table__fork(pt, 100, 100, 101) == 0 && proc_table__nr_processes(pt) == 3,
	      "a new thread is not a new process");
	proc_table__free(pt);

	pt = proc_table__new(true);
	CHECK(proc_table__mmap(pt, 700, &(struct map_event){ .start = 0x1000, .end = 0x2000,
							     .path = "//anon" }) == 0,
	      "an anonymous mapping from the side band is added");
	m = proc_table__find(pt, 700, NULL, 0x1800);
	CHECK(m && !m->bin && proc_table__nr_binaries(pt) == 0,
	      "\"//anon\" is anonymous memory, not a file");
	proc_table__free(pt);

	pt = proc_table__new(false);
	CHECK(proc_table__mmap(pt, 555, &a) == 0 && proc_table__find(pt, 555, NULL, 0x400010) == NULL,
	      "untracked processes are ignored when not tracking all");
	proc_table__free(pt);
	test_each_mapping();
	return check_done();
}
