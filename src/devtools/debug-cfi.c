// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpfprof debug-cfi: the unwind table compiled from one file's CFI, for the
 * tests (tests/cfi-agreement.py compares it with readelf) and for measuring
 * it. Hidden: not a user interface with guarantees.
 *
 * One line per row, the ELF virtual address where it starts, then its
 * rules: "0x1140 cfa=rsp+8 rbp=same", "cfa=rbp+16 rbp=cfa-16",
 * "cfa=plt(rsp+8,11)", "cfa=*(rbp-8) rbp=*(rbp+0)", "cfa=r10+0", or one
 * word: signal, end, invalid, none. --stats prints the statistics instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "buildid.h"
#include "cficache.h"
#include "cfitable.h"
#include "devtools.h"
#include "monotime.h"
#include "exit.h"
#include "infile.h"

#define CFI_PROG "bpfprof debug-cfi"

/* x86-64 DWARF register numbers 0..15 (UNWIND_AUX) */
static const char *const cfi_regs[16] = {
	"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
	"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
};

static const char *const cfi_types[] = {
	[UNWIND_CFA_NONE] = "none",	  [UNWIND_CFA_RSP] = "rsp",
	[UNWIND_CFA_RBP] = "rbp",	  [UNWIND_CFA_REG] = "reg",
	[UNWIND_CFA_PLT] = "plt",	  [UNWIND_CFA_DEREF] = "deref",
	[UNWIND_CFA_SIGNAL] = "signal",	  [UNWIND_CFA_END] = "end",
	[UNWIND_CFA_INVALID] = "invalid",
};

static int cfi_usage(FILE *f, int status)
{
	fprintf(f, "Usage: " CFI_PROG " [--stats] [--no-cache|--cache-dir DIR] "
		   "[--debug-file DEBUGFILE] FILE\n"
		   "Prints the unwind table compiled from FILE's CFI, one row a line; "
		   "--stats prints its size and build and cache load times.\n");
	return status;
}

static void cfi_print_row(FILE *out, uint64_t base, const struct unwind_row *r)
{
	unsigned int type = UNWIND_TYPE(r->cfa_type), aux = UNWIND_AUX(r->cfa_type);

	fprintf(out, "0x%" PRIx64 " ", base + r->pc);
	switch (type) {
	case UNWIND_CFA_RSP:
	case UNWIND_CFA_RBP:
	case UNWIND_CFA_REG:
		fprintf(out, "cfa=%s%+" PRId32,
			type == UNWIND_CFA_RSP ? "rsp" :
			type == UNWIND_CFA_RBP ? "rbp" :
						 cfi_regs[aux],
			r->cfa_off);
		break;
	case UNWIND_CFA_PLT:
		fprintf(out, "cfa=plt(rsp%+" PRId32 ",%u)", r->cfa_off, aux);
		break;
	case UNWIND_CFA_DEREF:
		fprintf(out, "cfa=*(%s%+" PRId32 ")", cfi_regs[aux], r->cfa_off);
		break;
	default:
		fprintf(out, "%s\n",
			type < ARRAY_SIZE(cfi_types) ? cfi_types[type] : "?");
		return;
	}
	switch (r->rbp_type) {
	case UNWIND_RBP_SAME:
		fputs(" rbp=same\n", out);
		break;
	case UNWIND_RBP_CFA:
		fprintf(out, " rbp=cfa%+d\n", r->rbp_off);
		break;
	case UNWIND_RBP_REG:
		fprintf(out, " rbp=*(rbp%+d)\n", r->rbp_off);
		break;
	default:
		fputs(" rbp=undef\n", out);
		break;
	}
}

static void cfi_print_stats(FILE *out, const char *path, const struct cfi_table *t)
{
	uint32_t count[UNWIND_CFA_INVALID + 1] = { 0 };

	for (uint32_t i = 0; i < t->nr_rows; i++)
		count[UNWIND_TYPE(t->rows[i].cfa_type)]++;
	fprintf(out, "file: %s\nsources:%s%s\n", path,
		t->flags & CFI_TABLE_EH_FRAME ? " .eh_frame" : "",
		t->flags & CFI_TABLE_DEBUG_FRAME ? " .debug_frame" : "");
	fprintf(out,
		"fdes: %" PRIu32 " (%" PRIu32 " outside executable segments, skipped)\n",
		t->nr_fdes, t->nr_fdes_skipped);
	fprintf(out,
		"rows: %" PRIu32 " (%" PRIu32 " before merging identical neighbours)\n",
		t->nr_rows, t->nr_raw_rows);
	fputs("row types:", out);
	for (unsigned int i = 0; i <= UNWIND_CFA_INVALID; i++)
		fprintf(out, " %s=%" PRIu32, cfi_types[i], count[i]);
	fprintf(out, "\npages: %" PRIu32 "\nbytes: %zu\n", t->nr_pages,
		cfi_table__bytes(t));
}

static bool cfi_same(const struct cfi_table *a, const struct cfi_table *b)
{
	return a->base == b->base && a->nr_rows == b->nr_rows &&
	       a->nr_pages == b->nr_pages &&
	       !memcmp(a->rows, b->rows, cfi_table__bytes(a));
}

