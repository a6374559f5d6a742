/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* GNU build-id of an ELF file, from its notes. */
#include <errno.h>
#include <gelf.h>
#include <string.h>

#include "buildid.h"
#include "elfopen.h"
#include "elfscn.h"

/*
 * A GNU build-id note (type, name and description as read): its id into
 * @id (at most @size bytes). Returns the length, or 0 when it is another note.
 */
static int note__build_id(uint32_t type, const char *name, size_t namesz, const uint8_t *desc,
			  size_t descsz, uint8_t *id, size_t size)
{
	if (type != NT_GNU_BUILD_ID || namesz != sizeof("GNU") ||
	    memcmp(name, "GNU", sizeof("GNU")) || !descsz)
		return 0;
	if (size > descsz)
		size = descsz;
	memcpy(id, desc, size);
	return (int)size;
}

/*
 * Search the notes of one segment or section (@data; NULL when they do not
 * read) for NT_GNU_BUILD_ID owned by "GNU"; copy at most @size bytes of it (a
 * longer id is truncated, as perf does). libelf's walk keeps to the bounds of
 * @data and to the layout its type says (ELF_T_NHDR8: 8-byte aligned).
 */
static int notes__find(Elf_Data *data, uint8_t *id, size_t size)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;

		int n = note__build_id(nh.n_type, base + name_off, nh.n_namesz,
				       (const uint8_t *)base + desc_off, nh.n_descsz, id, size);

		off = next;
		if (n)
			return n;
	}
	return -ENOENT;
}

static int notes__from_segments(Elf *elf, uint8_t *id, size_t size)
{
	size_t i, phnum;
	int ret = -ENOENT;

	if (elf_getphdrnum(elf, &phnum))
		return -ENOENT;
	for (i = 0; ret == -ENOENT && i < phnum; i++) {
		Elf_Type type;
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE || !ph.p_filesz)
			continue;
		/* the layout by the alignment, as libelf types a section's notes */
		type = ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR;
		ret = notes__find(elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, type),
				  id, size);
	}
	return ret;
}

static int notes__from_sections(Elf *elf, uint8_t *id, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int ret = -ENOENT;

	/* by type, not name: a file without section names has its notes too */
	while (ret == -ENOENT && (scn = elf_scn__next_header(elf, scn, &sh))) {
		if (sh.sh_type == SHT_NOTE)
			ret = notes__find(elf_getdata(scn, NULL), id, size);
	}
	return ret;
}

int buildid__read_fd(int fd, uint8_t *id, size_t size)
{
	Elf *elf;
	int ret;

	if (fd < 0)
		return -EBADF;
	if (!id || !size)
		return -EINVAL;
	elf = elf_open__fd(fd);
	if (!elf)
		return -EIO;
	if (elf_kind(elf) != ELF_K_ELF) {
		ret = -ENOEXEC;
	} else {
		ret = notes__from_segments(elf, id, size);
		if (ret == -ENOENT)
			ret = notes__from_sections(elf, id, size);
	}
	elf_end(elf);
	return ret;
}

/* Note sizes are padded to 4 bytes in the kernel's notes. */
static size_t note__pad(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int buildid__from_notes(const void *notes, size_t len, uint8_t *id, size_t size)
{
	const uint8_t *p = notes;
	size_t off = 0;

	if (!id || !size)
		return -EINVAL;
	while (off < len && len - off >= sizeof(Elf32_Nhdr)) {
		size_t name_off, desc_off;
		int n;
		Elf32_Nhdr nh;

		memcpy(&nh, p + off, sizeof(nh));
		name_off = off + sizeof(nh);
		if (nh.n_namesz > len - name_off)
			return -EINVAL;
		desc_off = name_off + note__pad(nh.n_namesz);
		if (desc_off > len || nh.n_descsz > len - desc_off)
			return -EINVAL;
		off = desc_off + note__pad(nh.n_descsz);
		n = note__build_id(nh.n_type, (const char *)p + name_off, nh.n_namesz,
				   p + desc_off, nh.n_descsz, id, size);
		if (n)
			return n;
	}
	return -ENOENT;
}

void buildid__hex(const uint8_t *id, size_t len, char *buf)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		buf[2 * i] = digits[id[i] >> 4];
		buf[2 * i + 1] = digits[id[i] & 0xf];
	}
	buf[2 * len] = '\0';
}
