// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdlib.h>

#include "cfifdes.h"
#include "elfopen.h"
#include "fdefuncs.h"
#include "search.h"

struct fdefuncs_range {
	uint64_t start, end;
};

struct fdefuncs {
	struct fdefuncs_range *v; /* sorted by start */
	size_t nr;
};

int fdefuncs__load_fd(int fd, struct fdefuncs **out)
{
	struct cfi_fdes l = { 0 };
	struct fdefuncs *f = NULL;
	Dwarf_CFI *eh = NULL;
	Elf *elf = elf_open__fd(fd);
	int err = -ENOENT;

	if (elf)
		eh = dwarf_getcfi_elf(elf);
	/* .eh_frame only: the FDEs the program itself has, stripped or not */
	if (eh)
		err = cfi_fdes__list(&l, elf, eh, NULL, NULL);
	if (!err && !l.nr)
		err = -ENOENT;
	if (!err) {
		f = calloc(1, sizeof(*f));
		if (f)
			f->v = malloc(l.nr * sizeof(*f->v));
		if (!f || !f->v)
			err = -ENOMEM;
	}
	for (size_t i = 0; !err && i < l.nr; i++)
		f->v[f->nr++] = (struct fdefuncs_range){ l.v[i].start, l.v[i].end };
	cfi_fdes__release(&l);
	if (eh)
		dwarf_cfi_end(eh);
	if (elf)
		elf_end(elf);
	if (err) {
		fdefuncs__free(f);
		f = NULL;
	}
	*out = f;
	return err;
}

void fdefuncs__free(struct fdefuncs *f)
{
	if (!f)
		return;
	free(f->v);
	free(f);
}

static uint64_t fdefuncs__range_start(const void *r)
{
	return ((const struct fdefuncs_range *)r)->start;
}

int fdefuncs__start(const struct fdefuncs *f, uint64_t vaddr, uint64_t *start)
{
	size_t i = search__last_le(f->v, f->nr, sizeof(*f->v), vaddr, fdefuncs__range_start);

	if (i >= f->nr || vaddr >= f->v[i].end)
		return -ENOENT;
	*start = f->v[i].start;
	return 0;
}
