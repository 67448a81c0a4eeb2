/*
 * archive/remote.c: the rclone store (remote.h): archive.conf, the
 * argument vectors of copyto, moveto, hashsum, deletefile, and rclone run
 * through the process harness (sys/proc.h) like every child of plumb: its
 * own process group, no shell, stdin from /dev/null, plumb's environment
 * (RCLONE_CONFIG and the remote's credentials come from there), a
 * timeout, stdout and stderr captured under caps, reaped before the call
 * returns.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/remote.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/path.h"
#include "sys/proc.h"
#include "common/banned.h"

extern char **environ;

/* rclone's exit statuses for "directory not found" and "file not found". */
#define RCLONE_NO_DIR 3
#define RCLONE_NO_FILE 4
/* ... and for failures that are the remote's, not one file's: a temporary
 * error, a fatal one (the account), the transfer limit. */
#define RCLONE_RETRY 5
#define RCLONE_FATAL 7
#define RCLONE_LIMIT 8

/* One transfer of a bundle, or one listing: generous, but never forever. */
#define RCLONE_TIMEOUT_NS (30ull * 60 * 1000000000ull)
#define RCLONE_OUT_CAP ((size_t)256 << 20)
#define RCLONE_ERR_CAP ((size_t)64 << 10)

void remote_free(struct remote *r)
{
	if (!r)
		return;
	free(r->where);
	free(r->name);
	free(r);
}

/* Strip blanks at both ends, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* "rclone:REMOTE:PATH": REMOTE a name rclone accepts, PATH anything but empty. */
static int parse_store(const char *v, const char *file, int line, struct remote **out,
		       struct plumb_err *err)
{
	const char *spec, *colon;
	struct remote *r;
	size_t n;

	if (strncmp(v, "rclone:", 7) != 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s:%d: store: '%s' is not rclone:REMOTE:PATH",
				     file, line, v);
	spec = v + 7;
	colon = strchr(spec, ':');
	if (!colon || colon == spec || !colon[1])
		return plumb_err_set(err, PLUMB_EINPUT, "%s:%d: store: '%s' is not rclone:REMOTE:PATH "
				     "(a remote of rclone.conf, a colon, a path)", file, line, v);
	for (const char *p = spec; p < colon; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-. ", *p))
			return plumb_err_set(err, PLUMB_EINPUT, "%s:%d: store: remote name '%.*s' has a "
					     "character rclone does not allow", file, line,
					     (int)(colon - spec), spec);
	if (spec[0] == '-')
		return plumb_err_set(err, PLUMB_EINPUT, "%s:%d: store: a remote name cannot start with '-'",
				     file, line);
	if (!(r = calloc(1, sizeof(*r))) || !(r->where = strdup(spec)) ||
	    !(r->name = malloc(strlen(v) + 1))) {
		remote_free(r);
		return plumb_err_oom(err, "archive.conf");
	}
	n = strlen(r->where);
	while (n > (size_t)(colon - spec) + 2 && r->where[n - 1] == '/')
		r->where[--n] = '\0';
	snprintf(r->name, strlen(v) + 1, "rclone:%s", r->where);
	*out = r;
	return 0;
}

int remote_from_conf(const char *dir, struct remote **out, struct plumb_err *err)
{
	char *path = path_join(dir, "archive.conf");
	char text[4096];
	FILE *f;
	int line = 0, r = 0;

	*out = NULL;
	if (!path)
		return plumb_err_oom(err, "archive.conf");
	if (!(f = fopen(path, "re"))) {
		int e = errno;
		r = e == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EIO, e, path, "open");
		free(path);
		return r;
	}
	while (r == 0 && fgets(text, sizeof(text), f)) {
		char *s = trim(text), *eq, *key, *val;
		line++;
		if (!*s || *s == '#')
			continue;
		if (!(eq = strchr(s, '='))) {
			r = plumb_err_set(err, PLUMB_EINPUT, "%s:%d: not 'key = value'", path, line);
			break;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		if (strcmp(key, "store") != 0)
			r = plumb_err_set(err, PLUMB_EINPUT, "%s:%d: unknown key '%.64s' (archive.conf "
					  "has one: store)", path, line, key);
		else if (*out)
			r = plumb_err_set(err, PLUMB_EINPUT, "%s:%d: store given twice", path, line);
		else
			r = parse_store(val, path, line, out, err);
	}
	if (r == 0 && ferror(f))
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "read");
	fclose(f);
	free(path);
	if (r < 0) {
		remote_free(*out);
		*out = NULL;
	}
	return r;
}

