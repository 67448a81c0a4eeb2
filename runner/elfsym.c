/*
 * runner/elfsym.c: symbol addresses and bytes from ELF files through
 * libelf; see elfsym.h.
 *
 * The file is mapped read-only and parsed with elf_memory(), so symbol
 * bytes are plain pointers into the mapping; every offset taken from the
 * file is checked against the file's size before use (an artifact is
 * output of a build plumb does not control).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "runner/elfsym.h"
#include "common/banned.h"

struct sym_range {
	uint64_t addr, size;
	const char *name;   /* into the string table */
};

struct elf_image {
	char *path;
	unsigned char *map;
	size_t size;
	Elf *elf;
	int machine;
	int type;              /* e_type */
	struct sym_range *ranges;  /* defined functions and objects, by address */
	size_t nranges;
};

int elf_is_elf(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n == 4 && memcmp(magic, ELFMAG, SELFMAG) == 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct sym_range *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Index the defined functions and objects of .symtab (else .dynsym) by address. */
static int load_ranges(struct elf_image *img)
{
	Elf64_Word types[2] = { SHT_SYMTAB, SHT_DYNSYM };

	for (int t = 0; t < 2 && img->nranges == 0; t++) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *data;
			size_t count;
			struct sym_range *nr;
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != types[t] || sh.sh_entsize == 0)
				continue;
			data = elf_getdata(scn, NULL);
			if (!data)
				continue;
			count = sh.sh_size / sh.sh_entsize;
			nr = realloc(img->ranges, (img->nranges + count + 1) * sizeof(*nr));
			if (!nr)
				return -1;
			img->ranges = nr;
			for (size_t i = 0; i < count; i++) {
				GElf_Sym sym;
				const char *sn;
				int ty;
				if (!gelf_getsym(data, (int)i, &sym))
					break;
				ty = GELF_ST_TYPE(sym.st_info);
				if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
				    (ty != STT_FUNC && ty != STT_OBJECT && ty != STT_GNU_IFUNC))
					continue;
				sn = elf_strptr(img->elf, sh.sh_link, sym.st_name);
				if (!sn || !*sn)
					continue;
				img->ranges[img->nranges].addr = sym.st_value;
				img->ranges[img->nranges].size = sym.st_size;
				img->ranges[img->nranges].name = sn;
				img->nranges++;
			}
		}
	}
	if (img->nranges)
		qsort(img->ranges, img->nranges, sizeof(*img->ranges), range_cmp);
	return 0;
}

void elf_image_free(struct elf_image *img)
{
	if (!img)
		return;
	if (img->elf)
		elf_end(img->elf);
	if (img->map)
		munmap(img->map, img->size);
	free(img->ranges);
	free(img->path);
	free(img);
}

int elf_image_open(const char *path, struct elf_image **out, struct plumb_err *err)
{
	struct elf_image *img;
	struct stat st;
	GElf_Ehdr eh;
	int fd;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "open");
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf32_Ehdr)) {
		close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not an ELF file", path);
	}
	img = calloc(1, sizeof(*img));
	if (!img) {
		close(fd);
		return plumb_err_oom(err, path);
	}
	img->size = (size_t)st.st_size;
	/* Private and writable: libelf may convert data in place; the file is never written. */
	img->map = mmap(NULL, img->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img->map == MAP_FAILED) {
		img->map = NULL;
		elf_image_free(img);
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "map");
	}
	img->path = strdup(path);
	img->elf = elf_memory((char *)img->map, img->size);
	if (!img->path || !img->elf || elf_kind(img->elf) != ELF_K_ELF ||
	    !gelf_getehdr(img->elf, &eh)) {
		elf_image_free(img);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not an ELF file", path);
	}
	img->machine = eh.e_machine;
	img->type = eh.e_type;
	if (load_ranges(img) < 0) {
		elf_image_free(img);
		return plumb_err_oom(err, path);
	}
	*out = img;
	return 0;
}

int elf_image_pie(const struct elf_image *img)
{
	return img->type == ET_DYN;
}

