// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "array.h"
#include "infile.h"
#include "number.h"
#include "pmudb.h"

/* sysfs files are at most a page; a directory of more entries is not sysfs */
#define PMUDB_FILE_MAX 4096
#define PMUDB_DIR_MAX 65536

/* The suffixes of an event's side files (name.scale, ...): not events. */
static const char *const pmudb_side[] = { ".scale", ".unit", ".per-pkg", ".snapshot",
					  ".deprecated" };

/* @dir/@name into @path (PATH_MAX bytes): 0 or -ENAMETOOLONG. */
static int pmudb__join(char *path, const char *dir, const char *name)
{
	int n = snprintf(path, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* Read the small file @dir/@name, trailing white space cut, into *@out. */
static int pmudb__read(const char *dir, const char *name, char **out)
{
	char path[PATH_MAX];
	size_t len;
	int fd, err;

	err = pmudb__join(path, dir, name);
	if (err)
		return err;
	err = infile__open(path, &fd);
	if (err)
		return err;
	err = infile__read_all(fd, PMUDB_FILE_MAX, out, &len);
	close(fd);
	if (err)
		return err;
	while (len && isspace((unsigned char)(*out)[len - 1]))
		(*out)[--len] = '\0';
	return 0;
}

static void pmudb__free_names(char **names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/* The names in directory @path, in *@names (each malloc'd); -ENOENT if none. */
static int pmudb__list(const char *path, char ***names, size_t *nr)
{
	size_t cap = 0;
	struct dirent *d;
	DIR *dir = opendir(path);
	int err = 0;

	*names = NULL;
	*nr = 0;
	if (!dir)
		return -errno;
	while ((errno = 0, d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (*nr >= PMUDB_DIR_MAX) {
			err = -E2BIG;
			break;
		}
		if (array__grow((void **)names, &cap, *nr + 1, sizeof(**names)) ||
		    !((*names)[*nr] = strdup(d->d_name))) {
			err = -ENOMEM;
			break;
		}
		(*nr)++;
	}
	if (!err && errno)
		err = -errno;
	closedir(dir);
	if (err) {
		pmudb__free_names(*names, *nr);
		*names = NULL;
		*nr = 0;
	}
	return err;
}

/* "config1:1,6-10,44" -> @f; -EINVAL for anything else. */
static int pmudb__parse_format(const char *text, struct pmu_format *f)
{
	static const char *const fields[] = { "config", "config1", "config2" };
	const char *colon = strchr(text, ':'), *p;
	__u64 bits = 0;
	size_t i;

	if (!colon)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if ((size_t)(colon - text) == strlen(fields[i]) &&
		    !strncmp(text, fields[i], colon - text))
			break;
	if (i == ARRAY_SIZE(fields))
		return -EINVAL;
	f->field = (enum pmu_field)i;
	for (p = colon + 1;;) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			hi = strtoul(end + 1, &end, 10);
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			bits |= 1ULL << b;
		p = end;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	f->nr_bits = 0;
	for (unsigned int b = 0; b < 64; b++)
		if (bits & (1ULL << b))
			f->bit[f->nr_bits++] = (unsigned char)b;
	return 0;
}

static int pmudb__cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format *)a)->name,
		      ((const struct pmu_format *)b)->name);
}

static int pmudb__cmp_alias(const void *a, const void *b)
{
	return strcasecmp(((const struct pmu_alias *)a)->name,
			  ((const struct pmu_alias *)b)->name);
}

static int pmudb__cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pmu *)a)->name, ((const struct pmu *)b)->name);
}

