/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The PMUs the kernel describes under a sysfs-like root
 * (/sys/bus/event_source/devices; a fixture directory in the tests): for
 * each PMU its type, its format terms (where a term's value goes in
 * config/config1/config2, split bit ranges included) and its named events
 * (their terms, .scale, .unit). Read once, bounded: small regular files
 * only (lib/infile.c), a bounded number of entries. A PMU whose files do
 * not parse is kept with its error, given to whoever names it.
 * At most 4 KiB a file and 65536 entries a directory (pmudb.c). A core
 * PMU is "cpu" or one with a cpus file.
 */
#ifndef BPFPROF_PMUDB_H
#define BPFPROF_PMUDB_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* The attr fields a format term may write. */
enum pmu_field { PMU_CONFIG, PMU_CONFIG1, PMU_CONFIG2 };

/* One format term ("umask" = config:8-15): its value's bits, lowest first. */
struct pmu_format {
	char *name;
	enum pmu_field field;
	unsigned char bit[64]; /* the value's bit i goes to bit[i] of field */
	unsigned int nr_bits;
};

/* One named event: its terms as the events file gives them. */
struct pmu_alias {
	char *name;
	char *terms; /* "event=0x3c,umask=0x01"; "chip=?" asks the user */
	double scale; /* .scale, 1 when there is none */
	char *unit;   /* .unit, NULL when there is none */
};

struct pmu {
	char *name;
	__u32 type;
	bool core; /* "cpu", or a core PMU of a hybrid machine (has a cpus file) */
	char *error; /* its files did not parse: why; nothing else is filled */
	struct pmu_format *formats;
	size_t nr_formats;
	struct pmu_alias *aliases; /* sorted by name */
	size_t nr_aliases;
};

struct pmu_db {
	struct pmu *pmus; /* sorted by name */
	size_t nr;
};

/*
 * Read every PMU under @root into @db. 0, or -errno with why in @why when
 * @root itself cannot be read (a missing root is an empty database: 0).
 */
int pmudb__load(struct pmu_db *db, const char *root, char *why, size_t size);
void pmudb__free(struct pmu_db *db);

/* The PMU named @name (exactly), or NULL. */
const struct pmu *pmudb__find(const struct pmu_db *db, const char *name);
/* The core PMUs in name order: the @i-th, or NULL past the last. */
const struct pmu *pmudb__core(const struct pmu_db *db, unsigned int i);

/* @pmu's format term @name, or NULL. */
const struct pmu_format *pmudb__format(const struct pmu *pmu, const char *name);
/* @pmu's named event @name (case-insensitive, as perf), or NULL. */
const struct pmu_alias *pmudb__alias(const struct pmu *pmu, const char *name);

/*
 * Put @value into @fields[format->field] (config, config1, config2) at the
 * format's bits, replacing what was there. -ERANGE when @value has a bit set
 * above the format's width.
 */
int pmudb__place(const struct pmu_format *f, __u64 value, __u64 fields[3]);

#endif /* BPFPROF_PMUDB_H */
