/*
 * tests/unit/test-runner.c: the pieces of runner/ below runner_build():
 * hot-code comparison (x86-64 and aarch64 byte sequences), ELF symbols,
 * tree copies and removal, the work-folder lock, pad sources, the build
 * cache's key material and its entries' manifests.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "runner/build-internal.h"
#include "runner/buildcache-internal.h"
#include "runner/elfsym.h"
#include "runner/hotcode.h"
#include "runner/failed.h"
#include "runner/lock.h"
#include "runner/pad.h"
#include "runner/envlist.h"
#include "runner/workdir.h"
#include "common/banned.h"

static enum hotcode_verdict compare(int machine, const unsigned char *a, size_t la, uint64_t aa,
				    const unsigned char *b, size_t lb, uint64_t ab,
				    struct hotcode_result *res)
{
	struct hotcode_code ca = { a, la, aa, NULL }, cb = { b, lb, ab, NULL };
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(hotcode_compare(machine, &ca, &cb, res, &err), 0);
	return res->verdict;
}

PLUMB_TEST(hotcode_x86_identical_bytes)
{
	static const unsigned char code[] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3 };
	struct hotcode_result r;

	assert_int_equal(compare(EM_X86_64, code, sizeof(code), 0x1000, code, sizeof(code), 0x2000, &r),
			 HOTCODE_IDENTICAL);
	assert_string_equal(hotcode_verdict_name(r.verdict), "identical");
}

PLUMB_TEST(hotcode_x86_displacements_are_normalized)
{
	/* call ext; lea rax,[rip+d]; jne +5 (inside); ret -- placed 0x40 apart
	 * from the same external call target and data. */
	unsigned char a[] = {
		0xe8, 0, 0, 0, 0,                   /* call 0x5000 */
		0x48, 0x8d, 0x05, 0, 0, 0, 0,       /* lea rax, [rip + X] */
		0x75, 0x01,                         /* jne +1 (to the ret) */
		0x90,                               /* nop */
		0xc3                                /* ret */
	};
	unsigned char b[sizeof(a)];
	struct hotcode_result r;
	int32_t d;

	memcpy(b, a, sizeof(a));
	d = 0x5000 - (0x1000 + 5);
	memcpy(a + 1, &d, 4);
	d = 0x5000 - (0x1040 + 5);
	memcpy(b + 1, &d, 4);
	d = 0x9000 - (0x1000 + 12);
	memcpy(a + 8, &d, 4);
	d = 0x9000 - (0x1040 + 12);
	memcpy(b + 8, &d, 4);
	assert_int_equal(compare(EM_X86_64, a, sizeof(a), 0x1000, b, sizeof(b), 0x1040, &r),
			 HOTCODE_SAME_EXCEPT_ADDRESSES);
	assert_string_equal(hotcode_verdict_name(r.verdict), "identical except addresses");
	assert_int_equal(r.normalized, 2);
	assert_int_equal(r.instructions, 5);
}

PLUMB_TEST(hotcode_x86_changed_instruction_or_internal_target)
{
	/* mov eax,1; ret  vs  mov eax,2; ret */
	static const unsigned char a[] = { 0xb8, 1, 0, 0, 0, 0xc3 };
	static const unsigned char b[] = { 0xb8, 2, 0, 0, 0, 0xc3 };
	/* jmp +1 over a nop vs jmp +0 (a different offset inside) */
	static const unsigned char ja[] = { 0xeb, 0x01, 0x90, 0xc3 };
	static const unsigned char jb[] = { 0xeb, 0x00, 0x90, 0xc3 };
	static const unsigned char longer[] = { 0xb8, 1, 0, 0, 0, 0x90, 0xc3 };
	struct hotcode_result r;

	assert_int_equal(compare(EM_X86_64, a, sizeof(a), 0x1000, b, sizeof(b), 0x1000, &r),
			 HOTCODE_CHANGED);
	assert_non_null(strstr(r.detail, "at +0x0"));
	assert_int_equal(compare(EM_X86_64, ja, sizeof(ja), 0x1000, jb, sizeof(jb), 0x1010, &r),
			 HOTCODE_CHANGED);
	assert_non_null(strstr(r.detail, "different target"));
	assert_int_equal(compare(EM_X86_64, a, sizeof(a), 0x1000, longer, sizeof(longer), 0x1000, &r),
			 HOTCODE_CHANGED);
	assert_int_equal(r.base_size, 6);
	assert_int_equal(r.cand_size, 7);
}