void remote_rel(const char *id, char *rel, size_t size)
{
	snprintf(rel, size, "%.2s/%s.plumb", id, id);
}

/* "REMOTE:PATH/rel" in b. */
static int target(const struct remote *r, const char *rel, struct buf *b,
		  struct plumb_err *err)
{
	buf_reset(b);
	if (buf_printf(b, "%s/%s", r->where, rel) < 0)
		return buf_err(err, "remote path");
	return 0;
}

/* The last non-empty line of text, escaped, into b. */
static void last_line(const struct buf *text, struct buf *b)
{
	const char *s = text->len ? buf_cstr(text) : "";
	const char *end = s + strlen(s), *start;
	char *line;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	line = strndup(start, (size_t)(end - start));
	if (line)
		(void)esc_text(b, line);
	free(line);
}

/*
 * Run argv (argv[0] is "rclone", found in PATH) to its end, its stdout
 * into out (capped).  0 when it exited 0; otherwise a PLUMB_E* code with
 * err saying how it ended and its last stderr line (escaped); *status
 * receives its exit status (-1 when killed or not started) in both cases.
 */
static int run_rclone(char *const argv[], struct buf *out, int *status, struct plumb_err *err)
{
	struct proc_spec spec;
	struct proc_result pr;
	char how[128];
	struct buf tail;
	int r;

	*status = -1;
	memset(&pr, 0, sizeof(pr));
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = environ;
	spec.timeout_ns = RCLONE_TIMEOUT_NS;
	spec.out.kind = PROC_SINK_MEM;
	spec.out.cap = RCLONE_OUT_CAP;
	spec.err.kind = PROC_SINK_MEM;
	spec.err.cap = RCLONE_ERR_CAP;
	if ((r = proc_run(&spec, &pr, err)) < 0)
		return r;
	if (pr.exited)
		*status = pr.status;
	if (pr.exited && pr.status == 0 && !pr.out_truncated) {
		buf_reset(out);
		r = pr.out_mem.len && buf_add(out, pr.out_mem.data, pr.out_mem.len) < 0 ?
		    buf_err(err, "rclone output") : 0;
		proc_result_release(&pr);
		return r;
	}
	proc_describe(&pr, RCLONE_TIMEOUT_NS, how, sizeof(how));
	buf_init(&tail, 4096);
	if (pr.spawn_errno)
		(void)buf_printf(&tail, "%s (is rclone installed? Debian's package is rclone)",
				 pr.spawn_error);
	else if (pr.out_truncated)
		(void)buf_printf(&tail, "its output was over %zu bytes", RCLONE_OUT_CAP);
	else
		last_line(&pr.err_mem, &tail);
	/* argv: rclone --retries=1 SUBCOMMAND ... */
	r = plumb_err_set(err, PLUMB_EIO, "rclone %s: %s%s%s", argv[1] && argv[2] ? argv[2] : "",
			  pr.spawn_errno ? "not started" : how, tail.len ? ": " : "",
			  tail.len ? buf_cstr(&tail) : "");
	buf_release(&tail);
	proc_result_release(&pr);
	return r;
}

/* Run rclone with the given arguments (NULL-terminated), stdout into out. */
static int rclone(struct buf *out, int *status, struct plumb_err *err, ...)
{
	char *argv[16];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)"rclone";
	/* A failure is reported at once (plumb's caller retries a whole bundle). */
	argv[n++] = (char *)"--retries=1";
	va_start(ap, err);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_rclone(argv, out, status, err);
}

