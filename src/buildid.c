/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* GNU build-id of an ELF file, from its notes. */
#include <errno.h>
#include <gelf.h>
#include <pthread.h>
#include <string.h>

#include "buildid.h"

static pthread_once_t buildid__once = PTHREAD_ONCE_INIT;

static void buildid__init_libelf(void)
{
	elf_version(EV_CURRENT);
}

/*
 * Search the notes in @data for NT_GNU_BUILD_ID owned by "GNU"; copy at most
 * @size bytes of it (a longer id is truncated, as perf does).
 */
static int notes__find(Elf_Data *data, uint8_t *id, size_t size)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *base = data->d_buf;

		off = next;
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != sizeof("GNU") ||
		    memcmp(base + name_off, "GNU", sizeof("GNU")) || !nh.n_descsz)
			continue;
		if (size > nh.n_descsz)
			size = nh.n_descsz;
		memcpy(id, base + desc_off, size);
		return (int)size;
	}
	return -ENOENT;
}

static int notes__from_segments(Elf *elf, uint8_t *id, size_t size)
{
	size_t i, phnum;

	if (elf_getphdrnum(elf, &phnum))
		return -ENOENT;
	for (i = 0; i < phnum; i++) {
		Elf_Type type;
		Elf_Data *data;
		GElf_Phdr ph;
		int ret;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE || !ph.p_filesz)
			continue;
		type = ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR;
		data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, type);
		if (!data)
			continue;
		ret = notes__find(data, id, size);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

static int notes__from_sections(Elf *elf, uint8_t *id, size_t size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Shdr sh;
		int ret;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		ret = notes__find(data, id, size);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

int buildid__read_fd(int fd, uint8_t *id, size_t size)
{
	Elf *elf;
	int ret;

	if (fd < 0)
		return -EBADF;
	if (!id || !size)
		return -EINVAL;
	pthread_once(&buildid__once, buildid__init_libelf);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
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
		Elf32_Nhdr nh;

		memcpy(&nh, p + off, sizeof(nh));
		name_off = off + sizeof(nh);
		if (nh.n_namesz > len - name_off)
			return -EINVAL;
		desc_off = name_off + note__pad(nh.n_namesz);
		if (desc_off > len || nh.n_descsz > len - desc_off)
			return -EINVAL;
		off = desc_off + note__pad(nh.n_descsz);
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != sizeof("GNU") ||
		    memcmp(p + name_off, "GNU", sizeof("GNU")) || !nh.n_descsz)
			continue;
		if (size > nh.n_descsz)
			size = nh.n_descsz;
		memcpy(id, p + desc_off, size);
		return (int)size;
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
