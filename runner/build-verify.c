/*
 * runner/build-verify.c: what the built artifacts say, read back once
 * every variant is built: their digests, the addresses of the checked
 * symbols, whether every pad moved the code (the shift check, seed 000),
 * whether the control is base pad 0 byte for byte (reproducibility), and
 * the hot code of base and candidate compared.  Separate from building
 * (build.c): these read files and never run a child.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/suggest.h"
#include "formats/config.h"
#include "formats/digest.h"
#include "runner/build-internal.h"
#include "runner/build-variant.h"
#include "runner/pad.h"
#include "runner/elfsym.h"
#include "sys/proc.h"
#include "common/banned.h"

/* ---- artifact digests ----------------------------------------------------- */

static int hash_file(struct digest *st, const char *path, uint64_t *size,
		     struct plumb_err *err)
{
	unsigned char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "open");
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return plumb_err_errno(err, PLUMB_EIO, e, path, "read");
		}
		if (n == 0)
			break;
		if (digest_update(st, chunk, (size_t)n, err) < 0) {
			close(fd);
			return -1;
		}
		*size += (uint64_t)n;
	}
	close(fd);
	return 0;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
}

/* Fold a folder into st: each entry's relative path, kind, mode and content, sorted. */
static int hash_tree(struct digest *st, struct buf *path, size_t root_len,
		     uint64_t *size, struct plumb_err *err)
{
	struct dirent **list = NULL;
	int n = scandir(path->data, &list, skip_dots, name_cmp);
	int r = 0;

	if (n < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "read folder");
	for (int i = 0; i < n; i++) {
		size_t len = path->len;
		struct stat s;
		char head[64];
		if (r == 0 && buf_printf(path, "/%s", list[i]->d_name) < 0)
			r = buf_err(err, path->data);
		if (r == 0 && lstat(path->data, &s) < 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "stat");
		if (r == 0) {
			const char *rel = path->data + root_len + 1;
			snprintf(head, sizeof(head), "%c %o ", S_ISDIR(s.st_mode) ? 'D' :
				 S_ISLNK(s.st_mode) ? 'L' : S_ISREG(s.st_mode) ? 'F' : '?',
				 (unsigned)(s.st_mode & 07777));
			if (digest_update(st, head, strlen(head), err) < 0 ||
			    digest_update(st, rel, strlen(rel) + 1, err) < 0)
				r = -1;
			else if (S_ISREG(s.st_mode)) {
				r = hash_file(st, path->data, size, err);
			} else if (S_ISDIR(s.st_mode)) {
				r = hash_tree(st, path, root_len, size, err);
			} else if (S_ISLNK(s.st_mode)) {
				char target[PATH_MAX];
				ssize_t t = readlink(path->data, target, sizeof(target));
				if (t > 0 && digest_update(st, target, (size_t)t, err) < 0)
					r = -1;
			}
		}
		path->len = len;
		path->data[len] = '\0';
		free(list[i]);
	}
	free(list);
	return r;
}

/* SHA-256 and size of a file; for a folder, over its sorted entries. */
int build_artifact_digest(const char *path, char hex[65], uint64_t *size,
			   struct plumb_err *err)
{
	struct digest st;
	unsigned char out[DIGEST_BYTES];
	struct stat s;
	int r;

	*size = 0;
	if (lstat(path, &s) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "stat");
	if (digest_init(&st, 0, err) < 0)
		return -1;
	if (S_ISDIR(s.st_mode)) {
		struct buf p;
		buf_init(&p, 1 << 16);
		if (buf_addstr(&p, path) < 0) {
			digest_release(&st);
			return buf_err(err, path);
		}
		r = hash_tree(&st, &p, p.len, size, err);
		buf_release(&p);
	} else {
		r = hash_file(&st, path, size, err);
	}
	if (r < 0) {
		digest_release(&st);
		return r;
	}
	if (digest_final(&st, out, err) < 0)
		return -1;
	sodium_bin2hex(hex, 65, out, sizeof(out));
	return 0;
}

/* Byte-for-byte equality of two files. */
static int same_file(const char *a, const char *b, int *same, struct plumb_err *err)
{
	unsigned char ca[65536], cb[65536];
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);
	int r = 0;

	*same = 0;
	if (fa < 0 || fb < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, fa < 0 ? a : b, "open");
		goto out;
	}
	for (;;) {
		ssize_t na = read(fa, ca, sizeof(ca));
		ssize_t nb = na < 0 ? 0 : read(fb, cb, (size_t)(na > 0 ? na : 1));
		if (na < 0 || nb < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, na < 0 ? a : b, "read");
			goto out;
		}
		if (na == 0) {
			*same = nb == 0;
			goto out;
		}
		/* Regular files give full reads; anything short is a difference. */
		if (nb != na || memcmp(ca, cb, (size_t)na) != 0)
			goto out;
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return r;
}