const char *elf_image_symbol_at(const struct elf_image *img, uint64_t addr,
				uint64_t *offset)
{
	size_t lo = 0, hi = img->nranges;

	/* The last range starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->ranges[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Symbols may nest (a function and its local labels): look a few back. */
	for (size_t k = lo; k > 0 && lo - k < 64; k--) {
		const struct sym_range *r = &img->ranges[k - 1];
		if (addr - r->addr < (r->size ? r->size : 1)) {
			if (offset)
				*offset = addr - r->addr;
			return r->name;
		}
	}
	return NULL;
}

int elf_image_machine(const struct elf_image *img)
{
	return img->machine;
}

const char *elf_image_path(const struct elf_image *img)
{
	return img->path;
}

/* Bytes of [addr, addr+size) from section index shndx, when in the file. */
static void symbol_bytes(const struct elf_image *img, size_t shndx,
			 struct elf_symbol *s)
{
	Elf_Scn *scn = elf_getscn(img->elf, shndx);
	GElf_Shdr sh;
	uint64_t off;

	s->bytes = NULL;
	s->nbytes = 0;
	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
		return;
	if (s->addr < sh.sh_addr || s->addr - sh.sh_addr > sh.sh_size)
		return;
	off = sh.sh_offset + (s->addr - sh.sh_addr);
	if (off > img->size || sh.sh_offset > img->size)
		return;
	s->bytes = img->map + off;
	s->nbytes = (size_t)s->size;
	/* Clamp to the section and to the file. */
	if (s->addr - sh.sh_addr + s->nbytes > sh.sh_size)
		s->nbytes = (size_t)(sh.sh_size - (s->addr - sh.sh_addr));
	if (off + s->nbytes > img->size)
		s->nbytes = (size_t)(img->size - off);
}

static int lookup_in(const struct elf_image *img, Elf64_Word type, const char *name,
		     struct elf_symbol *out, struct plumb_err *err, int *found)
{
	Elf_Scn *scn = NULL;
	int n = 0, nglobal = 0;
	struct elf_symbol best, global;
	size_t best_shndx = 0, global_shndx = 0;

	memset(&best, 0, sizeof(best));
	memset(&global, 0, sizeof(global));
	while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t count;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != type || sh.sh_entsize == 0)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *sn;
			int t;
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			t = GELF_ST_TYPE(sym.st_info);
			if (t != STT_FUNC && t != STT_NOTYPE && t != STT_GNU_IFUNC)
				continue;
			sn = elf_strptr(img->elf, sh.sh_link, sym.st_name);
			if (!sn || strcmp(sn, name) != 0)
				continue;
			if (n > 0 && sym.st_value == best.addr)
				continue;   /* the same definition seen again */
			if (n == 0) {
				best.addr = sym.st_value;
				best.size = sym.st_size;
				best_shndx = sym.st_shndx;
			}
			n++;
			if (GELF_ST_BIND(sym.st_info) != STB_LOCAL) {
				if (nglobal == 0 || sym.st_value != global.addr) {
					nglobal++;
					global.addr = sym.st_value;
					global.size = sym.st_size;
					global_shndx = sym.st_shndx;
				}
			}
		}
	}
	*found = 0;
	if (n == 0)
		return 0;
	if (n > 1) {
		if (nglobal != 1)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: symbol '%s' is defined %d times; name one that is unique",
					     img->path, name, n);
		best = global;
		best_shndx = global_shndx;
	}
	*out = best;
	symbol_bytes(img, best_shndx, out);
	*found = 1;
	return 0;
}

int elf_image_symbol(const struct elf_image *img, const char *name,
		     struct elf_symbol *out, struct plumb_err *err)
{
	int found = 0, r;

	memset(out, 0, sizeof(*out));
	r = lookup_in(img, SHT_SYMTAB, name, out, err, &found);
	if (r < 0)
		return r;
	if (!found) {
		r = lookup_in(img, SHT_DYNSYM, name, out, err, &found);
		if (r < 0)
			return r;
	}
	return found;
}

