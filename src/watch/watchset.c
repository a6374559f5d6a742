// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* `bpfprof watch`: LOCATION arguments -> addresses, per process or in the kernel. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "elfloads.h"
#include "elfsymtab.h"
#include "infile.h"
#include "proc.h"
#include "watchset.h"

/* Fewer data symbols in kallsyms: a kernel built without CONFIG_KALLSYMS_ALL. */
#define WATCH_KALLSYMS_ALL 1000
/* Most bytes of /proc/PID/maps and /proc/kallsyms read. */
#define WATCH_PROC_MAX (256u << 20)

static int watch_set__fail(struct watch_set *ws, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int watch_set__fail(struct watch_set *ws, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ws->why, sizeof(ws->why), fmt, ap);
	va_end(ap);
	return err;
}

/* Element @elem of @arg's *COUNT: "BASE[elem]", BASE being @arg before its :LEN. */
static char *watch_set__element_name(const char *arg, unsigned int elem)
{
	char *base = strdup(arg), *cut, *name;

	if (!base)
		return NULL;
	cut = strrchr(base, '*');
	if (cut)
		*cut = '\0';
	cut = strrchr(base, ':');
	/* a :LEN, not BINARY: or kernel: (LEN is digits) */
	if (cut && cut[1] >= '0' && cut[1] <= '9')
		*cut = '\0';
	if (asprintf(&name, "%s[%u]", base, elem) < 0)
		name = NULL;
	free(base);
	return name;
}

int watch_set__init(struct watch_set *ws, char *const *args, size_t n,
		    enum watch_access access)
{
	struct watchspec *specs = calloc(n ? n : 1, sizeof(*specs));
	size_t total = 0, i;
	const char *why;
	int err = 0;

	memset(ws, 0, sizeof(*ws));
	ws->access = access;
	if (!specs)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		err = watchspec__parse(args[i], &specs[i], &why);
		if (err && err != -ENOMEM)
			err = watch_set__fail(ws, err, "invalid location '%s': %s", args[i],
					      why);
		total += err ? 0 : specs[i].count;
	}
	ws->w = err ? NULL : calloc(total ? total : 1, sizeof(*ws->w));
	if (!err && !ws->w)
		err = -ENOMEM;
	/* each element a location; its spec shares the first's strings */
	for (i = 0; i < n && !err; i++) {
		for (unsigned int e = 0; e < specs[i].count && !err; e++) {
			struct watch *w = &ws->w[ws->nr];

			w->index = ws->nr;
			w->arg = args[i];
			w->elem = e;
			w->spec = specs[i];
			w->spec.offset += (uint64_t)e * specs[i].len;
			w->kernel = w->spec.kind == WATCH_KERNEL_SYM;
			w->name = specs[i].count > 1 ? watch_set__element_name(args[i], e) :
						       strdup(args[i]);
			err = w->name ? 0 : -ENOMEM;
			ws->nr++;
		}
		if (specs[i].count)
			memset(&specs[i], 0, sizeof(specs[i])); /* the set owns its strings */
	}
	for (i = 0; i < n; i++)
		watchspec__free(&specs[i]);
	free(specs);
	return err;
}

void watch_set__free(struct watch_set *ws)
{
	for (size_t i = 0; i < ws->nr; i++) {
		if (!ws->w[i].elem)
			watchspec__free(&ws->w[i].spec);
		free(ws->w[i].places);
		free(ws->w[i].name);
	}
	free(ws->w);
	memset(ws, 0, sizeof(*ws));
}

const char *watch_set__error(const struct watch_set *ws)
{
	return ws->why;
}