/* A build error as one line naming @path (and @debug, the debug file); the exit status. */
static int cfi_error(const char *path, const char *debug, int err)
{
	switch (err) {
	case ENOEXEC:
		if (debug)
			fprintf(stderr, CFI_PROG ": '%s' or '%s' is not an x86-64 ELF file\n",
				path, debug);
		else
			fprintf(stderr, CFI_PROG ": '%s' is not an x86-64 ELF file\n",
				path);
		return EXIT_USAGE;
	case ENODATA:
		fprintf(stderr,
			CFI_PROG ": '%s' has no CFI (.eh_frame or .debug_frame)\n", path);
		return EXIT_USAGE;
	case E2BIG:
		fprintf(stderr,
			CFI_PROG ": '%s': the code its CFI covers spans 4 GiB or more\n",
			path);
		return EXIT_USAGE;
	default:
		fprintf(stderr, CFI_PROG ": '%s': %s\n", path, strerror(err));
		return EXIT_RUNTIME;
	}
}

/*
 * --stats: build cold (timed), then, with a cache, store the table and
 * time loading it back. The exit status, every failure reported.
 */
static int cfi_stats(const char *path, const char *debug_path, int fd, int debug_fd,
		     const char *dir)
{
	uint8_t id[BUILD_ID_MAX], source[SHA256_SIZE];
	struct cfi_table *t, *c;
	int len, err;
	double t0 = monotime__ns() / 1e6, t1;

	t = cfi_table__build_fd(fd, debug_fd);
	t1 = monotime__ns() / 1e6;
	if (!t)
		return cfi_error(path, debug_path, errno);
	cfi_print_stats(stdout, path, t);
	printf("build: %.3f ms (cold)\n", t1 - t0);
	len = buildid__read_fd(fd, id, sizeof(id));
	if (!dir || len <= 0) {
		printf("cache load: none (%s)\n", dir ? "no build-id" : "no cache");
		cfi_table__free(t);
		return 0;
	}
	err = cfi_table__digest(fd, debug_fd, source);
	if (!err)
		err = cficache__store(dir, id, len, debug_fd >= 0, source, t);
	if (err) {
		fprintf(stderr, CFI_PROG ": cannot write the cache in '%s': %s\n", dir,
			strerror(-err));
		cfi_table__free(t);
		return EXIT_RUNTIME;
	}
	t0 = monotime__ns() / 1e6;
	c = cficache__load(dir, id, len, debug_fd >= 0, source);
	t1 = monotime__ns() / 1e6;
	err = c && cfi_same(t, c) ? 0 : EXIT_RUNTIME;
	if (err)
		fprintf(stderr, CFI_PROG ": the table read back from '%s' differs: %s\n",
			dir, c ? "other rows" : strerror(errno));
	else
		printf("cache load: %.3f ms\n", t1 - t0);
	cfi_table__free(c);
	cfi_table__free(t);
	return err;
}

/* The rows, one a line. The exit status, a failure reported. */
static int cfi_dump(const char *path, const char *debug_path, int fd, int debug_fd,
		    const char *dir)
{
	struct cfi_table *t = cficache__get(dir, fd, debug_fd, NULL);

	if (!t)
		return cfi_error(path, debug_path, errno);
	for (uint32_t i = 0; i < t->nr_rows; i++)
		cfi_print_row(stdout, t->base, &t->rows[i]);
	cfi_table__free(t);
	return 0;
}

static int cfi_open(const char *path)
{
	int fd, err = infile__open(path, &fd);

	if (err) {
		fprintf(stderr, CFI_PROG ": cannot open '%s': %s\n", path, infile__strerror(err));
		return -1;
	}
	return fd;
}

int debug_cfi__run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stats", no_argument, NULL, 'S' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "cache-dir", required_argument, NULL, 'C' },
		{ "debug-file", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *cache_dir = NULL, *debug_path = NULL, *path;
	bool stats = false, no_cache = false;
	int c, fd = -1, debug_fd = -1, status = EXIT_USAGE;
	char *dir = NULL;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'S':
			stats = true;
			break;
		case 'N':
			no_cache = true;
			break;
		case 'C':
			cache_dir = optarg;
			break;
		case 'D':
			debug_path = optarg;
			break;
		case 'h':
			return cfi_usage(stdout, 0);
		default:
			return cfi_usage(stderr, EXIT_USAGE);
		}
	}
	if (optind != argc - 1)
		return cfi_usage(stderr, EXIT_USAGE);
	if (no_cache && cache_dir) {
		fprintf(stderr,
			CFI_PROG ": --no-cache and --cache-dir exclude each other\n");
		return EXIT_USAGE;
	}
	path = argv[optind];
	fd = cfi_open(path);
	if (fd < 0)
		goto out;
	if (debug_path && (debug_fd = cfi_open(debug_path)) < 0)
		goto out;
	/* no cache directory (no HOME): as --no-cache */
	if (!no_cache)
		dir = cache_dir ? strdup(cache_dir) : cficache__default_dir();
	status = stats ? cfi_stats(path, debug_path, fd, debug_fd, dir) :
			 cfi_dump(path, debug_path, fd, debug_fd, dir);
	if (!status && fflush(stdout))
		status = EXIT_RUNTIME;
out:
	free(dir);
	if (debug_fd >= 0)
		close(debug_fd);
	if (fd >= 0)
		close(fd);
	return status;
}