/* The PT_LOAD segment holding x: a file offset (by_offset) or an address. */
static int load_segment(const struct elf_image *img, uint64_t x, int by_offset, GElf_Phdr *ph)
{
	size_t n = 0;

	if (elf_getphdrnum(img->elf, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t lo, len;
		if (!gelf_getphdr(img->elf, (int)i, ph) || ph->p_type != PT_LOAD)
			continue;
		lo = by_offset ? ph->p_offset : ph->p_vaddr;
		len = by_offset ? ph->p_filesz : ph->p_memsz;
		if (x >= lo && x - lo < len)
			return 1;
	}
	return 0;
}

int elf_image_offset_vaddr(const struct elf_image *img, uint64_t off, uint64_t *vaddr)
{
	GElf_Phdr ph;

	if (!load_segment(img, off, 1, &ph))
		return 0;
	*vaddr = off - ph.p_offset + ph.p_vaddr;
	return 1;
}

size_t elf_image_nsymbols(const struct elf_image *img)
{
	return img->nranges;
}

const char *elf_image_symbol_name(const struct elf_image *img, size_t i)
{
	return i < img->nranges ? img->ranges[i].name : NULL;
}

int elf_image_mapped(const struct elf_image *img, uint64_t addr)
{
	GElf_Phdr ph;

	return load_segment(img, addr, 0, &ph);
}

/* Section contents as a span of the file (empty for NOBITS or out of range). */
static void section_span(const struct elf_image *img, const GElf_Shdr *sh,
			 const unsigned char **p, size_t *len)
{
	*p = NULL;
	*len = 0;
	if (sh->sh_type == SHT_NOBITS || sh->sh_offset > img->size ||
	    sh->sh_size > img->size - sh->sh_offset)
		return;
	*p = img->map + sh->sh_offset;
	*len = (size_t)sh->sh_size;
}

static const char *section_name(const struct elf_image *img, Elf_Scn *scn,
				GElf_Shdr *sh)
{
	size_t shstrndx;

	if (!gelf_getshdr(scn, sh) || elf_getshdrstrndx(img->elf, &shstrndx) < 0)
		return NULL;
	return elf_strptr(img->elf, shstrndx, sh->sh_name);
}

static Elf_Scn *find_section(const struct elf_image *img, const char *name,
			     GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(img->elf, scn)) != NULL) {
		const char *n = section_name(img, scn, sh);
		if (n && strcmp(n, name) == 0)
			return scn;
	}
	return NULL;
}

int elf_image_diff_sections(const struct elf_image *a, const struct elf_image *b,
			    struct buf *out)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr ea, eb;
	int count = 0;

	if (gelf_getehdr(a->elf, &ea) && gelf_getehdr(b->elf, &eb) &&
	    (memcmp(&ea, &eb, sizeof(ea)) != 0)) {
		buf_addstr(out, "(headers)");
		count++;
	}
	while ((scn = elf_nextscn(a->elf, scn)) != NULL) {
		GElf_Shdr sa, sb;
		const char *name = section_name(a, scn, &sa);
		const unsigned char *pa, *pb;
		size_t la, lb;
		if (!name || !*name)
			continue;
		if (!find_section(b, name, &sb)) {
			buf_printf(out, "%s%s", count ? " " : "", name);
			count++;
			continue;
		}
		section_span(a, &sa, &pa, &la);
		section_span(b, &sb, &pb, &lb);
		if (sa.sh_size != sb.sh_size || la != lb || (la && memcmp(pa, pb, la) != 0) ||
		    sa.sh_addr != sb.sh_addr) {
			buf_printf(out, "%s%s", count ? " " : "", name);
			count++;
		}
	}
	scn = NULL;
	while ((scn = elf_nextscn(b->elf, scn)) != NULL) {
		GElf_Shdr sb, sa;
		const char *name = section_name(b, scn, &sb);
		if (name && *name && !find_section(a, name, &sa)) {
			buf_printf(out, "%s%s", count ? " " : "", name);
			count++;
		}
	}
	return count;
}
