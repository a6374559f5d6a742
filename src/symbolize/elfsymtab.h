/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One binary's function symbols and load segments, read once with libelf
 * into a sorted array (libdw's dwfl_module_addrinfo scans the whole table
 * on every call; this is a binary search).
 */
#ifndef BPFPROF_ELFSYMTAB_H
#define BPFPROF_ELFSYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_symtab;

/*
 * Read STT_FUNC and STT_GNU_IFUNC symbols with a nonzero value and a
 * defined section from .symtab and .dynsym, the PLT stubs as NAME@plt and
 * the PLT header as .plt (elfplt.h), and the PT_LOAD segments, of the ELF
 * file open at @fd (not closed, not moved: pread/mmap only).
 * Returns NULL and sets errno (ENOEXEC: not an ELF file; ENOMEM).
 */
struct elf_symtab *elf_symtab__load_fd(int fd);
/* The same from an ELF image in memory (the vDSO); @image must outlive it. */
struct elf_symtab *elf_symtab__load_mem(const void *image, size_t size);
void elf_symtab__free(struct elf_symtab *tab);

/*
 * File offset -> ELF virtual address through the PT_LOAD whose
 * [p_offset, p_offset + p_filesz) holds @off: v = off - p_offset + p_vaddr.
 * Returns 0 or -ENOENT.
 */
int elf_symtab__off_to_vaddr(const struct elf_symtab *tab, uint64_t off, uint64_t *vaddr);

/*
 * ELF virtual address -> file offset through the PT_LOAD whose
 * [p_vaddr, p_vaddr + p_filesz) holds @vaddr: off = vaddr - p_vaddr + p_offset
 * (the inverse of elf_symtab__off_to_vaddr). Returns 0 or -ENOENT.
 */
int elf_symtab__vaddr_to_off(const struct elf_symtab *tab, uint64_t vaddr, uint64_t *off);

/* A function found by name. */
struct elf_func {
	uint64_t start, end; /* ELF virtual addresses [start, end) */
	bool ifunc;          /* STT_GNU_IFUNC: start is the resolver, not the code it picks */
	size_t nr;           /* functions of that name at distinct addresses (>= 1) */
	uint64_t other;      /* nr > 1: the address of another one */
};

/*
 * The function named @name (exactly; any binding) in the .symtab and
 * .dynsym of the ELF file at @fd, read now (no table is kept: aliases are
 * found too). Of several at distinct addresses, the lowest. Its end is its
 * largest st_size among the names at its address, else the next symbol or
 * its section's end. 0, -ENOENT (no such function), -ENOEXEC, -EIO, -ENOMEM.
 */
int elf_symtab__find_fd(int fd, const char *name, struct elf_func *out);
/* The same in an ELF image in memory. */
int elf_symtab__find_mem(const void *image, size_t size, const char *name,
			 struct elf_func *out);

/* A symbol of any type found by name (bpfprof watch: data symbols). */
struct elf_object {
	uint64_t addr, size; /* ELF virtual address; st_size */
	bool data;           /* STT_OBJECT or STT_COMMON (else a function, TLS, ...) */
	bool tls;            /* STT_TLS: addr is an offset in each thread's block */
};

/*
 * The defined symbol named @name (exactly; .symtab first, then .dynsym) of
 * the ELF file at @fd. 0, -ENOENT (no such symbol), -ENOEXEC, -EIO, -ENOMEM.
 */
int elf_symtab__find_object_fd(int fd, const char *name, struct elf_object *out);

/*
 * The function holding @vaddr, or NULL. A symbol covers
 * [st_value, st_value + st_size); one with st_size 0 covers up to the next
 * symbol. Where several symbols share an address, one name is chosen
 * deterministically (global before weak before local, then the shortest,
 * then alphabetical). *@sym_off (if not NULL) gets vaddr - st_value.
 */
const char *elf_symtab__lookup(const struct elf_symtab *tab, uint64_t vaddr,
			       uint64_t *sym_off);

/* The same, with the function's bounds in *@out (ifunc false, nr 1). */
const char *elf_symtab__lookup_func(const struct elf_symtab *tab, uint64_t vaddr,
				    struct elf_func *out);

size_t elf_symtab__count(const struct elf_symtab *tab);
/* The raw name of function @i < elf_symtab__count (one per address: the lookup's choice). */
const char *elf_symtab__name(const struct elf_symtab *tab, size_t i);
/* The file has a .symtab (it is not stripped). */
bool elf_symtab__has_symtab(const struct elf_symtab *tab);
/* The file carries DWARF (a .debug_info section with contents). */
bool elf_symtab__has_dwarf(const struct elf_symtab *tab);

#endif /* BPFPROF_ELFSYMTAB_H */