int watch_set__check(struct watch_set *ws, bool all, bool one_target, const struct uspace *us)
{
	for (size_t i = 0; i < ws->nr; i++) {
		const struct watch *w = &ws->w[i];

		if (w->spec.count > 1 && ws->access == WATCH_ACCESS_X)
			return watch_set__fail(ws, -EINVAL, "location '%s': elements (*COUNT) "
					       "are data; an instruction breakpoint (--access=x) "
					       "watches one function each", w->arg);
		if (w->spec.count > 1 && !w->spec.len)
			return watch_set__fail(ws, -EINVAL, "location '%s': elements (*COUNT) "
					       "need their length: e.g. '%.*s:4*%llu' for %llu "
					       "elements of 4 bytes", w->arg,
					       (int)(strrchr(w->arg, '*') - w->arg), w->arg,
					       w->spec.count, w->spec.count);
		if (w->spec.count > 1 && !w->elem && w->spec.kind == WATCH_ABS_ADDR &&
		    UINT64_MAX - (w->spec.addr + w->spec.offset) <
			    w->spec.count * w->spec.len - 1)
			return watch_set__fail(ws, -EINVAL, "location '%s': its elements end "
					       "past the last address", w->arg);
		if (w->spec.kind == WATCH_ABS_ADDR && !one_target)
			return watch_set__fail(ws, -EINVAL, "location '%s' is an address: it "
					       "needs one target process (-p PID or a command)",
					       w->arg);
		if (w->spec.kind == WATCH_ABS_ADDR &&
		    !uspace__holds(us, w->spec.addr + w->spec.offset, w->spec.len ?: 1))
			return watch_set__fail(ws, -EINVAL, "location '%s': 0x%" PRIx64 " is not "
					       "where a process can map: expected %saddresses from "
					       "0x%" PRIx64 " (vm.mmap_min_addr) to 0x%" PRIx64
					       " (the top of user space)", w->arg,
					       w->spec.addr + w->spec.offset,
					       w->spec.len > 1 ? "all its bytes at " : "", us->lo,
					       us->hi - 1);
		if (w->kernel && ws->access == WATCH_ACCESS_X)
			return watch_set__fail(ws, -EINVAL, "location '%s': x86 sets instruction "
					       "breakpoints (--access=x) in user space only; kernel "
					       "code is counted by bpfprof range", w->arg);
		if (w->kernel && !all)
			return watch_set__fail(ws, -EINVAL, "location '%s' is kernel data: "
					       "watch it system-wide, with -a", w->arg);
		if (!w->kernel && all)
			return watch_set__fail(ws, -EINVAL, "location '%s' is in a process: "
					       "give -p PID, -t TID or a command (system-wide, -a, "
					       "watches kernel data only)", w->arg);
		if (w->spec.kind == WATCH_ABS_ADDR && !w->spec.len &&
		    ws->access != WATCH_ACCESS_X)
			return watch_set__fail(ws, -EINVAL, "location '%s' has no size: give "
					       "its length, e.g. '%s:8' (1, 2, 4 or 8 bytes)",
					       w->arg, w->arg);
	}
	return 0;
}

/*
 * The length watched at @w (its symbol's @size bytes, @data or code) at
 * @addr, checked: 0 or -EINVAL with the error.
 */