/* The SHA-256 of PATH/rel, *found 0 when there is no such file. */
static int hash_of(const struct remote *r, const char *rel, char *sha, int *found,
		   struct plumb_err *err)
{
	struct buf t, out;
	int status = 0, rc;

	*found = 0;
	sha[0] = '\0';
	buf_init(&t, 1 << 16);
	buf_init(&out, 1 << 16);
	if ((rc = target(r, rel, &t, err)) < 0)
		goto done;
	/* The remote hashes its own copy; a backend without SHA-256 has it downloaded. */
	rc = rclone(&out, &status, err, "hashsum", "sha256", "--", buf_cstr(&t), (char *)NULL);
	if (rc < 0 && status != RCLONE_NO_DIR && status != RCLONE_NO_FILE && status > 0) {
		plumb_err_clear(err);
		buf_reset(&out);
		rc = rclone(&out, &status, err, "hashsum", "sha256", "--download", "--", buf_cstr(&t),
			    (char *)NULL);
	}
	if (rc < 0 && (status == RCLONE_NO_DIR || status == RCLONE_NO_FILE)) {
		plumb_err_clear(err);
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	if (out.len == 0)
		goto done;   /* an empty listing: no such file */
	if (out.len < 64 + 2 || out.data[64] != ' ') {
		rc = plumb_err_set(err, PLUMB_EIO, "%s: rclone hashsum printed no SHA-256", buf_cstr(&t));
		goto done;
	}
	memcpy(sha, out.data, 64);
	sha[64] = '\0';
	for (int i = 0; i < 64; i++)
		if (!isxdigit((unsigned char)sha[i])) {
			rc = plumb_err_set(err, PLUMB_EIO, "%s: rclone hashsum printed no SHA-256",
					   buf_cstr(&t));
			goto done;
		}
	for (int i = 0; i < 64; i++)
		sha[i] = (char)tolower((unsigned char)sha[i]);
	*found = 1;
done:
	buf_release(&t);
	buf_release(&out);
	return rc;
}

int remote_sha256(const struct remote *r, const char *id, char *sha, int *found,
		  struct plumb_err *err)
{
	char rel[96];

	remote_rel(id, rel, sizeof(rel));
	return hash_of(r, rel, sha, found, err);
}

int remote_delete(const struct remote *r, const char *rel, struct plumb_err *err)
{
	struct buf t, out;
	int status = 0, rc;

	buf_init(&t, 1 << 16);
	buf_init(&out, 1 << 16);
	if ((rc = target(r, rel, &t, err)) == 0) {
		rc = rclone(&out, &status, err, "deletefile", "--", buf_cstr(&t), (char *)NULL);
		if (rc < 0 && status > 0) {
			/* rclone says 1 for a file that is not there: is it gone? */
			struct plumb_err again;
			char sha[65];
			int found = 1;
			plumb_err_clear(&again);
			if (hash_of(r, rel, sha, &found, &again) == 0 && !found) {
				plumb_err_clear(err);
				rc = 0;
			}
		}
	}
	buf_release(&t);
	buf_release(&out);
	return rc;
}

int remote_put(const struct remote *r, const char *local, const char *id, const char *sha,
	       struct plumb_err *err)
{
	char rel[96], tmp[128], got[65];
	struct buf t, f, out;
	int status = 0, rc, found;