static void put32(unsigned char *p, uint32_t w)
{
	p[0] = (unsigned char)w;
	p[1] = (unsigned char)(w >> 8);
	p[2] = (unsigned char)(w >> 16);
	p[3] = (unsigned char)(w >> 24);
}

/* bl target; adrp x0, page; add x0, x0, #lo12; ldr x1, [x0, #8]; ret */
static void a64_code(unsigned char *out, uint64_t at, uint64_t call, uint64_t data, unsigned add)
{
	uint64_t page = data & ~0xfffull, here_page = (at + 4) & ~0xfffull;
	int64_t pages = (int64_t)(page - here_page) >> 12;
	uint32_t immlo = (uint32_t)pages & 3, immhi = ((uint32_t)pages >> 2) & 0x7ffff;

	put32(out, 0x94000000u | (((uint32_t)((int64_t)(call - at) >> 2)) & 0x3ffffff));
	put32(out + 4, 0x90000000u | (immlo << 29) | (immhi << 5) | 0);
	put32(out + 8, 0x91000000u | ((uint32_t)((data & 0xfff) + add) << 10) | (0 << 5) | 0);
	put32(out + 12, 0xf9400401u);
	put32(out + 16, 0xd65f03c0u);
}

PLUMB_TEST(hotcode_aarch64_pages_and_branches_are_normalized)
{
	unsigned char a[20], b[20];
	struct hotcode_result r;

	/* The function moved by 0x1040 and its data by 0x2010; same code. */
	a64_code(a, 0x10000, 0x20000, 0x30123, 0);
	a64_code(b, 0x11040, 0x20000, 0x32133, 0);
	assert_memory_not_equal(a, b, sizeof(a));
	assert_int_equal(compare(EM_AARCH64, a, sizeof(a), 0x10000, b, sizeof(b), 0x11040, &r),
			 HOTCODE_SAME_EXCEPT_ADDRESSES);
	assert_true(r.normalized >= 2);

	/* The same, but the candidate adds a different constant: changed. */
	put32(b + 12, 0xf9400801u);   /* ldr x1, [x0, #16] */
	assert_int_equal(compare(EM_AARCH64, a, sizeof(a), 0x10000, b, sizeof(b), 0x11040, &r),
			 HOTCODE_CHANGED);

	/* An add of a constant, no adrp before it: a different immediate is a change. */
	put32(a, 0x91000400u);   /* add x0, x0, #1 */
	memcpy(b, a, sizeof(a));
	put32(b, 0x91000800u);   /* add x0, x0, #2 */
	assert_int_equal(compare(EM_AARCH64, a, 4, 0x10000, b, 4, 0x10000, &r), HOTCODE_CHANGED);
	assert_non_null(strstr(r.detail, "different immediate"));
}

PLUMB_TEST(hotcode_other_machines_compare_bytes)
{
	static const unsigned char a[] = { 1, 2, 3, 4 };
	static const unsigned char b[] = { 1, 2, 3, 5 };
	struct hotcode_result r;

	assert_int_equal(compare(EM_RISCV, a, 4, 0, b, 4, 0, &r), HOTCODE_CHANGED);
	assert_non_null(strstr(r.detail, "x86-64 and aarch64 only"));
	assert_int_equal(compare(EM_RISCV, a, 4, 0, a, 4, 0x100, &r), HOTCODE_IDENTICAL);
}

/* A function of this program, to find in its own ELF file. */
__attribute__((noinline)) int unit_marker_function(int x);
__attribute__((noinline)) int unit_marker_function(int x)
{
	return x * 7 + 3;
}