/* @dir/format/ into @pmu; a PMU without one has no format terms. */
static int pmudb__load_formats(struct pmu *pmu, const char *dir, char *why, size_t size)
{
	char path[PATH_MAX], **names;
	size_t nr;
	int err;

	err = pmudb__join(path, dir, "format");
	if (!err)
		err = pmudb__list(path, &names, &nr);
	if (err)
		return err == -ENOENT ? 0 : err;
	pmu->formats = calloc(nr ? nr : 1, sizeof(*pmu->formats));
	if (!pmu->formats) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		struct pmu_format *f = &pmu->formats[pmu->nr_formats];
		char *text;

		err = pmudb__read(path, names[i], &text);
		if (err) {
			snprintf(why, size, "format/%s: %s", names[i], infile__strerror(err));
			goto out;
		}
		err = pmudb__parse_format(text, f);
		if (err)
			snprintf(why, size, "format/%s: '%s' is not FIELD:BITS (config, "
				 "config1 or config2, bits 0-63 as 1,6-10,44)", names[i], text);
		free(text);
		if (err)
			goto out;
		f->name = names[i];
		names[i] = NULL;
		pmu->nr_formats++;
	}
	qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats), pmudb__cmp_format);
out:
	pmudb__free_names(names, nr);
	return err;
}

static bool pmudb__is_side(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(pmudb_side); i++) {
		size_t n = strlen(pmudb_side[i]);

		if (len > n && !strcmp(name + len - n, pmudb_side[i]))
			return true;
	}
	return false;
}

/* The optional side file @name@suffix of an event: its text or NULL. */
static int pmudb__read_side(const char *path, const char *name, const char *suffix,
			    char **text)
{
	char file[NAME_MAX + 32];
	int err;

	*text = NULL;
	snprintf(file, sizeof(file), "%s%s", name, suffix);
	err = pmudb__read(path, file, text);
	return err == -ENOENT ? 0 : err;
}

static int pmudb__load_alias(struct pmu_alias *a, const char *path, char *name,
			     char *why, size_t size)
{
	char *scale;
	int err;

	a->scale = 1;
	err = pmudb__read(path, name, &a->terms);
	if (!err)
		err = pmudb__read_side(path, name, ".unit", &a->unit);
	if (!err)
		err = pmudb__read_side(path, name, ".scale", &scale);
	if (err) {
		snprintf(why, size, "events/%s: %s", name, infile__strerror(err));
		return err;
	}
	if (scale) {
		char *end;

		errno = 0;
		a->scale = strtod(scale, &end);
		if (errno || end == scale || *end || !(a->scale > 0)) {
			snprintf(why, size, "events/%s.scale: '%s' is not a number above 0",
				 name, scale);
			err = -EINVAL;
		}
		free(scale);
	}
	return err;
}

/* @dir/events/ into @pmu. */
static int pmudb__load_aliases(struct pmu *pmu, const char *dir, char *why, size_t size)
{
	char path[PATH_MAX], **names;
	size_t nr;
	int err;

	err = pmudb__join(path, dir, "events");
	if (!err)
		err = pmudb__list(path, &names, &nr);
	if (err)
		return err == -ENOENT ? 0 : err;
	pmu->aliases = calloc(nr ? nr : 1, sizeof(*pmu->aliases));
	if (!pmu->aliases) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr; i++) {
		struct pmu_alias *a = &pmu->aliases[pmu->nr_aliases];

		if (pmudb__is_side(names[i]))
			continue;
		a->name = names[i];
		names[i] = NULL;
		pmu->nr_aliases++;
		err = pmudb__load_alias(a, path, a->name, why, size);
		if (err)
			goto out;
	}
	qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), pmudb__cmp_alias);
out:
	pmudb__free_names(names, nr);
	return err;
}

