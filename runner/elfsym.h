/*
 * runner/elfsym.h: reading built artifacts with libelf: where a symbol
 * sits, its bytes, which addresses are mapped, and which sections differ
 * between two files.
 *
 * Symbols are looked up in .symtab, else in .dynsym, by their exact name
 * as the symbol table spells it (mangled for C++).  A name defined more
 * than once at different addresses (two static functions of the same name)
 * is ambiguous unless exactly one definition is global.
 *
 * Ownership: struct elf_image is a heap object from elf_image_open(),
 * freed with elf_image_free(); byte pointers handed out point into its
 * mapping and live as long as it.
 */
#ifndef PLUMB_RUNNER_ELFSYM_H
#define PLUMB_RUNNER_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct buf;
struct plumb_err;
struct elf_image;

struct elf_symbol {
	uint64_t addr;
	uint64_t size;
	const unsigned char *bytes;  /* the symbol's bytes in the file, NULL if none */
	size_t nbytes;
};

/* Map and parse path; a file that is not ELF is PLUMB_EINPUT. */
int elf_image_open(const char *path, struct elf_image **out, struct plumb_err *err);
void elf_image_free(struct elf_image *img);

/* Nonzero when path starts with the ELF magic (cheap; for folders of files). */
int elf_is_elf(const char *path);

/* e_machine (EM_X86_64, EM_AARCH64, ...) and the file's path. */
int elf_image_machine(const struct elf_image *img);
const char *elf_image_path(const struct elf_image *img);

/* 1 and *out filled when defined, 0 when not defined, PLUMB_EINPUT when ambiguous. */
int elf_image_symbol(const struct elf_image *img, const char *name,
		     struct elf_symbol *out, struct plumb_err *err);

/* Nonzero for a position-independent file (ET_DYN), zero for ET_EXEC. */
int elf_image_pie(const struct elf_image *img);

/*
 * The function or object symbol whose range holds addr: its name (valid as
 * long as img) and addr's offset into it; NULL when none does.
 */
const char *elf_image_symbol_at(const struct elf_image *img, uint64_t addr,
				uint64_t *offset);

/*
 * The virtual address (as the symbol table counts) of file offset off,
 * through the PT_LOAD segment holding it: 1 and *vaddr, or 0 when no
 * loadable segment maps that offset.
 */
int elf_image_offset_vaddr(const struct elf_image *img, uint64_t off, uint64_t *vaddr);

/* The defined function and object symbols, by address: count and names. */
size_t elf_image_nsymbols(const struct elf_image *img);
const char *elf_image_symbol_name(const struct elf_image *img, size_t i);

/* Nonzero when addr lies inside a loadable segment. */
int elf_image_mapped(const struct elf_image *img, uint64_t addr);

/*
 * Append to out the names of the sections whose bytes or size differ
 * between a and b (and those present in only one), separated by blanks;
 * returns how many.  "(headers)" stands for differing ELF/program headers.
 */
int elf_image_diff_sections(const struct elf_image *a, const struct elf_image *b,
			    struct buf *out);

#endif