/* ---- the checks ------------------------------------------------------------ */

/* The ELF file below artifact (itself, or the first file in sorted order
 * that defines symbol); *rel gets "" or "/sub/file".  0 found, 1 not. */
/*
 * "; did you mean 'x'?" for a symbol img does not define: a GCC clone of
 * it first (name.constprop.0, name.isra.0, name.cold, name.part.0), else
 * the nearest name (common/suggest.h); "" when nothing is near.
 */
static void symbol_hint(const struct elf_image *img, const char *name, char *out, size_t size)
{
	size_t n = img ? elf_image_nsymbols(img) : 0, len = strlen(name);
	const char **names;
	const char *near = NULL;

	out[0] = '\0';
	for (size_t i = 0; i < n && !near; i++) {
		const char *s = elf_image_symbol_name(img, i);
		if (strncmp(s, name, len) == 0 && s[len] == '.')
			near = s;
	}
	if (!near && n && (names = malloc(n * sizeof(*names))) != NULL) {
		for (size_t i = 0; i < n; i++)
			names[i] = elf_image_symbol_name(img, i);
		near = suggest_pick(name, names, n);
		snprintf(out, size, near ? "; did you mean '%.120s'?" : "%s", near ? near : "");
		free(names);
		return;
	}
	if (near)
		snprintf(out, size, "; did you mean '%.120s' (a clone GCC made of it)?", near);
}

static int find_elf(const char *artifact, const char *symbol, struct buf *rel,
		    size_t root_len, struct plumb_err *err)
{
	struct stat st;
	struct dirent **list = NULL;
	struct buf p;
	int n, r = 1;

	if (lstat(artifact, &st) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, artifact, "stat");
	if (S_ISREG(st.st_mode)) {
		struct elf_image *img = NULL;
		struct elf_symbol sym;
		struct plumb_err ignored;
		if (!elf_is_elf(artifact))
			return 1;
		if (root_len == 0)
			return 0;   /* the artifact itself */
		if (elf_image_open(artifact, &img, &ignored) < 0)
			return 1;
		r = elf_image_symbol(img, symbol, &sym, &ignored) == 1 ? 0 : 1;
		elf_image_free(img);
		if (r == 0 && buf_addstr(rel, artifact + root_len) < 0)
			return buf_err(err, artifact);
		return r;
	}
	if (!S_ISDIR(st.st_mode))
		return 1;
	n = scandir(artifact, &list, skip_dots, name_cmp);
	if (n < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, artifact, "read folder");
	buf_init(&p, 1 << 16);
	for (int i = 0; i < n; i++) {
		if (r == 1) {
			buf_reset(&p);
			if (buf_printf(&p, "%s/%s", artifact, list[i]->d_name) < 0)
				r = buf_err(err, artifact);
			else
				r = find_elf(p.data, symbol, rel, root_len ? root_len : strlen(artifact), err);
		}
		free(list[i]);
	}
	free(list);
	buf_release(&p);
	return r;
}

/* The configuration key that names symbol as hot ("bench.interp.hot"). */
static void hot_key(const struct plumb_config *cfg, const char *symbol, char *out, size_t size)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		for (size_t k = 0; k < cfg->benches[i].nhot; k++)
			if (strcmp(cfg->benches[i].hot[k], symbol) == 0) {
				snprintf(out, size, "bench.%s.hot", cfg->benches[i].name);
				return;
			}
	snprintf(out, size, "bench.NAME.hot");
}

int build_collect_symbols(const struct plumb_config *cfg, struct runner_result *res,
			   struct plumb_err *err)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		for (size_t k = 0; k < cfg->benches[i].nhot; k++) {
			const char *s = cfg->benches[i].hot[k];
			size_t j;
			char **nv;
			for (j = 0; j < res->nsymbols; j++)
				if (strcmp(res->symbols[j], s) == 0)
					break;
			if (j < res->nsymbols)
				continue;
			nv = realloc(res->symbols, (res->nsymbols + 1) * sizeof(*nv));
			if (!nv)
				return plumb_err_oom(err, "symbols");
			res->symbols = nv;
			res->symbols[res->nsymbols] = strdup(s);
			if (!res->symbols[res->nsymbols])
				return plumb_err_oom(err, "symbols");
			res->nsymbols++;
			res->symbols_hot = 1;
		}
	if (res->nsymbols == 0) {
		res->symbols = calloc(1, sizeof(*res->symbols));
		if (!res->symbols || !(res->symbols[0] = strdup("main")))
			return plumb_err_oom(err, "symbols");
		res->nsymbols = 1;
	}
	return 0;
}