static int watch_set__settle(struct watch_set *ws, struct watch *w, bool known, bool data,
			     uint64_t size, uint64_t addr)
{
	const char *sym = w->spec.symbol;

	if (known && ws->access == WATCH_ACCESS_X && data)
		return watch_set__fail(ws, -EINVAL, "location '%s': %s is data, not code: "
				       "an instruction breakpoint (--access=x) needs a function",
				       w->arg, sym);
	if (known && ws->access != WATCH_ACCESS_X && !data)
		return watch_set__fail(ws, -EINVAL, "location '%s': %s is not a data symbol: "
				       "--access=%s watches data (--access=x for code)",
				       w->arg, sym, watch_spec__access_name(ws->access));
	w->size = size;
	if (ws->access == WATCH_ACCESS_X) {
		/* an instruction breakpoint's length is sizeof(long) on x86-64 */
		w->len = sizeof(long);
		return 0;
	}
	if (w->spec.len) {
		w->len = w->spec.len;
	} else if (size > w->spec.offset &&
		   (size - w->spec.offset == 1 || size - w->spec.offset == 2 ||
		    size - w->spec.offset == 4 || size - w->spec.offset == 8)) {
		w->len = size - w->spec.offset;
	} else if (size) {
		return watch_set__fail(ws, -EINVAL, "location '%s': %s is %" PRIu64 " bytes; "
				       "a breakpoint watches 1, 2, 4 or 8: give a part, e.g. "
				       "'%s:8' and '%s+8:8'",
				       w->arg, sym, size - w->spec.offset, w->arg, w->arg);
	} else {
		return watch_set__fail(ws, -EINVAL, "location '%s': the size of %s is not "
				       "known: give its length, e.g. '%s:8' (1, 2, 4 or 8 bytes)",
				       w->arg, sym ? sym : "the address", w->arg);
	}
	if (addr % w->len)
		return watch_set__fail(ws, -EINVAL, "location '%s': address 0x%" PRIx64
				       " is not aligned to its length %u (address %% %u = %" PRIu64
				       ")",
				       w->arg, addr, w->len, w->len, addr % w->len);
	/* *COUNT's elements within the symbol (kallsyms and addresses give no size) */
	if (w->spec.count > 1 && size &&
	    (w->spec.offset > size || w->spec.count * w->len > size - w->spec.offset))
		return watch_set__fail(ws, -EINVAL, "location '%s': %llu elements of %u byte%s "
				       "from offset %" PRIu64 " end at byte %" PRIu64 "; %s is %"
				       PRIu64 " bytes", w->arg, w->spec.count, w->len,
				       w->len == 1 ? "" : "s", w->spec.offset,
				       (uint64_t)(w->spec.offset + w->spec.count * w->len), sym, size);
	return 0;
}