static void pmudb__free_pmu(struct pmu *pmu)
{
	for (size_t i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (size_t i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
		free(pmu->aliases[i].unit);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->error);
	free(pmu->name);
	memset(pmu, 0, sizeof(*pmu));
}

/* One PMU directory; its own errors go into pmu->error, only -ENOMEM up. */
static int pmudb__load_pmu(struct pmu *pmu, const char *root, char *name)
{
	char dir[PATH_MAX], why[256] = "", *text, file[PATH_MAX];
	unsigned long long type;
	int err;

	pmu->name = name;
	err = pmudb__join(dir, root, name);
	if (err)
		goto fail;
	err = pmudb__read(dir, "type", &text);
	if (err) {
		snprintf(why, sizeof(why), "type: %s", infile__strerror(err));
		goto fail;
	}
	err = number__parse_ull(text, 0, UINT32_MAX, &type);
	if (err)
		snprintf(why, sizeof(why), "type: '%s' is not a number up to %u", text,
			 UINT32_MAX);
	free(text);
	if (err)
		goto fail;
	pmu->type = (__u32)type;
	pmu->core = !strcmp(name, "cpu") ||
		    (!pmudb__join(file, dir, "cpus") && access(file, F_OK) == 0);
	err = pmudb__load_formats(pmu, dir, why, sizeof(why));
	if (!err)
		err = pmudb__load_aliases(pmu, dir, why, sizeof(why));
	if (!err)
		return 0;
fail:
	if (err == -ENOMEM)
		return err;
	if (!*why)
		snprintf(why, sizeof(why), "%s", infile__strerror(err));
	name = pmu->name;
	pmu->name = NULL;
	pmudb__free_pmu(pmu);
	pmu->name = name;
	pmu->error = strdup(why);
	return pmu->error ? 0 : -ENOMEM;
}

int pmudb__load(struct pmu_db *db, const char *root, char *why, size_t size)
{
	char **names;
	size_t nr;
	int err;

	memset(db, 0, sizeof(*db));
	err = pmudb__list(root, &names, &nr);
	if (err == -ENOENT)
		return 0;
	if (err) {
		snprintf(why, size, "cannot read %s: %s", root, strerror(-err));
		return err;
	}
	db->pmus = calloc(nr ? nr : 1, sizeof(*db->pmus));
	if (!db->pmus) {
		pmudb__free_names(names, nr);
		snprintf(why, size, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++) {
		err = pmudb__load_pmu(&db->pmus[db->nr++], root, names[i]);
		names[i] = NULL;
		if (err) {
			for (i++; i < nr; i++)
				free(names[i]);
			break;
		}
	}
	free(names);
	if (err) {
		pmudb__free(db);
		snprintf(why, size, "out of memory");
		return err;
	}
	qsort(db->pmus, db->nr, sizeof(*db->pmus), pmudb__cmp_pmu);
	return 0;
}

void pmudb__free(struct pmu_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->nr; i++)
		pmudb__free_pmu(&db->pmus[i]);
	free(db->pmus);
	memset(db, 0, sizeof(*db));
}

const struct pmu *pmudb__find(const struct pmu_db *db, const char *name)
{
	struct pmu key = { .name = (char *)name };

	if (!db || !db->nr)
		return NULL;
	return bsearch(&key, db->pmus, db->nr, sizeof(*db->pmus), pmudb__cmp_pmu);
}

const struct pmu *pmudb__core(const struct pmu_db *db, unsigned int i)
{
	for (size_t j = 0; db && j < db->nr; j++)
		if (db->pmus[j].core && !db->pmus[j].error && i-- == 0)
			return &db->pmus[j];
	return NULL;
}

const struct pmu_format *pmudb__format(const struct pmu *pmu, const char *name)
{
	struct pmu_format key = { .name = (char *)name };

	if (!pmu->nr_formats)
		return NULL;
	return bsearch(&key, pmu->formats, pmu->nr_formats, sizeof(key), pmudb__cmp_format);
}

const struct pmu_alias *pmudb__alias(const struct pmu *pmu, const char *name)
{
	struct pmu_alias key = { .name = (char *)name };

	if (!pmu->nr_aliases)
		return NULL;
	return bsearch(&key, pmu->aliases, pmu->nr_aliases, sizeof(key), pmudb__cmp_alias);
}

int pmudb__place(const struct pmu_format *f, __u64 value, __u64 fields[3])
{
	if (f->nr_bits < 64 && value >> f->nr_bits)
		return -ERANGE;
	/* a term given again (the user's after the named event's) replaces it */
	for (unsigned int i = 0; i < f->nr_bits; i++) {
		fields[f->field] &= ~(1ULL << f->bit[i]);
		if (value & (1ULL << i))
			fields[f->field] |= 1ULL << f->bit[i];
	}
	return 0;
}