/* Read the symbol addresses of b0 (only) or of every variant not read yet. */
static int read_addresses(const struct plumb_config *cfg, struct runner_result *res,
			  struct runner_variant *b0, int only, int *machine, struct plumb_err *err)
{
	struct buf rel;
	int r;

	buf_init(&rel, 1 << 16);
	r = find_elf(b0->artifact, res->symbols[0], &rel, 0, err);
	if (r < 0)
		goto out;
	if (r == 1) {
		int is_elf = elf_is_elf(b0->artifact);
		r = 0;
		if (cfg->build.pad == CONFIG_PAD_NONE && !res->symbols_hot) {
			snprintf(res->shift_note, sizeof(res->shift_note),
				 "build.pad = none, and %s is not an ELF file defining main",
				 cfg->build.artifact);
			goto out;
		}
		if (res->symbols_hot) {
			char key[128];
			hot_key(cfg, res->symbols[0], key, sizeof(key));
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "%s: '%s' is not a function in %s (base pad 0): not defined, inlined, or stripped",
					  key, res->symbols[0], b0->artifact);
		} else if (!is_elf) {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "build.artifact: %s is not an ELF file, so plumb cannot check that the pads move the code; use build.pad = none for it",
					  b0->artifact);
		} else {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "build.artifact: %s defines no 'main' (stripped?); name the hot code with bench.NAME.hot",
					  b0->artifact);
		}
		memcpy(res->suspect, b0->id, sizeof(res->suspect));
		goto out;
	}
	if (b0->addr) {
		/* Read already (by build_check_names()): its machine, again. */
		struct elf_image *img = NULL;
		if ((r = elf_image_open(b0->elf, &img, err)) < 0)
			goto out;
		*machine = elf_image_machine(img);
		elf_image_free(img);
	}
	for (size_t i = 0; i < res->nvariants && r == 0; i++) {
		struct runner_variant *v = only ? b0 : &res->variants[i];
		struct elf_image *img = NULL;
		char name[96];
		if (only && i > 0)
			break;
		if (!v->built || v->addr)
			continue;   /* not built yet (fail fast), or read already (the first build, pads added later) */
		build_variant_name(v, name, sizeof(name));
		v->elf = buf_strdupf("%s%s", v->artifact, buf_cstr(&rel));
		v->addr = calloc(res->nsymbols, sizeof(*v->addr));
		if (!v->elf || !v->addr) {
			r = plumb_err_oom(err, "symbols");
			break;
		}
		if ((r = elf_image_open(v->elf, &img, err)) < 0) {
			plumb_err_prefix(err, "%s", name);
			memcpy(res->suspect, v->id, sizeof(res->suspect));
			break;
		}
		if (v == b0)
			*machine = elf_image_machine(img);
		for (size_t k = 0; k < res->nsymbols && r == 0; k++) {
			struct elf_symbol sym;
			int f = elf_image_symbol(img, res->symbols[k], &sym, err);
			if (f < 0) {
				r = f;
			} else if (f == 0) {
				char key[128], hint[200];
				if (res->symbols_hot)
					hot_key(cfg, res->symbols[k], key, sizeof(key));
				else
					snprintf(key, sizeof(key), "build.artifact");
				symbol_hint(img, res->symbols[k], hint, sizeof(hint));
				r = plumb_err_set(err, PLUMB_EINPUT,
						  "%s: '%s' is not a function in %s (%s): not defined, inlined, or stripped%s",
						  key, res->symbols[k], v->elf, name, hint);
				memcpy(res->suspect, v->id, sizeof(res->suspect));
			} else {
				v->addr[k] = sym.addr;
			}
		}
		elf_image_free(img);
	}
out:
	buf_release(&rel);
	return r;
}

int build_read_addresses(const struct plumb_config *cfg, struct runner_result *res,
			 int *machine, struct plumb_err *err)
{
	return read_addresses(cfg, res, &res->variants[0], 0, machine, err);
}