static int watch_set__add_place(struct watch *w, pid_t tgid, uint64_t addr)
{
	struct watch_place *p = realloc(w->places, (w->nr_places + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	w->places = p;
	w->places[w->nr_places++] = (struct watch_place){ tgid, addr };
	return 0;
}

const struct watch_place *watch_set__place(const struct watch *w, pid_t tgid)
{
	for (size_t i = 0; i < w->nr_places; i++)
		if (w->places[i].tgid == tgid)
			return &w->places[i];
	return NULL;
}

/*
 * Element @w (not the first) of its argument's *COUNT, in process @tgid
 * (0: the kernel): its first's place there, just resolved, plus LEN bytes
 * an element.
 */
static int watch_set__follow(struct watch_set *ws, struct watch *w, pid_t tgid)
{
	const struct watch *first = w - w->elem;
	const struct watch_place *at = watch_set__place(first, tgid);
	uint64_t addr;

	if (!at)
		return watch_set__fail(ws, -ENOENT, "location '%s': its first element has no "
				       "address in process %d", w->arg, tgid);
	addr = at->addr + (uint64_t)w->elem * first->len;
	w->len = first->len;
	w->size = first->size;
	if (addr % w->len)
		return watch_set__fail(ws, -EINVAL, "location '%s': element %u at 0x%" PRIx64
				       " is not aligned to its length %u", w->arg, w->elem, addr,
				       w->len);
	return watch_set__add_place(w, tgid, addr);
}

/*
 * What kallsyms text @buf says of symbol @name: 0 and *@addr for one of
 * the types in @types ("dDbBrR" data, "tTwW" code), else -ENOENT; *@other
 * when the name is there with another type, *@hidden when every address
 * is 0, *@data_listed how many data symbols are listed (a few dozen
 * section markers on a kernel without CONFIG_KALLSYMS_ALL).
 */
struct watch_ksym {
	uint64_t addr;
	bool other, hidden;
	size_t data_listed;
};

static int watch_ksym__find(char *buf, const char *name, const char *types,
			    struct watch_ksym *out)
{
	char *line, *save = NULL;

	memset(out, 0, sizeof(*out));
	out->hidden = true;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a;
		char type, sym[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3)
			continue;
		if (a)
			out->hidden = false;
		if (strchr("dDbB", type))
			out->data_listed++;
		if (strcmp(sym, name))
			continue;
		if (!strchr(types, type)) {
			out->other = true;
			continue;
		}
		out->addr = a;
		return 0;
	}
	return -ENOENT;
}

/* Why kernel location @w is not in kallsyms, as the error. */
static int watch_set__kernel_missing(struct watch_set *ws, const struct watch *w,
				     const struct watch_ksym *f, const char *kallsyms)
{
	bool x = ws->access == WATCH_ACCESS_X;

	if (f->hidden)
		return watch_set__fail(ws, -EACCES, "location '%s': kernel addresses are hidden "
				       "in %s (kernel.kptr_restrict)", w->arg, kallsyms);
	if (f->other)
		return watch_set__fail(ws, -EINVAL, "location '%s': %s is %s, not %s: %s",
				       w->arg, w->spec.symbol, x ? "data" : "code",
				       x ? "code" : "data",
				       x ? "an instruction breakpoint (--access=x) needs a function" :
					   "--access=x watches code");
	if (!x && f->data_listed < WATCH_KALLSYMS_ALL)
		return watch_set__fail(ws, -ENOENT, "location '%s': no kernel data symbol named "
				       "'%s': this kernel lists no data in %s (built without "
				       "CONFIG_KALLSYMS_ALL)", w->arg, w->spec.symbol, kallsyms);
	return watch_set__fail(ws, -ENOENT, "location '%s': no kernel %s symbol named '%s' in %s",
			       w->arg, x ? "function" : "data", w->spec.symbol, kallsyms);
}

int watch_set__resolve_kernel(struct watch_set *ws, const char *kallsyms)
{
	bool x = ws->access == WATCH_ACCESS_X;
	struct watch_ksym f;
	char *buf = NULL, *copy;
	size_t len;
	int fd, err;

	for (size_t i = 0; i < ws->nr; i++) {
		struct watch *w = &ws->w[i];
		uint64_t addr = 0;

		if (!w->kernel)
			continue;
		if (w->elem) {
			err = watch_set__follow(ws, w, 0);
			if (err) {
				free(buf);
				return err;
			}
			continue;
		}
		if (!buf) {
			err = infile__open(kallsyms, &fd);
			if (err)
				return watch_set__fail(ws, err, "cannot read %s: %s", kallsyms,
						       strerror(-err));
			err = infile__read_all(fd, WATCH_PROC_MAX, &buf, &len);
			close(fd);
			if (err)
				return watch_set__fail(ws, err, "cannot read %s: %s", kallsyms,
						       strerror(-err));
		}
		copy = strdup(buf);
		if (!copy) {
			free(buf);
			return -ENOMEM;
		}
		err = watch_ksym__find(copy, w->spec.symbol, x ? "tTwW" : "dDbBrR", &f);
		free(copy);
		if (err)
			err = watch_set__kernel_missing(ws, w, &f, kallsyms);
		addr = f.addr;
		if (!err && !w->spec.len && !x)
			err = watch_set__fail(ws, -EINVAL, "location '%s': kallsyms gives no "
					      "sizes: give the length, e.g. '%s:8' (1, 2, 4 or 8 "
					      "bytes)", w->arg, w->arg);
		addr += w->spec.offset;
		err = err ?: watch_set__settle(ws, w, true, !x, 0, addr);
		err = err ?: watch_set__add_place(w, 0, addr);
		if (err) {
			free(buf);
			return err;
		}
	}
	free(buf);
	return 0;
}

/* @w's symbol in the ELF file at @fd: its vaddr (+OFFSET), checked. */
static int watch_set__find(struct watch_set *ws, struct watch *w, int fd, const char *file,
			   uint64_t *vaddr)
{
	struct elf_object obj;
	int err = elf_symtab__find_object_fd(fd, w->spec.symbol, &obj);

	if (err == -ENOENT)
		return watch_set__fail(ws, err, "location '%s': no symbol '%s' in %s", w->arg,
				       w->spec.symbol, file);
	if (err)
		return watch_set__fail(ws, err, "location '%s': cannot read the symbols of %s: "
				       "%s", w->arg, file, strerror(-err));
	if (obj.tls)
		return watch_set__fail(ws, -EINVAL, "location '%s': %s is thread-local: each "
				       "thread has its own; watch one thread's address instead",
				       w->arg, w->spec.symbol);
	*vaddr = obj.addr + w->spec.offset;
	return watch_set__settle(ws, w, true, obj.data, obj.size, *vaddr);
}

int watch_set__check_file(struct watch_set *ws, const char *path)
{
	uint64_t vaddr;
	int fd, err;

	for (size_t i = 0; i < ws->nr; i++) {
		struct watch *w = &ws->w[i];

		/* the other elements follow the first */
		if (w->spec.kind != WATCH_EXE_SYM || w->elem)
			continue;
		err = infile__open(path, &fd);
		if (err)
			return watch_set__fail(ws, err, "cannot read '%s': %s", path,
					       infile__strerror(err));
		err = watch_set__find(ws, w, fd, path, &vaddr);
		close(fd);
		if (err)
			return err;
	}
	return 0;
}

/* The file of a process's mapping: the executable (dev/inode) or a name. */
struct watch_file {
	pid_t tgid;
	dev_t dev;
	uint64_t ino;       /* the executable's; 0 when matching by name */
	const char *name;   /* BINARY: a path when it holds '/', else a file name */
	bool found;
	uint64_t start, end, pgoff; /* its first executable mapping */
	char path[4096];
};

static bool watch_file__match(const struct watch_file *f, const struct map_event *ev)
{
	const char *base;

	if (f->ino)
		return ev->ino == f->ino && ev->dev == f->dev;
	if (strchr(f->name, '/'))
		return !strcmp(ev->path, f->name);
	base = strrchr(ev->path, '/');
	return base && !strcmp(base + 1, f->name);
}

/* The first executable mapping of @f in its process's maps. 0, -ENOENT, -errno. */
static int watch_file__mapping(struct watch_file *f)
{
	char path[64], *buf, *line, *save = NULL;
	size_t len;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/maps", f->tgid);
	err = infile__open(path, &fd);
	if (err)
		return err;
	err = infile__read_all(fd, WATCH_PROC_MAX, &buf, &len);
	close(fd);
	if (err)
		return err;
	for (line = strtok_r(buf, "\n", &save); line && !f->found;
	     line = strtok_r(NULL, "\n", &save)) {
		struct map_event ev;

		if (proc_maps__parse_line(line, &ev) != 1 || !watch_file__match(f, &ev))
			continue;
		f->found = true;
		f->start = ev.start;
		f->end = ev.end;
		f->pgoff = ev.pgoff;
		snprintf(f->path, sizeof(f->path), "%s", ev.path);
	}
	free(buf);
	return f->found ? 0 : -ENOENT;
}

/* The load bias of the file at @fd mapped as @f: address = vaddr + bias. */
static int watch_file__bias(const struct watch_file *f, int fd, uint64_t *bias)
{
	struct elf_load *loads;
	const struct elf_load *seg;
	size_t n;
	int err = elf_loads__read(fd, 0, &loads, &n);

	if (err)
		return err;
	seg = elf_loads__code(loads, n, f->pgoff, f->end - f->start);
	if (seg)
		*bias = f->start - f->pgoff + seg->offset - seg->vaddr;
	free(loads);
	return seg ? 0 : -ENOEXEC;
}

/*
 * Resolve @w, a symbol of the file @f names, in @f's process. With @later,
 * a file the process does not map (yet) leaves @w without a place there.
 */
static int watch_set__resolve_in(struct watch_set *ws, struct watch *w, struct watch_file *f,
				 bool later)
{
	char path[128];
	uint64_t bias = 0, vaddr = 0;
	int fd, err;

	err = watch_file__mapping(f);
	if (err == -ENOENT && later)
		return 0;
	if (err == -ENOENT)
		return watch_set__fail(ws, err, "location '%s': process %d does not map %s",
				       w->arg, f->tgid, f->ino ? "its executable" : f->name);
	if (err)
		return watch_set__fail(ws, err, "location '%s': cannot read the mappings of "
				       "process %d: %s", w->arg, f->tgid, strerror(-err));
	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, f->tgid,
		 f->start, f->end);
	err = infile__open(path, &fd);
	if (err)
		return watch_set__fail(ws, err, "location '%s': cannot open %s of process %d: %s",
				       w->arg, f->path, f->tgid, infile__strerror(err));
	err = watch_set__find(ws, w, fd, f->path, &vaddr);
	if (!err && watch_file__bias(f, fd, &bias))
		err = watch_set__fail(ws, -ENOEXEC, "location '%s': cannot read the segments "
				      "of %s", w->arg, f->path);
	close(fd);
	if (err)
		return err;
	/* the bias is page-aligned: vaddr's alignment, checked, is the address's */
	return watch_set__add_place(w, f->tgid, vaddr + bias);
}