PLUMB_TEST(elfsym_finds_a_function_and_its_bytes)
{
	struct elf_image *img = NULL;
	struct elf_symbol sym;
	struct plumb_err err;
	const char *name;
	uint64_t off = 99;

	plumb_err_clear(&err);
	assert_int_equal(elf_image_open("/proc/self/exe", &img, &err), 0);
	assert_int_equal(elf_image_symbol(img, "unit_marker_function", &sym, &err), 1);
	assert_true(sym.size > 0);
	assert_non_null(sym.bytes);
	assert_int_equal(sym.nbytes, sym.size);
	/* The bytes in the file are the bytes being executed. */
	assert_memory_equal(sym.bytes, (const void *)(uintptr_t)unit_marker_function, sym.nbytes);
	assert_true(elf_image_mapped(img, sym.addr));
	name = elf_image_symbol_at(img, sym.addr + 1, &off);
	assert_non_null(name);
	assert_string_equal(name, "unit_marker_function");
	assert_int_equal(off, 1);
	assert_int_equal(elf_image_symbol(img, "no_such_symbol_anywhere", &sym, &err), 0);
#if defined(__x86_64__)
	assert_int_equal(elf_image_machine(img), EM_X86_64);
#endif
	elf_image_free(img);

	assert_int_equal(elf_image_open("/etc/passwd", &img, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "not an ELF file"));
	assert_false(elf_is_elf("/etc/passwd"));
	assert_true(elf_is_elf("/proc/self/exe"));
}