	remote_rel(id, rel, sizeof(rel));
	snprintf(tmp, sizeof(tmp), "%.2s/.%s.plumb.tmp.%ld", id, id, (long)getpid());
	buf_init(&t, 1 << 16);
	buf_init(&f, 1 << 16);
	buf_init(&out, 1 << 16);
	if ((rc = target(r, tmp, &t, err)) < 0 || (rc = target(r, rel, &f, err)) < 0)
		goto done;
	/* The temporary name first, then the bundle's name: never half a file there. */
	if ((rc = rclone(&out, &status, err, "copyto", "--immutable", "--", local, buf_cstr(&t),
			 (char *)NULL)) < 0 ||
	    (rc = rclone(&out, &status, err, "moveto", "--immutable", "--", buf_cstr(&t), buf_cstr(&f),
			 (char *)NULL)) < 0) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		(void)remote_delete(r, tmp, &ignored);
		goto done;
	}
	if ((rc = remote_sha256(r, id, got, &found, err)) < 0)
		goto done;
	if (!found || strcmp(got, sha) != 0) {
		rc = plumb_err_set(err, PLUMB_EIO, "%s: the remote holds %s%s after the upload, "
				   "not the SHA-256 %s of the bundle", buf_cstr(&f),
				   found ? "a file of SHA-256 " : "no file", found ? got : "", sha);
	}
done:
	buf_release(&t);
	buf_release(&f);
	buf_release(&out);
	return rc;
}

int remote_get(const struct remote *r, const char *id, const char *local,
	       struct plumb_err *err)
{
	char rel[96];
	struct buf t, out;
	int status = 0, rc;

	remote_rel(id, rel, sizeof(rel));
	buf_init(&t, 1 << 16);
	buf_init(&out, 1 << 16);
	if ((rc = target(r, rel, &t, err)) == 0)
		rc = rclone(&out, &status, err, "copyto", "--", buf_cstr(&t), local, (char *)NULL);
	buf_release(&t);
	buf_release(&out);
	if (rc < 0 && status > 0) {
		/* rclone ran and refused this one file (missing, a link it does not
		 * follow, unreadable): the file is bad, the remote may be fine. */
		if (status != RCLONE_RETRY && status != RCLONE_FATAL && status != RCLONE_LIMIT) {
			rc = PLUMB_EINPUT;
			if (err)
				err->code = rc;
		}
		plumb_err_prefix(err, "%s/%s", r->name, rel);
	}
	return rc;
}

void remote_files_free(struct remote_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i].rel);
	free(files);
}

int remote_list(const struct remote *r, struct remote_file **files, size_t *n,
		struct plumb_err *err)
{
	struct buf out;
	struct remote_file *v = NULL;
	size_t nv = 0;
	int status = 0, rc;
	char *p, *end;

	*files = NULL;
	*n = 0;
	buf_init(&out, (size_t)512 << 20);
	rc = rclone(&out, &status, err, "hashsum", "sha256", "--", r->where, (char *)NULL);
	if (rc < 0 && status == RCLONE_NO_DIR) {
		/* Nothing stored yet. */
		plumb_err_clear(err);
		buf_release(&out);
		return 0;
	}
	if (rc < 0) {
		buf_release(&out);
		return rc;
	}
	/* Lines "<hash>  <path>"; the hash is blank when the backend has none. */
	p = out.data;
	end = out.data ? out.data + out.len : NULL;
	while (p && p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct remote_file *nv2;
		name = NULL;
		for (size_t i = 0; i + 1 < len && !name; i++)
			if (p[i] == ' ' && p[i + 1] == ' ')
				name = p + i;
		if (!name) {
			p += len + 1;
			continue;
		}
		if (!(nv2 = realloc(v, (nv + 1) * sizeof(*v)))) {
			rc = plumb_err_oom(err, "remote listing");
			break;
		}
		v = nv2;
		memset(&v[nv], 0, sizeof(v[nv]));
		if (name - p == 64) {
			for (int i = 0; i < 64; i++)
				v[nv].sha[i] = (char)tolower((unsigned char)p[i]);
		}
		name += 2;
		if (!(v[nv].rel = strndup(name, (size_t)(p + len - name)))) {
			rc = plumb_err_oom(err, "remote listing");
			break;
		}
		nv++;
		p += len + 1;
	}
	buf_release(&out);
	if (rc < 0) {
		remote_files_free(v, nv);
		return rc;
	}
	*files = v;
	*n = nv;
	return 0;
}
