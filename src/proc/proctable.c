// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "array.h"
#include "infile.h"
#include "proc.h"
#include "search.h"

#define COMM_LEN 16

/* One exec generation of a process: what it was called and what it mapped. */
struct image {
	char comm[COMM_LEN];
	struct mapping *maps;
	size_t nr, cap;
	bool sorted;
};

struct process {
	pid_t tgid;
	struct image *images;
	size_t nr_images;
	bool exited; /* its EXIT was seen: may be forgotten (proc_table__forget) */
};

struct proc_table {
	bool track_all;
	uint64_t mnt_ns; /* ours (inode; 0: unknown) */
	bool no_openat2; /* a path inside a process's root could not be resolved safely */
	struct process **procs;
	size_t nr_procs, cap_procs;
	/* open addressing: tgid -> index + 1 into procs; 0 = empty */
	uint32_t *slots;
	size_t nr_slots;
	struct binary **bins;
	size_t nr_bins, cap_bins;
};

static uint64_t proc__mnt_ns(pid_t tgid);

struct proc_table *proc_table__new(bool track_all)
{
	struct proc_table *pt = calloc(1, sizeof(*pt));

	if (pt) {
		pt->track_all = track_all;
		pt->mnt_ns = proc__mnt_ns(getpid());
	}
	return pt;
}

static void image__clear(struct image *img)
{
	free(img->maps);
}

static void binary__free(struct binary *b)
{
	if (b->fd >= 0)
		close(b->fd);
	if (b->root_fd >= 0)
		close(b->root_fd);
	free(b->path);
	free(b);
}

static void process__free(struct process *p)
{
	for (size_t j = 0; j < p->nr_images; j++)
		image__clear(&p->images[j]);
	free(p->images);
	free(p);
}

void proc_table__free(struct proc_table *pt)
{
	if (!pt)
		return;
	for (size_t i = 0; i < pt->nr_procs; i++)
		process__free(pt->procs[i]);
	for (size_t i = 0; i < pt->nr_bins; i++)
		if (pt->bins[i])
			binary__free(pt->bins[i]);
	free(pt->procs);
	free(pt->slots);
	free(pt->bins);
	free(pt);
}

size_t proc_table__nr_binaries(const struct proc_table *pt)
{
	return pt->nr_bins;
}

bool proc_table__no_openat2(const struct proc_table *pt)
{
	return pt->no_openat2;
}

size_t proc_table__nr_processes(const struct proc_table *pt)
{
	return pt->nr_procs;
}

/* ---- processes, by tgid ---- */

static size_t slot_of(pid_t tgid, size_t nr_slots)
{
	return ((uint32_t)tgid * 2654435761u) & (nr_slots - 1);
}

static struct process *proc_table__get(const struct proc_table *pt, pid_t tgid)
{
	if (!pt->nr_slots)
		return NULL;
	for (size_t i = slot_of(tgid, pt->nr_slots);; i = (i + 1) & (pt->nr_slots - 1)) {
		uint32_t v = pt->slots[i];

		if (!v)
			return NULL;
		if (pt->procs[v - 1]->tgid == tgid)
			return pt->procs[v - 1];
	}
}

/* The slot holding @tgid; nr_slots when it has none. */
static size_t proc_table__slot(const struct proc_table *pt, pid_t tgid)
{
	if (!pt->nr_slots)
		return 0;
	for (size_t i = slot_of(tgid, pt->nr_slots);; i = (i + 1) & (pt->nr_slots - 1)) {
		uint32_t v = pt->slots[i];

		if (!v)
			return pt->nr_slots;
		if (pt->procs[v - 1]->tgid == tgid)
			return i;
	}
}

/*
 * Empty slot @i, moving back the entries after it that probed past it
 * (linear probing's deletion: no tombstones).
 */
static void proc_table__unslot(struct proc_table *pt, size_t i)
{
	size_t mask = pt->nr_slots - 1;

	pt->slots[i] = 0;
	for (size_t j = (i + 1) & mask; pt->slots[j]; j = (j + 1) & mask) {
		size_t home = slot_of(pt->procs[pt->slots[j] - 1]->tgid, pt->nr_slots);

		/* stays when its home is cyclically in (i, j] */
		if (i < j ? home > i && home <= j : home > i || home <= j)
			continue;
		pt->slots[i] = pt->slots[j];
		pt->slots[j] = 0;
		i = j;
	}
}