int build_check_names(const struct plumb_config *cfg, struct runner_result *res,
		      struct runner_variant *first, struct plumb_err *err)
{
	int machine;

	return read_addresses(cfg, res, first, 1, &machine, err);
}

int build_check_shift(const struct plumb_config *cfg, struct runner_result *res,
		       struct plumb_err *err)
{
	int all_exact = 1;

	if (cfg->build.pad == CONFIG_PAD_NONE) {
		res->shift = RUNNER_SHIFT_NOT_CHECKED;
		snprintf(res->shift_note, sizeof(res->shift_note),
			 "build.pad = none (the variants are plain rebuilds)");
		return 0;
	}
	for (size_t i = 0; i < res->nvariants; i++) {
		struct runner_variant *v = &res->variants[i];
		struct runner_variant *p0 = build_find_variant(res, v->side, 0);
		int moved = 0, exact = 1;
		size_t bad = 0;
		if (v->control || v->pad == 0 || !v->addr || !p0->addr)
			continue;
		for (size_t k = 0; k < res->nsymbols; k++) {
			int64_t d = (int64_t)(v->addr[k] - p0->addr[k]);
			if (d != 0)
				moved = 1;
			if (d != (int64_t)v->pad_bytes && exact) {
				exact = 0;
				bad = k;
			}
		}
		if (!moved || (!exact && cfg->build.pad == CONFIG_PAD_LINK))
			memcpy(res->suspect, v->id, sizeof(res->suspect));
		if (!moved) {
			/* A relinked artifact equal to pad 0's was not linked again at all. */
			const char *stale = v->relinked && strcmp(v->sha256, p0->sha256) == 0 ?
				"; or the build did not link again: with build.reuse = relink plumb removes only build.artifact, so it must be the file the link makes" : "";
			if (cfg->build.pad == CONFIG_PAD_LINK)
				return plumb_err_set(err, PLUMB_EBUILD,
						     "pad %u did not move the code: the build ignored LDFLAGS; put {pad_ldflags} in build.command (%s %s: %s at 0x%llx, as in pad 0)%s",
						     v->pad, runner_side_name(v->side), v->id, res->symbols[0],
						     (unsigned long long)v->addr[0], stale);
			return plumb_err_set(err, PLUMB_EBUILD,
					     "pad %u did not move the code: the build ignored PLUMB_PAD; apply it in build.command or use build.pad = link (%s %s: %s at 0x%llx, as in pad 0)",
					     v->pad, runner_side_name(v->side), v->id, res->symbols[0],
					     (unsigned long long)v->addr[0]);
		}
		if (!exact && cfg->build.pad == CONFIG_PAD_LINK) {
			int64_t d = (int64_t)(v->addr[bad] - p0->addr[bad]);
			return plumb_err_set(err, PLUMB_EBUILD,
					     "pad %u moved %s by %lld bytes, not %llu (its offset, a multiple of build.padBytes): code aligned more coarsely than build.padBytes = %u rounds the pad; make build.padBytes a multiple of that alignment (%s %s)",
					     v->pad, res->symbols[bad], (long long)d,
					     (unsigned long long)v->pad_bytes,
					     cfg->build.pad_bytes, runner_side_name(v->side), v->id);
		}
		if (!exact)
			all_exact = 0;
	}
	if (all_exact) {
		res->shift = RUNNER_SHIFT_EXACT;
		if (cfg->build.pad_offsets == CONFIG_OFFSETS_SPREAD)
			snprintf(res->shift_note, sizeof(res->shift_note),
				 "every pad moved %s%s by exactly its offset (spread: distinct multiples of %u bytes within %u)",
				 res->symbols[0], res->nsymbols > 1 ? " and the other checked symbols" : "",
				 cfg->build.pad_bytes, PAD_SPREAD_WINDOW);
		else
			snprintf(res->shift_note, sizeof(res->shift_note),
				 "every pad K moved %s%s by exactly K x %u bytes",
				 res->symbols[0], res->nsymbols > 1 ? " and the other checked symbols" : "",
				 cfg->build.pad_bytes);
	} else {
		res->shift = RUNNER_SHIFT_MOVED;
		snprintf(res->shift_note, sizeof(res->shift_note),
			 "every pad moved the code, not always by K x %u bytes (build.pad = env: the build decides how far)",
			 cfg->build.pad_bytes);
	}
	return 0;
}

