/*
 * runner/failed.c: the evidence of a failed build or benchmark; see
 * failed.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/fileio.h"
#include "runner/failed.h"
#include "runner/workdir.h"
#include "common/banned.h"

#define KEEP_MAX ((size_t)64 << 20)

/* What compilers, linkers and make say when they fail. */
static const char *const diagnostics[] = {
	"error:", "Error:", "ERROR:", "fatal error", "undefined reference", "undefined symbol",
	"multiple definition of", "No rule to make target", "cannot find -l", "ld returned",
	"collect2:", "*** [", "Segmentation fault", "command not found", "No such file or directory",
	"error[", "panic:", "Traceback (most recent call last)",
};

int failed_root(struct buf *out, struct plumb_err *err)
{
	const char *state = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int r;

	if (state && state[0] == '/')
		r = buf_printf(out, "%s/plumb/failed", state);
	else if (home && home[0] == '/')
		r = buf_printf(out, "%s/.local/state/plumb/failed", home);
	else
		return plumb_err_set(err, PLUMB_EINPUT,
				     "no folder for the logs of failures: neither XDG_STATE_HOME nor HOME is absolute");
	return r < 0 ? buf_err(err, "failed folder") : 0;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int failed_keep(const char *run_dir, const char *path, char **kept, struct plumb_err *err)
{
	struct buf dir, text;
	struct atomic_file af;
	struct stat st;
	char *dst = NULL;
	int r;

	*kept = NULL;
	if (!run_dir || !path || stat(path, &st) < 0)
		return 0;
	buf_init(&dir, 4096);
	buf_init(&text, KEEP_MAX + 1);
	if ((r = failed_root(&dir, err)) < 0)
		goto out;
	if (buf_printf(&dir, "/%s", base_name(run_dir)) < 0) {
		r = buf_err(err, "failed folder");
		goto out;
	}
	if ((r = mkdir_p(dir.data, err)) < 0)
		goto out;
	dst = buf_strdupf("%s/%s", dir.data, base_name(path));
	if (!dst) {
		r = plumb_err_oom(err, "failed log");
		goto out;
	}
	/* The whole log, or its first 64 MiB (build logs are capped far lower). */
	{
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		char chunk[65536];
		ssize_t got;
		if (fd < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, path, "open");
			goto out;
		}
		while (text.len < KEEP_MAX && (got = read(fd, chunk, sizeof(chunk))) > 0)
			if (buf_add(&text, chunk, (size_t)got < KEEP_MAX - text.len ?
				    (size_t)got : KEEP_MAX - text.len) < 0)
				break;
		close(fd);
	}
	if ((r = atomic_file_open(&af, dst, 0644, err)) < 0)
		goto out;
	if ((r = atomic_file_write(&af, text.data ? text.data : "", text.len, err)) < 0) {
		atomic_file_abort(&af);
		goto out;
	}
	if ((r = atomic_file_commit(&af, err)) < 0)
		goto out;
	*kept = dst;
	dst = NULL;
out:
	free(dst);
	buf_release(&dir);
	buf_release(&text);
	return r;
}

int failed_is_diagnostic(const char *line, size_t len)
{
	for (size_t i = 0; i < sizeof(diagnostics) / sizeof(diagnostics[0]); i++) {
		size_t n = strlen(diagnostics[i]);
		for (size_t k = 0; k + n <= len; k++)
			if (memcmp(line + k, diagnostics[i], n) == 0)
				return 1;
	}
	return 0;
}

/* Append line [s, s+n) after indent, escaped. */
static int quote_line(struct buf *out, const char *indent, const char *s, size_t n)
{
	char *one = malloc(n + 1);
	int r;

	if (!one)
		return -1;
	memcpy(one, s, n);
	one[n] = '\0';
	r = buf_addstr(out, indent) | esc_text(out, one) | buf_addch(out, '\n');
	free(one);
	return r ? -1 : 0;
}

int failed_quote(const char *text, size_t len, const char *what, const char *indent,
		 struct buf *out)
{
	size_t nlines = 0, ndiag = 0, first = 0, last = 0, shown = 0, skip;
	const char *p, *end = text + len;
	int r = 0;

	/* Count the lines and the diagnostics. */
	for (p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		nlines++;
		if (failed_is_diagnostic(p, n)) {
			if (!ndiag)
				first = nlines;
			last = nlines;
			ndiag++;
		}
		p = nl ? nl + 1 : end;
	}
	if (ndiag) {
		if (first == last)
			r |= buf_printf(out, "the diagnostics in %s (line %zu of %zu):\n", what, first, nlines);
		else
			r |= buf_printf(out, "the diagnostics in %s (lines %zu-%zu of %zu):\n", what, first,
					last, nlines);
	} else {
		r |= buf_printf(out, "the last lines of %s:\n", what);
	}
	skip = nlines > FAILED_QUOTE_LINES ? nlines - FAILED_QUOTE_LINES : 0;
	nlines = 0;
	for (p = text; p < end && shown < FAILED_QUOTE_LINES && r == 0;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		nlines++;
		if (ndiag ? failed_is_diagnostic(p, n) : nlines > skip) {
			r |= quote_line(out, indent, p, n);
			shown++;
		}
		p = nl ? nl + 1 : end;
	}
	if (ndiag > shown && r == 0)
		r |= buf_printf(out, "%s... %zu more\n", indent, ndiag - shown);
	return r ? -1 : 0;
}

void failed_evidence(const char *run_dir, const char *path, const char *text, size_t len,
		     const char *what, char **quote, char **kept)
{
	struct plumb_err err;
	struct buf log, q;

	plumb_err_clear(&err);
	*quote = NULL;
	if (failed_keep(run_dir, path, kept, &err) < 0)
		*kept = NULL;
	buf_init(&log, KEEP_MAX + 1);
	if (!text && path && file_read(path, KEEP_MAX, &log, &err) == 0) {
		text = log.data;
		len = log.len;
	}
	buf_init(&q, 1 << 16);
	if (text && len && failed_quote(text, len, what, "  | ", &q) == 0)
		*quote = buf_detach(&q, NULL);
	buf_release(&q);
	buf_release(&log);
}

int failed_prune(time_t now, long age, struct plumb_err *err)
{
	struct buf root;
	struct dirent *de;
	DIR *d;
	int r = 0;

	buf_init(&root, 4096);
	if ((r = failed_root(&root, err)) < 0) {
		buf_release(&root);
		return r;
	}
	d = opendir(root.data);
	if (!d) {
		buf_release(&root);
		return 0;   /* nothing failed yet */
	}
	while ((de = readdir(d)) && r == 0) {
		struct stat st;
		char *p;
		if (strncmp(de->d_name, "run-", 4) != 0)
			continue;
		p = buf_strdupf("%s/%s", root.data, de->d_name);
		if (!p) {
			r = plumb_err_oom(err, "failed folder");
			break;
		}
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_mtime < now - age)
			r = workdir_remove_tree(p, err);
		free(p);
	}
	closedir(d);
	buf_release(&root);
	return r;
}
