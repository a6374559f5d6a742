/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The catalog written out: as text (aligned columns: name, [kind], status,
 * description) or as JSON (an array of {name, kind, pmu, available, why,
 * description}). Every name and description from outside (sysfs, libpfm4)
 * is escaped in the text; the JSON writer escapes its strings itself.
 */
#ifndef BPFPROF_LISTPRINT_H
#define BPFPROF_LISTPRINT_H

#include <stdio.h>

#include "catalog.h"

/*
 * @cat as text on @f. @width 0 (a pipe, a file): one line per event, no
 * headings, nothing wrapped; else (a terminal @width columns wide) each
 * group under a heading, descriptions wrapped to @width. 0 or -errno.
 */
int listprint__text(FILE *f, const struct catalog *cat, unsigned int width);

/* @cat as a JSON array on @f: 0 or -errno. */
int listprint__json(FILE *f, const struct catalog *cat);

#endif /* BPFPROF_LISTPRINT_H */