int build_check_control(struct runner_result *res, struct plumb_err *err)
{
	struct runner_variant *b0 = build_find_variant(res, RUNNER_BASE, 0);
	struct runner_variant *k = NULL;
	struct stat st;
	int same = 0, r;

	for (size_t i = 0; i < res->nvariants; i++)
		if (res->variants[i].control)
			k = &res->variants[i];
	if (!k)
		return 0;
	if (lstat(b0->artifact, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((r = same_file(b0->artifact, k->artifact, &same, err)) < 0)
			return r;
	} else {
		same = strcmp(b0->sha256, k->sha256) == 0;
	}
	res->reproducible = same;
	if (same) {
		snprintf(res->repro_note, sizeof(res->repro_note),
			 k->relinked ? "the control (%s), built again in a copy of base pad 0's built folder, is "
				       "byte-identical to base pad 0 (%s); build.reuse = none builds it from a clean tree"
				     : "the control (%s), built again from its sources, is "
				       "byte-identical to base pad 0 (%s)", k->id, b0->id);
		return 0;
	}
	if (b0->elf && k->elf) {
		struct elf_image *a = NULL, *b = NULL;
		struct buf names;
		buf_init(&names, 400);
		if (elf_image_open(b0->elf, &a, err) == 0 && elf_image_open(k->elf, &b, err) == 0 &&
		    elf_image_diff_sections(a, b, &names) > 0) {
			snprintf(res->repro_note, sizeof(res->repro_note),
				 "the control (%s) differs from base pad 0 (%s) in: %s", k->id, b0->id,
				 buf_cstr(&names));
		}
		buf_release(&names);
		elf_image_free(a);
		elf_image_free(b);
	}
	if (!res->repro_note[0])
		snprintf(res->repro_note, sizeof(res->repro_note),
			 "the control (%s) differs from base pad 0 (%s)", k->id, b0->id);
	return 0;
}

int runner_compare_symbol(const struct elf_image *a, const struct elf_image *b, int machine,
			  const char *name, struct hotcode_result *out, struct plumb_err *err)
{
	struct elf_symbol sa, sb;
	struct hotcode_code ca, cb;
	int f;

	if ((f = elf_image_symbol(a, name, &sa, err)) != 1 || (f = elf_image_symbol(b, name, &sb, err)) != 1)
		return f;
	ca.bytes = sa.bytes;
	ca.len = sa.bytes ? sa.nbytes : 0;
	ca.addr = sa.addr;
	ca.img = a;
	cb.bytes = sb.bytes;
	cb.len = sb.bytes ? sb.nbytes : 0;
	cb.addr = sb.addr;
	cb.img = b;
	if (elf_image_machine(b) != machine) {
		memset(out, 0, sizeof(*out));
		out->verdict = HOTCODE_CHANGED;
		out->base_size = ca.len;
		out->cand_size = cb.len;
		snprintf(out->detail, sizeof(out->detail), "built for different machines");
		return 1;
	}
	f = hotcode_compare(machine, &ca, &cb, out, err);
	return f < 0 ? f : 1;
}

int build_check_hot(struct runner_result *res, int machine, struct plumb_err *err)
{
	struct runner_variant *b0 = build_find_variant(res, RUNNER_BASE, 0);
	struct runner_variant *c0 = build_find_variant(res, RUNNER_CANDIDATE, 0);
	struct elf_image *a = NULL, *b = NULL;
	int r = 0;

	if (!res->symbols_hot || !b0->elf || !c0->elf)
		return 0;
	res->hot = calloc(res->nsymbols, sizeof(*res->hot));
	if (!res->hot)
		return plumb_err_oom(err, "hot code");
	if ((r = elf_image_open(b0->elf, &a, err)) < 0 || (r = elf_image_open(c0->elf, &b, err)) < 0)
		goto out;
	for (size_t k = 0; k < res->nsymbols && r == 0; k++) {
		struct runner_hot *h = &res->hot[res->nhot];
		h->symbol = strdup(res->symbols[k]);
		if (!h->symbol) {
			r = plumb_err_oom(err, "hot code");
			break;
		}
		res->nhot++;
		r = runner_compare_symbol(a, b, machine, res->symbols[k], &h->cmp, err);
		if (r == 0)
			r = plumb_err_set(err, PLUMB_EINTERNAL, "%s: symbol vanished", res->symbols[k]);
		else if (r == 1)
			r = 0;
	}
out:
	elf_image_free(a);
	elf_image_free(b);
	return r;
}