int watch_set__resolve_process(struct watch_set *ws, pid_t tgid, bool later)
{
	char path[64];
	struct stat st;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/exe", tgid);
	if (stat(path, &st))
		return watch_set__fail(ws, -errno, "cannot find the executable of process %d: %s",
				       tgid, strerror(errno));
	for (size_t i = 0; i < ws->nr; i++) {
		struct watch *w = &ws->w[i];
		struct watch_file f = { .tgid = tgid };

		if (w->elem && !w->kernel) {
			/* a library not mapped yet: its elements wait with their first */
			if (later && w->spec.kind == WATCH_BIN_SYM &&
			    !watch_set__place(w - w->elem, tgid))
				continue;
			err = watch_set__follow(ws, w, tgid);
			if (err)
				return err;
			continue;
		}
		switch (w->spec.kind) {
		case WATCH_EXE_SYM:
			f.dev = st.st_dev;
			f.ino = st.st_ino;
			err = watch_set__resolve_in(ws, w, &f, false);
			break;
		case WATCH_BIN_SYM:
			f.name = w->spec.binary;
			err = watch_set__resolve_in(ws, w, &f, later);
			break;
		case WATCH_ABS_ADDR:
			err = watch_set__settle(ws, w, false, true, 0,
						w->spec.addr + w->spec.offset);
			err = err ?: watch_set__add_place(w, tgid, w->spec.addr + w->spec.offset);
			break;
		default:
			err = 0;
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

bool watch_set__waiting(const struct watch_set *ws, pid_t tgid)
{
	for (size_t i = 0; i < ws->nr; i++)
		if (ws->w[i].spec.kind == WATCH_BIN_SYM && !watch_set__place(&ws->w[i], tgid))
			return true;
	return false;
}

int watch_set__resolve_mapped(struct watch_set *ws, pid_t tgid, bool *placed)
{
	int err = 0;

	for (size_t i = 0; i < ws->nr && !err; i++) {
		struct watch *w = &ws->w[i];
		struct watch_file f = { .tgid = tgid, .name = w->spec.binary };

		placed[i] = false;
		if (w->spec.kind != WATCH_BIN_SYM || watch_set__place(w, tgid))
			continue;
		if (w->elem)
			err = watch_set__place(w - w->elem, tgid) ?
				      watch_set__follow(ws, w, tgid) : 0;
		else
			err = watch_set__resolve_in(ws, w, &f, true);
		placed[i] = !err && watch_set__place(w, tgid);
	}
	return err;
}