static int proc_table__rehash(struct proc_table *pt)
{
	size_t n = pt->nr_slots ? pt->nr_slots * 2 : 256;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t p = 0; p < pt->nr_procs; p++) {
		size_t i = slot_of(pt->procs[p]->tgid, n);

		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = p + 1;
	}
	free(pt->slots);
	pt->slots = slots;
	pt->nr_slots = n;
	return 0;
}

static struct image *process__image(struct process *p)
{
	return &p->images[p->nr_images - 1];
}

/* A new exec generation, empty (or a copy of @from, for a fork). */
static int process__push_image(struct process *p, const char *comm, const struct image *from)
{
	struct image *imgs = realloc(p->images, (p->nr_images + 1) * sizeof(*imgs));
	struct image *img;

	if (!imgs)
		return -ENOMEM;
	p->images = imgs;
	img = &imgs[p->nr_images];
	memset(img, 0, sizeof(*img));
	snprintf(img->comm, sizeof(img->comm), "%s", comm ? comm : "");
	if (from && from->nr) {
		img->maps = malloc(from->nr * sizeof(*img->maps));
		if (!img->maps)
			return -ENOMEM;
		memcpy(img->maps, from->maps, from->nr * sizeof(*img->maps));
		img->nr = img->cap = from->nr;
		img->sorted = from->sorted;
	}
	p->nr_images++;
	return 0;
}

