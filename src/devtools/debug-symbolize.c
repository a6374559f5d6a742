// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bpfprof debug-symbolize: the symbolizer on one file, addresses from
 * standard input, for bench/symbolize and for resolving "[binary+0xOFF]"
 * frames after the fact. Hidden: not a user interface with guarantees.
 *
 * Output per address, innermost frame first, one line each:
 * "FUNCTION<TAB>FILE:LINE" ("??" and "??:0" when unknown), then an empty
 * line (the shape of llvm-symbolizer's output). Names and files are
 * escaped as everywhere else (escape.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binsym.h"
#include "buildid.h"
#include "devtools.h"
#include "escape.h"
#include "demangler.h"
#include "exit.h"
#include "infile.h"

static int symbolize_usage(FILE *f, int status)
{
	fprintf(f, "Usage: bpfprof debug-symbolize [--debug-dir DIR]... [--no-inline] "
		   "[--demangle=short|full|none] [--offsets] FILE < ADDRESSES\n"
		   "Each input line is a hex ELF virtual address (a file offset with "
		   "--offsets).\n");
	return status;
}

static void symbolize_print(FILE *out, const struct symloc *loc)
{
	for (uint32_t i = loc->nr; i-- > 0;) {
		const struct frame *f = &loc->f[i];

		const char *name = f->name ? f->name : "??", *file = f->file ? f->file : "??";

		escape__write(out, name, strlen(name));
		fputc('\t', out);
		escape__write(out, file, strlen(file));
		fprintf(out, ":%" PRIu32 "\n", f->line);
	}
	fputc('\n', out);
}

int debug_symbolize__run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "debug-dir", required_argument, NULL, 'D' },
		{ "no-inline", no_argument, NULL, 'I' },
		{ "demangle", required_argument, NULL, 'M' },
		{ "offsets", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct binsym_opts o = { .inlines = true, .lines = true };
	enum demangle_mode mode = DEMANGLE_SHORT;
	struct binary b = { .fd = -1, .root_fd = -1 };
	const char **roots = NULL;
	size_t nroots = 0, len = 0;
	struct binsym *bs = NULL;
	bool offsets = false;
	int c, status = EXIT_RUNTIME;
	char *line = NULL;
	int n, err;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'D': {
			const char **v = realloc(roots, (nroots + 3) * sizeof(*v));

			if (!v)
				goto out;
			roots = v;
			roots[nroots++] = optarg;
			roots[nroots] = "/usr/lib/debug";
			roots[nroots + 1] = NULL;
			break;
		}
		case 'I':
			o.inlines = false;
			break;
		case 'M':
			if (demangler__parse_mode(optarg, &mode)) {
				fprintf(stderr, "bpfprof debug-symbolize: invalid --demangle '%s': "
						"expected short, full or none\n", optarg);
				status = EXIT_USAGE;
				goto out;
			}
			break;
		case 'O':
			offsets = true;
			break;
		case 'h':
			status = symbolize_usage(stdout, 0);
			goto out;
		default:
			status = symbolize_usage(stderr, EXIT_USAGE);
			goto out;
		}
	}
	if (optind != argc - 1) {
		status = symbolize_usage(stderr, EXIT_USAGE);
		goto out;
	}
	b.path = argv[optind];
	b.name = strrchr(b.path, '/') ? strrchr(b.path, '/') + 1 : b.path;
	err = infile__open(b.path, &b.fd);
	if (err) {
		b.fd = -1;
		fprintf(stderr, "bpfprof debug-symbolize: cannot open '%s': %s\n", b.path,
			infile__strerror(err));
		status = EXIT_USAGE;
		goto out;
	}
	n = buildid__read_fd(b.fd, b.build_id, sizeof(b.build_id));
	b.build_id_len = n > 0 ? n : 0;
	o.debug_roots = roots;
	o.demangle = mode;
	bs = binsym__new(&b, &o);
	if (!bs)
		goto out;
	while (getline(&line, &len, stdin) > 0) {
		const struct symloc *loc;
		char *end;
		uint64_t addr = strtoull(line, &end, 16);

		if (end == line || (*end && *end != '\n')) {
			fprintf(stderr, "bpfprof debug-symbolize: invalid address '%.*s': "
					"expected hex\n", (int)strcspn(line, "\n"), line);
			status = EXIT_USAGE;
			goto out;
		}
		loc = offsets ? binsym__at_offset(bs, addr, false) :
				binsym__at_vaddr(bs, addr, false);
		if (!loc)
			goto out;
		symbolize_print(stdout, loc);
	}
	status = fflush(stdout) ? EXIT_RUNTIME : 0;
out:
	if (status == EXIT_RUNTIME && errno == ENOMEM)
		fprintf(stderr, "bpfprof debug-symbolize: out of memory\n");
	free(line);
	binsym__free(bs);
	if (b.fd >= 0)
		close(b.fd);
	free(roots);
	return status;
}