PLUMB_TEST(elfsym_same_file_has_no_differing_sections)
{
	struct elf_image *a = NULL, *b = NULL;
	struct plumb_err err;
	struct buf names;

	plumb_err_clear(&err);
	buf_init(&names, 4096);
	assert_int_equal(elf_image_open("/proc/self/exe", &a, &err), 0);
	assert_int_equal(elf_image_open("/proc/self/exe", &b, &err), 0);
	assert_int_equal(elf_image_diff_sections(a, b, &names), 0);
	assert_int_equal(names.len, 0);
	elf_image_free(a);
	elf_image_free(b);
	buf_release(&names);
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/plumb-unit.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static void write_text(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	chmod(path, mode);
}

PLUMB_TEST(workdir_copy_keeps_modes_links_and_times)
{
	char *root = tmpdir();
	char src[512], dst[512], p[600], q[600], link[64];
	struct timespec times[2] = { { 1000000000, 123456789 }, { 1200000000, 987654321 } };
	struct plumb_err err;
	struct stat st, sq;
	uint64_t size = 0;

	plumb_err_clear(&err);
	snprintf(src, sizeof(src), "%s/src", root);
	snprintf(dst, sizeof(dst), "%s/dst", root);
	assert_int_equal(mkdir(src, 0755), 0);
	snprintf(p, sizeof(p), "%s/sub", src);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/sub/tool.sh", src);
	write_text(p, "#!/bin/sh\n", 0755);
	snprintf(p, sizeof(p), "%s/data.o", src);
	write_text(p, "object bytes", 0644);
	assert_int_equal(utimensat(AT_FDCWD, p, times, 0), 0);
	snprintf(p, sizeof(p), "%s/ln", src);
	assert_int_equal(symlink("sub/tool.sh", p), 0);

	assert_int_equal(workdir_copy_tree(src, dst, &err), 0);
	snprintf(q, sizeof(q), "%s/sub/tool.sh", dst);
	assert_int_equal(stat(q, &sq), 0);
	assert_int_equal(sq.st_mode & 0777, 0755);
	snprintf(p, sizeof(p), "%s/data.o", src);
	snprintf(q, sizeof(q), "%s/data.o", dst);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(stat(q, &sq), 0);
	assert_int_equal(sq.st_mode & 0777, 0644);
	assert_int_equal(sq.st_mtim.tv_sec, 1200000000);
	assert_int_equal(sq.st_mtim.tv_nsec, 987654321);
	snprintf(q, sizeof(q), "%s/ln", dst);
	assert_int_equal(readlink(q, link, sizeof(link)), 11);
	assert_memory_equal(link, "sub/tool.sh", 11);
	assert_int_equal(workdir_tree_size(dst, &size, &err), 0);
	assert_int_equal(size, strlen("#!/bin/sh\n") + strlen("object bytes"));

	/* An existing destination is an error, not a merge. */
	assert_int_equal(workdir_copy_tree(src, dst, &err), PLUMB_EIO);
	assert_non_null(strstr(err.msg, dst));

	/* A read-only folder inside is removed too. */
	snprintf(p, sizeof(p), "%s/sub", dst);
	assert_int_equal(chmod(p, 0555), 0);
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	assert_int_equal(access(root, F_OK), -1);
	assert_int_equal(workdir_remove_tree(root, &err), 0);   /* missing is fine */
	free(root);
}

PLUMB_TEST(workdir_sweep_removes_unkept_run_folders)
{
	char *root = tmpdir();
	char p[600];
	struct plumb_err err;

	plumb_err_clear(&err);
	snprintf(p, sizeof(p), "%s/run-1/v", root);
	assert_int_equal(mkdir_p(p, &err), 0);
	snprintf(p, sizeof(p), "%s/run-2", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run-2/kept", root);
	write_text(p, "", 0644);
	snprintf(p, sizeof(p), "%s/other", root);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(workdir_sweep(root, &err), 0);
	snprintf(p, sizeof(p), "%s/run-1", root);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/run-2", root);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/other", root);
	assert_int_equal(access(p, F_OK), 0);
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	free(root);
}

PLUMB_TEST(lock_second_holder_is_refused_with_the_holder_named)
{
	char *root = tmpdir();
	char path[600], expect[64];
	struct run_lock a, b;
	struct plumb_err err;

	plumb_err_clear(&err);
	snprintf(path, sizeof(path), "%s/lock", root);
	assert_int_equal(run_lock_acquire(&a, path, &err), 0);
	assert_int_equal(run_lock_acquire(&b, path, &err), PLUMB_ELOCKED);
	snprintf(expect, sizeof(expect), "(pid %ld on host ", (long)getpid());
	assert_non_null(strstr(err.msg, expect));
	assert_non_null(strstr(err.msg, "another run holds the lock"));
	assert_non_null(strstr(err.msg, ", started 20"));
	assert_int_equal(b.fd, -1);
	run_lock_release(&a);
	assert_int_equal(run_lock_acquire(&b, path, &err), 0);
	run_lock_release(&b);
	run_lock_release(&b);   /* twice is harmless */
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	free(root);
}

PLUMB_TEST(pad_source_has_the_section_and_the_stack_note)
{
	struct buf b;

	buf_init(&b, 4096);
	assert_int_equal(pad_source(48, 1, &b), 0);
	assert_non_null(strstr(buf_cstr(&b), ".section .text.unlikely.plumb_pad,\"axR\",@progbits"));
	assert_non_null(strstr(buf_cstr(&b), ".section .note.GNU-stack,\"\",@progbits"));
#if defined(__x86_64__)
	assert_non_null(strstr(buf_cstr(&b), ".fill 48, 1, 0x90"));
#endif
	buf_reset(&b);
	assert_int_equal(pad_source(0, 0, &b), 0);
	assert_non_null(strstr(buf_cstr(&b), "plumb_pad,\"ax\",@progbits"));
	buf_release(&b);
}

/* runner/failed.c: the diagnostics of a log before its tail, escaped, at most 20. */
PLUMB_TEST(failed_quote_finds_diagnostics_and_escapes)
{
	struct buf text, out;
	char line[128];

	buf_init(&text, 1 << 20);
	buf_init(&out, 1 << 20);
	for (int i = 0; i < 30; i++) {
		snprintf(line, sizeof(line), "x.c:%d: warning: unused\n", i);
		buf_addstr(&text, line);
	}
	buf_addstr(&text, "x.c:31: error: bad \033[31mred\n");
	assert_int_equal(failed_quote(text.data, text.len, "the build log", "  | ", &out), 0);
	assert_string_equal(buf_cstr(&out), "the diagnostics in the build log (line 31 of 31):\n"
			    "  | x.c:31: error: bad ?[31mred\n");
	buf_reset(&out);
	buf_reset(&text);
	for (int i = 0; i < 25; i++)
		buf_addstr(&text, "ld: undefined reference to f\n");
	assert_int_equal(failed_quote(text.data, text.len, "the build log", "  | ", &out), 0);
	assert_non_null(strstr(buf_cstr(&out), "(lines 1-25 of 25)"));
	assert_non_null(strstr(buf_cstr(&out), "  | ... 5 more\n"));
	buf_reset(&out);
	assert_int_equal(failed_quote("a\nb\n", 4, "its standard error", "  | ", &out), 0);
	assert_string_equal(buf_cstr(&out), "the last lines of its standard error:\n  | a\n  | b\n");
	assert_true(failed_is_diagnostic("make: *** [Makefile:2: x] Error 1", 34));
	assert_false(failed_is_diagnostic("x.c:1: warning: -Werror=foo", 27));
	buf_release(&text);
	buf_release(&out);
}

/* runner/pad.c: a pad object made for the same pad, bytes and cc, its bytes
 * as they were, is reused; anything else is assembled again. */
PLUMB_TEST(pad_object_reused_only_when_made_for_the_same_pad)
{
	char *root = tmpdir(), *dir, *obj;
	struct envlist env = { 0 };
	struct pad_object po, again;
	struct plumb_err err;
	int fd;

	assert_non_null(root);
	dir = buf_strdupf("%s/pad/03", root);
	obj = buf_strdupf("%s/plumb_pad.o", dir);
	assert_int_equal(envlist_init(&env, &err), 0);
	assert_int_equal(envlist_inherit(&env, &err), 0);
	assert_int_equal(pad_object_reuse(dir, 3, 48, "cc", &again), 0);
	pad_object_release(&again);
	assert_int_equal(pad_object_make(dir, 3, 48, "cc", &env, &po, &err), 0);
	assert_int_equal(pad_object_reuse(dir, 3, 48, "cc", &again), 1);
	assert_string_equal(again.object, po.object);
	assert_int_equal(again.retained, po.retained);
	pad_object_release(&again);
	assert_int_equal(pad_object_reuse(dir, 3, 64, "cc", &again), 0);
	pad_object_release(&again);
	assert_int_equal(pad_object_reuse(dir, 2, 48, "cc", &again), 0);
	pad_object_release(&again);
	assert_int_equal(pad_object_reuse(dir, 3, 48, "gcc -m32", &again), 0);
	pad_object_release(&again);
	/* Its bytes changed since: not the object that was made. */
	fd = open(obj, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	assert_int_equal(pad_object_reuse(dir, 3, 48, "cc", &again), 0);
	pad_object_release(&again);
	pad_object_release(&po);
	envlist_release(&env);
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	free(obj);
	free(dir);
	free(root);
}

/* runner/build-key.c: one process runs the compiler's --version once while
 * the compiler is the same file, and again once it is replaced. */
PLUMB_TEST(build_key_toolchain_asks_the_compiler_once_per_file)
{
	char *root = tmpdir(), *cc, *log, *script;
	struct plumb_config cfg;
	struct buf a, b, c, calls;
	struct plumb_err err;
	const char *old = getenv("CC");
	char *saved = old ? strdup(old) : NULL;

	assert_non_null(root);
	cc = buf_strdupf("%s/fakecc", root);
	log = buf_strdupf("%s/calls", root);
	script = buf_strdupf("#!/bin/sh\necho called >>'%s'\necho 'fakecc 1.0'\n", log);
	write_text(cc, script, 0755);
	unsetenv("CC");
	memset(&cfg, 0, sizeof(cfg));
	cfg.build.cc = cc;
	cfg.build.command = (char *)"make";
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	buf_init(&c, 1 << 20);
	buf_init(&calls, 4096);
	assert_int_equal(build_key_toolchain(&cfg, &a, &err), 0);
	assert_int_equal(build_key_toolchain(&cfg, &b, &err), 0);
	assert_string_equal(a.data, b.data);
	assert_non_null(strstr(a.data, "fakecc 1.0"));
	assert_int_equal(file_read(log, 4096, &calls, &err), 0);
	assert_string_equal(calls.data, "called\n");
	/* A new compiler at the same path (another size, another change time). */
	free(script);
	script = buf_strdupf("#!/bin/sh\necho called >>'%s'\necho 'fakecc 2.0, rebuilt'\n", log);
	write_text(cc, script, 0755);
	assert_int_equal(build_key_toolchain(&cfg, &c, &err), 0);
	assert_non_null(strstr(c.data, "fakecc 2.0, rebuilt"));
	buf_reset(&calls);
	assert_int_equal(file_read(log, 4096, &calls, &err), 0);
	assert_string_equal(calls.data, "called\ncalled\n");
	if (saved)
		setenv("CC", saved, 1);
	free(saved);
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
	buf_release(&calls);
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	free(script);
	free(log);
	free(cc);
	free(root);
}

/* runner/build-key.c: the key holds no path of the work folder, so a run in
 * another --workdir (or XDG_CACHE_HOME) finds the same entries. */
PLUMB_TEST(build_key_material_holds_no_work_folder)
{
	struct plumb_config cfg;
	struct runner_result res;
	struct runner_variant v;
	struct plumb_err err;
	struct buf a, b;

	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	memset(&v, 0, sizeof(v));
	cfg.build.artifact = (char *)"bench";
	snprintf(res.side[0].tree, sizeof(res.side[0].tree), "%040d", 7);
	v.pad = 1;
	v.pad_bytes = 16;
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	res.workdir = (char *)"/home/u/.cache/plumb/runs";
	res.build_dir[0] = (char *)"/home/u/.cache/plumb/runs/build/0000000000000000000000000000000000000007";
	v.command = (char *)"make LDFLAGS=/home/u/.cache/plumb/runs/pad/01/plumb_pad.o";
	assert_int_equal(build_key_material(&cfg, &res, &v, "tc\n", NULL, &a, &err), 0);
	res.workdir = (char *)"/elsewhere/wd";
	res.build_dir[0] = (char *)"/elsewhere/wd/build/0000000000000000000000000000000000000007";
	v.command = (char *)"make LDFLAGS=/elsewhere/wd/pad/01/plumb_pad.o";
	assert_int_equal(build_key_material(&cfg, &res, &v, "tc\n", NULL, &b, &err), 0);
	assert_string_equal(a.data, b.data);
	assert_non_null(strstr(a.data, "command make LDFLAGS={workdir}/pad/01/plumb_pad.o\n"));
	assert_null(strstr(a.data, "/home/u"));
	buf_release(&a);
	buf_release(&b);
}

/* runner/buildcache-tree.c: a tree listed, written as manifest lines, read
 * back and compared; a change of any kind is named. */
PLUMB_TEST(buildcache_manifest_lists_every_file_and_names_a_change)
{
	char *root = tmpdir(), *p;
	struct cachetree t = { 0 }, back = { 0 }, again = { 0 };
	struct plumb_err err;
	struct buf text;
	char why[512], *line, *next;

	p = buf_strdupf("%s/sub", root);
	assert_int_equal(mkdir(p, 0775), 0);
	chmod(p, 0775);
	free(p);
	p = buf_strdupf("%s/sub/odd\nname\\x", root);
	write_text(p, "one\n", 0664);
	free(p);
	p = buf_strdupf("%s/bench", root);
	write_text(p, "#!/bin/sh\n", 0755);
	free(p);
	/* Sealing takes group write off, and the list is in walk order. */
	assert_int_equal(cachetree_scan(root, NULL, "tree", CACHETREE_HASH | CACHETREE_SEAL, &t, &err), 0);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.v[0].path, "bench");
	assert_string_equal(t.v[1].path, "sub");
	assert_int_equal(t.v[1].mode, 0755);
	assert_string_equal(t.v[2].path, "sub/odd\nname\\x");
	assert_int_equal(t.v[2].mode, 0644);
	assert_int_equal(t.v[2].size, 4);
	/* sha256("one\n") */
	assert_string_equal(t.v[2].sha256, "2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806");
	buf_init(&text, 1 << 20);
	assert_int_equal(cachetree_write(&t, &text), 0);
	assert_non_null(strstr(text.data, "file 0644 4 2c8b08da5ce60398e1f19af0e5dccc744df274b826abe585eaba68c525434806 sub/odd\\nname\\\\x\n"));
	for (line = text.data; *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		assert_int_equal(cachetree_parse_line(&back, line), 0);
	}
	assert_int_equal(cachetree_compare(&t, NULL, &back, 1, "tree", why, sizeof(why)), 0);
	/* Only what is at or below sub counts. */
	assert_int_equal(cachetree_scan(root, "sub", "tree", CACHETREE_HASH, &again, &err), 0);
	assert_int_equal(cachetree_compare(&back, "sub", &again, 1, "tree", why, sizeof(why)), 0);
	cachetree_release(&again);
	/* A file planted, a file changed, a link. */
	p = buf_strdupf("%s/sub/Makefile", root);
	write_text(p, "x", 0644);
	assert_int_equal(cachetree_scan(root, NULL, "tree", CACHETREE_HASH, &again, &err), 0);
	assert_int_equal(cachetree_compare(&back, NULL, &again, 1, "tree", why, sizeof(why)), -1);
	assert_string_equal(why, "tree/sub/Makefile: not in the entry's manifest");
	cachetree_release(&again);
	unlink(p);
	free(p);
	p = buf_strdupf("%s/bench", root);
	write_text(p, "#!/bin/sH\n", 0755);
	assert_int_equal(cachetree_scan(root, NULL, "tree", CACHETREE_HASH, &again, &err), 0);
	assert_int_equal(cachetree_compare(&back, NULL, &again, 1, "tree", why, sizeof(why)), -1);
	assert_string_equal(why, "tree/bench: its SHA-256 is not the one the manifest records");
	/* Without hashes (the check before the copy) the same size passes. */
	assert_int_equal(cachetree_compare(&back, NULL, &again, 0, "tree", why, sizeof(why)), 0);
	cachetree_release(&again);
	unlink(p);
	assert_int_equal(symlink("/bin/sh", p), 0);
	assert_int_equal(cachetree_scan(root, NULL, "tree", 0, &again, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "tree/bench: a symbolic link"));
	cachetree_release(&again);
	unlink(p);
	assert_int_equal(cachetree_scan(root, NULL, "tree", 0, &again, &err), 0);
	assert_int_equal(cachetree_compare(&back, NULL, &again, 0, "tree", why, sizeof(why)), -1);
	assert_string_equal(why, "tree/bench: in the entry's manifest, missing");
	cachetree_release(&again);
	free(p);
	/* Others may write: refused when the items must be this user's alone. */
	p = buf_strdupf("%s/sub", root);
	chmod(p, 0775);
	assert_int_equal(cachetree_scan(root, NULL, "tree", CACHETREE_OWNED, &again, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "tree/sub: group-writable (mode 0775)"));
	cachetree_release(&again);
	free(p);
	/* Lines that are not manifest lines. */
	{
		char bad1[] = "file 0644 4 zz sub/x", bad2[] = "link 0777 x", bad3[] = "dir 0755 a\\q";
		assert_int_equal(cachetree_parse_line(&again, bad1), -1);
		assert_int_equal(cachetree_parse_line(&again, bad2), -1);
		assert_int_equal(cachetree_parse_line(&again, bad3), -1);
		assert_int_equal(again.n, 0);
	}
	buf_release(&text);
	cachetree_release(&t);
	cachetree_release(&back);
	assert_int_equal(workdir_remove_tree(root, &err), 0);
	free(root);
}