static struct process *proc_table__add(struct proc_table *pt, pid_t tgid, const char *comm,
				       const struct image *from)
{
	struct process *p = proc_table__get(pt, tgid);

	if (p)
		return p;
	if ((pt->nr_procs + 1) * 2 > pt->nr_slots && proc_table__rehash(pt))
		return NULL;
	if (array__grow((void **)&pt->procs, &pt->cap_procs, pt->nr_procs + 1, sizeof(*pt->procs)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->tgid = tgid;
	if (process__push_image(p, comm, from)) {
		free(p->images);
		free(p);
		return NULL;
	}
	pt->procs[pt->nr_procs++] = p;
	for (size_t i = slot_of(tgid, pt->nr_slots);; i = (i + 1) & (pt->nr_slots - 1)) {
		if (!pt->slots[i]) {
			pt->slots[i] = pt->nr_procs;
			break;
		}
	}
	return p;
}

/* ---- binaries ---- */

static bool binary__same_build_id(const struct binary *b, const uint8_t *id, size_t len)
{
	return len && b->build_id_len == len && !memcmp(b->build_id, id, len);
}

bool proc_table__same_binary(const struct binary *a, const struct binary *b)
{
	if (a == b)
		return true;
	if (a->build_id_len && b->build_id_len)
		return binary__same_build_id(a, b->build_id, b->build_id_len);
	return a->ino && a->ino == b->ino && a->dev == b->dev;
}

/*
 * The binary that is file @dev/@ino as seen from mount namespace @mnt_ns:
 * one object per file and namespace, never per build-id (a claim any file
 * can make). While bpfprof holds a binary open its inode cannot be reused,
 * so dev/inode name one file for the run. Without an inode (a file that
 * could not be opened nor looked at), a binary that has no file either and
 * the same build-id: it is named from the system's debug files alone.
 */
static struct binary *proc_table__find_binary(const struct proc_table *pt, dev_t dev,
					      uint64_t ino, uint64_t mnt_ns,
					      const uint8_t *id, size_t len)
{
	for (size_t i = 0; i < pt->nr_bins; i++) {
		struct binary *b = pt->bins[i];

		if (!b)
			continue; /* released */
		if (ino && b->ino == ino && b->dev == dev && b->mnt_ns == mnt_ns)
			return b;
		if (!ino && b->fd < 0 && !b->vdso && id && binary__same_build_id(b, id, len))
			return b;
	}
	return NULL;
}

/* The inode of @tgid's mount namespace (0: unknown). */
static uint64_t proc__mnt_ns(pid_t tgid)
{
	char buf[64];
	struct stat st;

	snprintf(buf, sizeof(buf), "/proc/%d/ns/mnt", tgid);
	return stat(buf, &st) ? 0 : st.st_ino;
}

/*
 * The file a mapping shows, without opening it: the source's dev/inode, else
 * those of its map_files entry (the side band reports a build-id instead).
 * False when neither is known.
 */
static bool map_event__file(pid_t tgid, const struct map_event *ev, dev_t *dev, uint64_t *ino)
{
	char buf[128];
	struct stat st;

	if (ev->ino) {
		*dev = ev->dev;
		*ino = ev->ino;
		return true;
	}
	snprintf(buf, sizeof(buf), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, tgid, ev->start,
		 ev->end);
	if (stat(buf, &st))
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/* Does the file open at @fd have the identity the mapping reported? */
static bool binary__matches(int fd, const struct map_event *ev)
{
	uint8_t id[BUILD_ID_MAX];
	struct stat st;
	int len;

	if (ev->build_id) {
		len = buildid__read_fd(fd, id, sizeof(id));
		return len > 0 && (size_t)len == ev->build_id_len &&
		       !memcmp(id, ev->build_id, len);
	}
	if (ev->ino)
		return !fstat(fd, &st) && st.st_ino == ev->ino && st.st_dev == ev->dev;
	return true;
}

/*
 * @tgid's root directory (O_PATH) in *@root, opened on first need (*@root
 * -1: not yet; -2: gone, or not to be seen). Not kept per process: the
 * table keeps every process of a system-wide run, and their fds would add up.
 */
static int proc__root(pid_t tgid, int *root)
{
	char buf[64];

	if (*root == -1) {
		snprintf(buf, sizeof(buf), "/proc/%d/root", tgid);
		if (infile__open_root(buf, root))
			*root = -2;
	}
	return *root;
}

/*
 * Open the mapped file while the process lives: its map_files entry (works
 * for deleted files and other mount namespaces), its path inside its root
 * (resolved there: a symlink the process planted cannot lead out of it),
 * then, for a process in our mount namespace (or one gone before it could
 * be told), the path as we see it; each a regular file, and accepted only
 * if it is the same file the mapping reported. *@denied: none opened, and
 * a path was refused to our user (EACCES, EPERM).
 */
static int binary__open(struct proc_table *pt, pid_t tgid, int *root, bool ours,
			const struct map_event *ev, const char *path, bool *denied)
{
	char buf[128];
	int fd, err;

	*denied = false; /* (map_files's EPERM: no CAP_SYS_ADMIN, nothing of the file) */
	snprintf(buf, sizeof(buf), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, tgid, ev->start,
		 ev->end);
	for (int i = 0; i < 3; i++) {
		if (i == 0)
			err = infile__open(buf, &fd);
		else if (i == 1)
			err = proc__root(tgid, root) < 0 ? -ENOENT :
							   infile__open_in(*root, path, &fd);
		else
			err = ours ? infile__open(path, &fd) : -ENOENT;
		if (i == 1 && err == -ENOSYS)
			pt->no_openat2 = true; /* no openat2: no unsafe fallback either */
		if (i > 0 && (err == -EACCES || err == -EPERM))
			*denied = true;
		if (err)
			continue;
		if (binary__matches(fd, ev)) {
			*denied = false;
			return fd;
		}
		close(fd);
	}
	return -1;
}

static char *binary__clean_path(const char *path)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(path), dl = sizeof(deleted) - 1;
	char *p = strdup(path);

	if (p && len > dl && !strcmp(p + len - dl, deleted))
		p[len - dl] = '\0';
	return p;
}

static struct binary *proc_table__new_binary(struct proc_table *pt, const char *path)
{
	struct binary *b;

	if (array__grow((void **)&pt->bins, &pt->cap_bins, pt->nr_bins + 1, sizeof(*pt->bins)))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b || !(b->path = binary__clean_path(path))) {
		free(b);
		return NULL;
	}
	b->fd = -1;
	b->root_fd = -1;
	b->name = strrchr(b->path, '/') ? strrchr(b->path, '/') + 1 : b->path;
	b->id = pt->nr_bins;
	pt->bins[pt->nr_bins++] = b;
	return b;
}

/* Fill what the source did not say (build-id or dev/inode) from the file. */
static void binary__complete(struct binary *b)
{
	struct stat st;
	int len;

	if (b->fd < 0)
		return;
	if (!b->build_id_len) {
		len = buildid__read_fd(b->fd, b->build_id, sizeof(b->build_id));
		b->build_id_len = len > 0 ? len : 0;
	}
	if (!b->ino && !fstat(b->fd, &st)) {
		b->dev = st.st_dev;
		b->ino = st.st_ino;
	}
}

static struct binary *proc_table__vdso(struct proc_table *pt)
{
	struct binary *b;

	for (size_t i = 0; i < pt->nr_bins; i++)
		if (pt->bins[i] && pt->bins[i]->vdso)
			return pt->bins[i];
	b = proc_table__new_binary(pt, "[vdso]");
	if (b)
		b->vdso = true;
	return b;
}

static struct binary *proc_table__binary(struct proc_table *pt, struct process *p,
					 const struct map_event *ev)
{
	uint64_t mnt_ns = proc__mnt_ns(p->tgid), ino = 0;
	struct binary *b, *known;
	int root = -1;
	bool foreign;
	dev_t dev = 0;
	char *path;

	if (!strcmp(ev->path, "[vdso]"))
		return proc_table__vdso(pt);
	/*
	 * A process gone before its namespace could be read: its files are
	 * opened from our root, as ours are, and must be what it mapped
	 * (binary__matches), so they are our namespace's binaries (before,
	 * a short-lived process's libc was a second libc, read again).
	 */
	if (!mnt_ns)
		mnt_ns = pt->mnt_ns;
	map_event__file(p->tgid, ev, &dev, &ino);
	b = proc_table__find_binary(pt, dev, ino, mnt_ns, ev->build_id, ev->build_id_len);
	if (b) {
		b->unmapped_ns = 0; /* mapped again: the grace starts over */
		return b;
	}
	path = binary__clean_path(ev->path);
	if (!path)
		return NULL;
	b = proc_table__new_binary(pt, path);
	if (!b) {
		free(path);
		return NULL;
	}
	foreign = mnt_ns && mnt_ns != pt->mnt_ns;
	b->fd = binary__open(pt, p->tgid, &root, !foreign, ev, path, &b->denied);
	free(path);
	/* a container's binary keeps its root, for its debug files (the process may exit) */
	if (b->fd >= 0 && foreign && proc__root(p->tgid, &root) >= 0) {
		b->root_fd = root;
		root = -1;
	}
	if (root >= 0)
		close(root);
	b->dev = dev;
	b->ino = ino;
	b->mnt_ns = mnt_ns;
	if (ev->build_id) {
		memcpy(b->build_id, ev->build_id, ev->build_id_len);
		b->build_id_len = ev->build_id_len;
	}
	binary__complete(b);
	/* The file opened is one already known (its inode was not known before)? */
	pt->nr_bins--;
	known = proc_table__find_binary(pt, b->dev, b->ino, b->mnt_ns, b->build_id,
					b->build_id_len);
	if (known) {
		binary__free(b);
		known->unmapped_ns = 0;
		return known;
	}
	pt->nr_bins++;
	return b;
}

/* ---- mappings ---- */

/* A new mapping replaces whatever it overlaps, as mmap over a range does. */
static int image__add(struct image *img, const struct mapping *m)
{
	size_t n = 0;

	for (size_t i = 0; i < img->nr; i++) {
		const struct mapping o = img->maps[i]; /* a copy: slot i is rewritten */

		if (o.end <= m->start || o.start >= m->end) {
			img->maps[n++] = o;
			continue;
		}
		if (o.start < m->start) { /* keep the part below */
			struct mapping low = o;

			low.end = m->start;
			img->maps[n++] = low;
		}
		if (o.end > m->end) { /* and the part above, as a new entry */
			struct mapping high = o;

			high.pgoff += m->end - o.start;
			high.start = m->end;
			if (array__grow((void **)&img->maps, &img->cap, img->nr + 2, sizeof(*img->maps)))
				return -ENOMEM;
			img->maps[img->nr++] = high;
		}
	}
	img->nr = n;
	if (array__grow((void **)&img->maps, &img->cap, img->nr + 1, sizeof(*img->maps)))
		return -ENOMEM;
	img->maps[img->nr++] = *m;
	img->sorted = false;
	return 0;
}

static int mapping__cmp(const void *a, const void *b)
{
	const struct mapping *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static uint64_t mapping__start(const void *m)
{
	return ((const struct mapping *)m)->start;
}

static const struct mapping *image__find(struct image *img, uint64_t addr)
{
	size_t i;

	if (!img->sorted) {
		if (img->nr) /* a new image has no array yet: qsort(NULL, 0) is undefined */
			qsort(img->maps, img->nr, sizeof(*img->maps), mapping__cmp);
		img->sorted = true;
	}
	/* the mappings are disjoint: only the last one starting at or below can hold it */
	i = search__last_le(img->maps, img->nr, sizeof(*img->maps), addr, mapping__start);
	return i < img->nr && addr < img->maps[i].end ? &img->maps[i] : NULL;
}

static int proc_table__add_mapping(struct proc_table *pt, struct process *p,
				   const struct map_event *ev)
{
	struct mapping m = { .start = ev->start, .end = ev->end, .pgoff = ev->pgoff };

	if (ev->end <= ev->start)
		return -EINVAL;
	if (!proc_maps__anon_path(ev->path)) {
		m.bin = proc_table__binary(pt, p, ev);
		if (!m.bin)
			return -ENOMEM;
	}
	return image__add(process__image(p), &m);
}

int proc_table__mmap(struct proc_table *pt, pid_t tgid, const struct map_event *ev)
{
	struct process *p = proc_table__get(pt, tgid);

	if (!p && pt->track_all)
		p = proc_table__add(pt, tgid, NULL, NULL);
	if (!p)
		return pt->track_all ? -ENOMEM : 0;
	return proc_table__add_mapping(pt, p, ev);
}

void proc_table__for_each_process(struct proc_table *pt, void (*fn)(pid_t tgid, void *ctx),
				  void *ctx)
{
	for (size_t i = 0; i < pt->nr_procs; i++)
		fn(pt->procs[i]->tgid, ctx);
}

void proc_table__for_each_jit(struct proc_table *pt, void (*fn)(pid_t tgid, void *ctx),
			      void *ctx)
{
	for (size_t i = 0; i < pt->nr_procs; i++) {
		const struct image *img = process__image(pt->procs[i]);

		for (size_t j = 0; j < img->nr; j++) {
			if (!img->maps[j].bin) {
				fn(pt->procs[i]->tgid, ctx);
				break;
			}
		}
	}
}

int proc_table__for_each_mapping(struct proc_table *pt, proc_mapping_fn fn, void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < pt->nr_procs && !err; i++) {
		const struct image *img = process__image(pt->procs[i]);

		for (size_t j = 0; j < img->nr && !err; j++)
			err = fn(pt->procs[i]->tgid, &img->maps[j], ctx);
	}
	return err;
}

int proc_table__for_each_mapping_of(struct proc_table *pt, pid_t tgid, proc_mapping_fn fn,
				    void *ctx)
{
	struct process *p = proc_table__get(pt, tgid);
	const struct image *img = p ? process__image(p) : NULL;
	int err = 0;

	for (size_t j = 0; img && j < img->nr && !err; j++)
		err = fn(tgid, &img->maps[j], ctx);
	return err;
}

const char *proc_table__comm_of(const struct proc_table *pt, pid_t tgid)
{
	struct process *p = proc_table__get(pt, tgid);

	return p ? process__image(p)->comm : NULL;
}

int proc_table__comm(struct proc_table *pt, pid_t tgid, pid_t tid, const char *comm,
		     bool exec)
{
	struct process *p = proc_table__get(pt, tgid);

	if (!p) {
		if (!pt->track_all)
			return 0;
		return proc_table__add(pt, tgid, comm, NULL) ? 0 : -ENOMEM;
	}
	if (exec)
		return process__push_image(p, comm, NULL);
	if (tid == tgid) /* the leader renamed itself: its comm is the key */
		snprintf(process__image(p)->comm, COMM_LEN, "%s", comm);
	return 0;
}

int proc_table__exit(struct proc_table *pt, pid_t tgid)
{
	struct process *p = proc_table__get(pt, tgid);

	if (p)
		p->exited = true;
	return 0;
}

int proc_table__forget(struct proc_table *pt, pid_t tgid)
{
	size_t i = proc_table__slot(pt, tgid), k;
	struct process *p;

	if (i >= pt->nr_slots || !pt->procs[pt->slots[i] - 1]->exited)
		return -ENOENT;
	k = pt->slots[i] - 1;
	p = pt->procs[k];
	proc_table__unslot(pt, i);
	process__free(p);
	/* the last process takes its place in procs[] */
	if (k != --pt->nr_procs) {
		pt->procs[k] = pt->procs[pt->nr_procs];
		pt->slots[proc_table__slot(pt, pt->procs[k]->tgid)] = k + 1;
	}
	return 0;
}

size_t proc_table__release_unmapped(struct proc_table *pt, uint64_t now_ns, uint64_t grace_ns,
				    proc_binary_fn fn, void *ctx)
{
	bool *mapped = calloc(pt->nr_bins ? pt->nr_bins : 1, sizeof(*mapped));
	size_t n = 0;

	if (!mapped)
		return 0; /* kept: only memory */
	for (size_t i = 0; i < pt->nr_procs; i++) {
		const struct process *p = pt->procs[i];

		for (size_t j = 0; j < p->nr_images; j++)
			for (size_t k = 0; k < p->images[j].nr; k++)
				if (p->images[j].maps[k].bin)
					mapped[p->images[j].maps[k].bin->id] = true;
	}
	for (size_t i = 0; i < pt->nr_bins; i++) {
		struct binary *b = pt->bins[i];

		if (!b)
			continue;
		if (mapped[i]) {
			b->unmapped_ns = 0;
			continue;
		}
		if (!b->unmapped_ns)
			b->unmapped_ns = now_ns ? now_ns : 1;
		if (now_ns - b->unmapped_ns < grace_ns)
			continue;
		fn(pt->bins[i], ctx);
		binary__free(pt->bins[i]);
		pt->bins[i] = NULL;
		n++;
	}
	free(mapped);
	return n;
}

int proc_table__fork(struct proc_table *pt, pid_t ptgid, pid_t tgid, pid_t tid)
{
	struct process *parent, *p;

	if (tgid != tid || tgid == ptgid)
		return 0; /* a thread: same process */
	parent = proc_table__get(pt, ptgid);
	if (!parent && !pt->track_all)
		return 0;
	p = proc_table__get(pt, tgid);
	if (p && p->exited) {
		/* the pid of an exited process not forgotten yet: a new generation */
		p->exited = false;
		return process__push_image(p, parent ? process__image(parent)->comm : NULL,
					   parent ? process__image(parent) : NULL);
	}
	if (p)
		return 0;
	return proc_table__add(pt, tgid, parent ? process__image(parent)->comm : NULL,
			       parent ? process__image(parent) : NULL) ?
		       0 :
		       -ENOMEM;
}

const struct mapping *proc_table__find(struct proc_table *pt, pid_t tgid, const char *comm,
				       uint64_t addr)
{
	struct process *p = proc_table__get(pt, tgid);
	const struct mapping *m;

	if (!p)
		return NULL;
	for (size_t i = p->nr_images; i-- > 0;) {
		if (comm && strncmp(p->images[i].comm, comm, COMM_LEN))
			continue;
		m = image__find(&p->images[i], addr);
		if (m)
			return m;
	}
	return image__find(process__image(p), addr);
}

/* ---- /proc ---- */

static void proc__read_comm(pid_t tgid, char *comm)
{
	char path[64];
	FILE *f;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", tgid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(comm, COMM_LEN, f))
		comm[strcspn(comm, "\n")] = '\0';
	fclose(f);
}

static int proc_table__scan(struct proc_table *pt, pid_t tgid)
{
	char path[64], comm[COMM_LEN], *line = NULL;
	struct map_event ev;
	struct process *p;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", tgid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	proc__read_comm(tgid, comm);
	p = proc_table__add(pt, tgid, comm, NULL);
	while (p && !err && getline(&line, &cap, f) > 0)
		if (proc_maps__parse_line(line, &ev) == 1)
			err = proc_table__add_mapping(pt, p, &ev);
	free(line);
	fclose(f);
	return p ? err : -ENOMEM;
}

int proc_table__track(struct proc_table *pt, pid_t tgid)
{
	int err = proc_table__scan(pt, tgid);

	/*
	 * Gone, not there yet, or its maps unreadable (another user namespace):
	 * follow it anyway; the side band still reports what it maps from now on.
	 */
	if (err && err != -ENOMEM)
		return proc_table__add(pt, tgid, NULL, NULL) ? 0 : -ENOMEM;
	return err;
}

int proc_table__scan_all(struct proc_table *pt)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		err = proc_table__scan(pt, atoi(de->d_name));
		if (err != -ENOMEM)
			err = 0; /* gone, or a kernel thread: fine */
	}
	closedir(d);
	return err;
}
