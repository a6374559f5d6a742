/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Parsed DWARF (srcinfo.c) shared by the binaries whose DWARF comes from
 * one file. Binaries are one per file and mount namespace (proctable.c), so the
 * libc of a service in a private mount namespace is a binary of its own;
 * its DWARF is the same debug file, and indexing it again costs as much
 * again (13.6 MB of heap for Debian 12's libc).
 *
 * A file is known by what was opened: the (st_dev, st_ino) of the
 * descriptor, its size and its mtime; never by path or build-id, so a
 * container's own debug file (another inode) is never used for the host's
 * process, nor the host's for the container's. Each entry keeps its own
 * descriptor of the file, so the inode cannot be reused while the entry
 * lives. Entries are counted: the last srccache__put frees one.
 */
#ifndef BPFPROF_SRCCACHE_H
#define BPFPROF_SRCCACHE_H

#include <stddef.h>

#include "srcinfo.h"

struct srccache;

/* NULL on ENOMEM. */
struct srccache *srccache__new(void);
/* Frees every entry, referenced or not: free the users first. */
void srccache__free(struct srccache *c);

/*
 * The DWARF of the ELF file open at @fd: the one indexed already from the
 * same file (one more reference), else srcinfo__open on a descriptor of the
 * cache's own. With @c NULL, srcinfo__open(@fd) itself (@fd must then stay
 * open for the life of the result). NULL and errno as srcinfo__open
 * (ENOENT: no DWARF; ENOMEM), or fstat's or dup's; failures are not kept.
 */
struct srcinfo *srccache__get(struct srccache *c, int fd);
/* Drop a reference srccache__get gave (@c NULL: srcinfo__free). @si NULL: nothing. */
void srccache__put(struct srccache *c, struct srcinfo *si);

/*
 * Files indexed (srcinfo__open that succeeded) and the times one of them
 * was handed out again instead (to another binary, or to a binary read
 * anew), since srccache__new.
 */
void srccache__stats(const struct srccache *c, size_t *indexed, size_t *reused);

#endif /* BPFPROF_SRCCACHE_H */
