/*
 * reports/site.c: the archive's static pages (site.h).  The archive is
 * walked once, class by class (archive/hosts.h) and benchmark by
 * benchmark (query_trend(), the series `report --trend` shows): each
 * series' page is rendered and written as soon as it is read, and only
 * its latest point and change points are kept for the class page and the
 * index.  Pages are named from what they show through a slug and a hash,
 * so a hostile benchmark name gives a harmless, unique file name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "archive/hosts.h"
#include "archive/query.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/path.h"
#include "formats/digest.h"
#include "reports/hostclass.h"
#include "reports/html-page.h"
#include "reports/render.h"
#include "reports/site.h"
#include "reports/trend.h"
#include "formats/jsonio.h"
#include "common/banned.h"

/* The longest page: a series of many nights as an HTML table. */
#define SITE_PAGE_MAX (64u << 20)
/* Bytes of a name kept readable in its file name. */
#define SITE_SLUG_MAX 40

/*
 * "<prefix>-<slug>-<16 hex>.html": the slug keeps a-z and 0-9 of what
 * (lower-cased; every other run of bytes is one '-'), the hex digits are
 * the SHA-256 of the key, which tells apart what the slug merges.
 */
static void page_name(const char *prefix, const char *what, const char *key, size_t keylen,
		      char out[128])
{
	char slug[SITE_SLUG_MAX + 1], hex[DIGEST_HEX];
	size_t n = 0;

	for (const unsigned char *s = (const unsigned char *)what; *s && n < SITE_SLUG_MAX; s++) {
		unsigned char c = *s >= 'A' && *s <= 'Z' ? (unsigned char)(*s - 'A' + 'a') : *s;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			slug[n++] = (char)c;
		else if (n && slug[n - 1] != '-')
			slug[n++] = '-';
	}
	while (n && slug[n - 1] == '-')
		n--;
	slug[n] = '\0';
	digest_buffer_hex(key, keylen, hex);
	snprintf(out, 128, "%s-%s%s%.16s.html", prefix, slug, n ? "-" : "", hex);
}

static void host_page(const char *fp, char out[128])
{
	page_name("host", fp, fp, strlen(fp), out);
}

/* The key is the fingerprint, a NUL, the name: no two pairs share it. */
static int bench_page(const char *fp, const char *project, const char *bench, char out[128])
{
	size_t a = strlen(fp), b = strlen(bench), p = project && *project ? strlen(project) : 0;
	char *key = malloc(a + b + p + 2);

	if (!key)
		return -1;
	/* The key of a series without a project is what it was before projects. */
	memcpy(key, fp, a + 1);
	memcpy(key + a + 1, bench, b);
	if (p) {
		key[a + 1 + b] = '\0';
		memcpy(key + a + b + 2, project, p);
	}
	page_name("bench", bench, key, a + 1 + b + (p ? p + 1 : 0), out);
	free(key);
	return 0;
}

/* ---- writing the folder ---- */

static int put_page(const char *dir, const char *name, const struct buf *b, struct plumb_err *err)
{
	char *path = path_join(dir, name);
	int fd, r;

	if (!path)
		return plumb_err_oom(err, "archive index");
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "create");
		free(path);
		return r;
	}
	/* Synced all at once before the folder is published (site_write()). */
	r = write_all(fd, b->data ? b->data : "", b->len, path, err);
	if (close(fd) < 0 && r == 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "close");
	free(path);
	return r;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* Remove a folder and what it holds (symbolic links are removed, not followed). */
static int rm_tree(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The temporary folders of dead writers beside the site: ".<base>.site.<pid>.XXXXXX". */
static void sweep(const char *parent, const char *base)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	size_t n = strlen(base);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *s = e->d_name;
		char *end, *path;
		long pid;

		if (s[0] != '.' || strncmp(s + 1, base, n) != 0 || strncmp(s + 1 + n, ".site.", 6) != 0)
			continue;
		pid = strtol(s + 1 + n + 6, &end, 10);
		if (end == s + 1 + n + 6 || *end != '.' || pid <= 0 ||
		    (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		if ((path = path_join(parent, s)) != NULL)
			(void)rm_tree(path);
		free(path);
	}
	closedir(d);
}

/* May dir be replaced?  0 when it does not exist, is empty or holds SITE_MARKER. */
static int replaceable(const char *dir, int *exists, struct plumb_err *err)
{
	struct stat st;
	struct dirent *e;
	char *marker;
	int empty = 1, marked;
	DIR *d;

	*exists = 0;
	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "stat");
	}
	if (!S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a folder; --archive-index writes a folder", dir);
	*exists = 1;
	if (!(marker = path_join(dir, SITE_MARKER)))
		return plumb_err_oom(err, "archive index");
	marked = lstat(marker, &st) == 0 && S_ISREG(st.st_mode);
	free(marker);
	if (marked)
		return 0;
	if (!(d = opendir(dir)))
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "open");
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	if (!empty)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: a folder that the archive index did not write "
				     "(no %s in it); give an empty or new folder", dir, SITE_MARKER);
	return 0;
}

/* ---- the pieces of the pages ---- */

/* The class of an archived verdict: its name, of "unswept-faster" the
 * verdict's ("unswept"), "failed", else "none". */
static const char *verdict_class(const char *v)
{
	enum verdict k = verdict_from_name(v);
	const char *dash = v ? strchr(v, '-') : NULL;
	char head[32];

	if (!v)
		return "none";
	if (k != VERDICT_UNSET)
		return verdict_table[k].name;
	if (strcmp(v, "failed") == 0)
		return "failed";
	if (dash && (size_t)(dash - v) < sizeof(head)) {
		memcpy(head, v, (size_t)(dash - v));
		head[dash - v] = '\0';
		k = verdict_from_name(head);
		if (verdict_directed(k))
			return verdict_table[k].name;
	}
	return "none";
}

static enum metric_id metric_of(const char *name)
{
	enum metric_id m;

	return name && metric_parse(name, &m) == 0 ? m : METRIC_CYCLES;
}

/* <a href="FILE">TEXT</a>; file names are made here and need no escaping but get it. */
static int a_link(struct buf *out, const char *file, const char *text)
{
	int rc = 0;

	rc |= buf_addstr(out, "<a href=\"");
	rc |= esc_html(out, file);
	rc |= buf_addstr(out, "\">");
	rc |= esc_html(out, text);
	rc |= buf_addstr(out, "</a>");
	return rc;
}

static int nav(struct buf *out, const char *fp, const char *host_file)
{
	int rc = 0;

	rc |= buf_addstr(out, "<nav class=\"meta\"><a href=\"index.html\">archive index</a>");
	if (fp) {
		rc |= buf_addstr(out, " \u203a host class ");
		rc |= a_link(out, host_file, fp);
	}
	rc |= buf_addstr(out, "</nav>\n");
	return rc;
}

/*
 * A series' row for the class page and the index: {bench, project, metric,
 * file, points, latest (its last point: verdict, center, ratio, created,
 * commit), changes}.
 */
static json_t *series_row(const struct trend_series *s, const char *file)
{
	const struct query_trend_point *p = s->n ? &s->t->points[s->n - 1] : NULL;
	json_t *latest = p ? json_object() : NULL;

	if (p && (!latest || jsonio_set(latest, "verdict", jsonio_str(p->verdict)) |
				     jsonio_set(latest, "center", jsonio_real(p->center)) |
				     jsonio_set(latest, "ratio", jsonio_real(p->ratio)) |
				     jsonio_set(latest, "created", jsonio_str(p->created)) |
				     jsonio_set(latest, "commit", jsonio_str(p->commit)))) {
		json_decref(latest);
		return NULL;
	}
	return json_pack("{s:s?, s:s?, s:s?, s:s, s:I, s:o?, s:O}",
			 "bench", s->t->bench, "project", s->t->project, "metric", s->t->metric,
			 "file", file, "points", (json_int_t)s->n, "latest", latest,
			 "changes", s->changes);
}

/*
 * The benchmarks' latest nights.  The verdict comes right after the name,
 * so that a phone shows it without scrolling the table sideways.
 */
static int bench_table(struct buf *out, const json_t *rows)
{
	int rc = 0;

	rc |= buf_addstr(out, "<div class=\"scroll\"><table class=\"benches\">\n<tr><th>benchmark</th>"
			 "<th>verdict</th><th>ratio</th><th>change points</th><th>latest night</th>"
			 "<th>commit</th><th>center</th><th>metric</th></tr>\n");
	for (size_t i = 0; i < json_array_size(rows); i++) {
		const json_t *r = json_array_get(rows, i), *p = json_object_get(r, "latest");
		const json_t *ch = json_object_get(r, "changes");
		const char *v = jsonio_get_str(p, "verdict", NULL);
		size_t nc = json_array_size(ch);
		char c[UNITS_MAX], ratio[UNITS_MAX];

		units_value(jsonio_get_num(p, "center"),
			    metric_dim(metric_of(jsonio_get_str(r, "metric", NULL))), 0, c);
		units_ratio(jsonio_get_num(p, "ratio"), ratio);
		rc |= buf_addstr(out, "<tr><td>");
		rc |= a_link(out, jsonio_get_str(r, "file", NULL), jsonio_get_str(r, "bench", "?"));
		rc |= buf_addstr(out, "</td><td>");
		rc |= html_badge(out, verdict_class(v), v ? v : "none");
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td class=\"num\">%zu", ratio, nc);
		if (nc) {
			const json_t *last = json_array_get(ch, nc - 1);
			char size[96];
			trend_change_size(last, size, sizeof(size));
			/* Below the count, small: the table fits a desktop's width. */
			rc |= buf_addstr(out, "<br/><span class=\"interval\">(latest ");
			rc |= esc_html(out, jsonio_get_str(last, "direction", "?"));
			rc |= buf_addch(out, ' ');
			rc |= esc_html(out, size);
			rc |= buf_addstr(out, ")</span>");
		}
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		/* The night: when it ran, not when its commit was made. */
		rc |= esc_html(out, jsonio_get_str(p, "created", ""));
		rc |= buf_addstr(out, "</td><td class=\"key\">");
		rc |= html_commit(out, jsonio_get_str(p, "commit", NULL));
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td>", c);
		rc |= esc_html(out, jsonio_get_str(r, "metric", ""));
		rc |= buf_addstr(out, "</td></tr>\n");
	}
	rc |= buf_addstr(out, "</table></div>\n");
	return rc;
}

/* One line of a class's facts: CPU model, CPUs, kernel, governor, turbo. */
static int class_line(struct buf *out, const json_t *h)
{
	struct buf line;
	int rc;

	buf_init(&line, 1 << 16);
	rc = phrase_host(json_object_get(h, "facts"), &line);
	rc |= esc_html(out, buf_cstr(&line));
	buf_release(&line);
	return rc;
}

static int fact_row(struct buf *out, const char *what, const json_t *v)
{
	char num[32];
	int rc = 0;

	rc |= buf_addstr(out, "<dt>");
	rc |= esc_html(out, what);
	rc |= buf_addstr(out, "</dt><dd>");
	if (json_is_string(v))
		rc |= esc_html(out, json_string_value(v));
	else if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		rc |= buf_addstr(out, num);
	} else if (json_is_boolean(v))
		rc |= buf_addstr(out, json_is_true(v) ? "on" : "off");
	else
		rc |= buf_addstr(out, "unknown");
	rc |= buf_addstr(out, "</dd>\n");
	return rc;
}

/* Newest first by the first night after; then by benchmark. */
static int newest_first(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	const char *ta = jsonio_get_str(json_object_get(x, "first_after"), "time", NULL);
	const char *tb = jsonio_get_str(json_object_get(y, "first_after"), "time", NULL);
	int c = strcmp(tb ? tb : "", ta ? ta : "");

	return c ? c : strcmp(jsonio_get_str(x, "bench", ""), jsonio_get_str(y, "bench", ""));
}

/* The change points of every series of a class, newest first, each with its page. */
static int class_changes(struct buf *out, const json_t *rows)
{
	json_t **v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < json_array_size(rows); i++) {
		const json_t *r = json_array_get(rows, i), *ch = json_object_get(r, "changes");
		for (size_t k = 0; k < json_array_size(ch); k++) {
			json_t *c = json_copy(json_array_get(ch, k));
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 16;
				json_t **g = realloc(v, nc * sizeof(*g));
				if (!g) {
					json_decref(c);
					rc = -1;
					goto done;
				}
				v = g;
				cap = nc;
			}
			if (!c || json_object_set(c, "bench", json_object_get(r, "bench")) ||
			    json_object_set(c, "file", json_object_get(r, "file"))) {
				json_decref(c);
				rc = -1;
				goto done;
			}
			v[n++] = c;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), newest_first);
	rc |= buf_printf(out, "<section class=\"changes\"><h2>Change points</h2>\n<p>%zu change point%s "
			 "over the benchmarks of this class (docs/changes.md), newest first.</p>\n",
			 n, n == 1 ? "" : "s");
	if (n)
		rc |= buf_addstr(out, "<div class=\"scroll\"><table class=\"benches\">\n<tr><th>benchmark</th>"
				 "<th>direction</th><th>size [95%]</th><th>first night after</th>"
				 "<th>commits</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		char size[96];
		trend_change_size(v[i], size, sizeof(size));
		rc |= buf_addstr(out, "<tr class=\"differs\"><td>");
		rc |= a_link(out, jsonio_get_str(v[i], "file", NULL), jsonio_get_str(v[i], "bench", "?"));
		rc |= buf_addstr(out, "</td><td>");
		rc |= esc_html(out, jsonio_get_str(v[i], "direction", ""));
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		rc |= esc_html(out, size);
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		rc |= esc_html(out, jsonio_get_str(json_object_get(v[i], "first_after"), "time", NULL) ?
			       jsonio_get_str(json_object_get(v[i], "first_after"), "time", NULL) : "?");
		rc |= buf_addstr(out, "</td><td class=\"key\">");
		rc |= html_commit(out, jsonio_get_str(json_object_get(v[i], "last_before"), "commit", NULL));
		rc |= buf_addstr(out, "..");
		rc |= html_commit(out, jsonio_get_str(json_object_get(v[i], "first_after"), "commit", NULL));
		if (jsonio_get_str(v[i], "cause", NULL) && strcmp(jsonio_get_str(v[i], "cause", NULL), "host") == 0)
			rc |= buf_addstr(out, " (the host: the same commit on both nights, never gated)");
		rc |= buf_addstr(out, "</td></tr>\n");
	}
	if (n)
		rc |= buf_addstr(out, "</table></div>\n");
	rc |= buf_addstr(out, "</section>\n");
done:
	for (size_t i = 0; i < n; i++)
		json_decref(v[i]);
	free(v);
	return rc;
}

static int class_page(struct buf *out, const json_t *h, const json_t *rows)
{
	static const struct { const char *what, *member; } facts[] = {
		{ "CPU model", "cpuModel" }, { "CPUs", "cpus" }, { "physical cores", "cores" },
		{ "kernel", "kernel" }, { "governor", "governor" }, { "turbo", "turbo" },
		{ "SMT", "smt" }, { "bundles", "bundles" }, { "benchmarks", "benchmarks" },
		{ "first bundle", "first" }, { "last bundle", "last" },
	};
	const char *fp = jsonio_get_str(h, "fingerprint", NULL);
	char title[300];
	int rc = 0;

	snprintf(title, sizeof(title), "plumb archive: host class %s", fp);
	utf8_cut(title);
	rc |= html_begin(out, title);
	rc |= nav(out, NULL, NULL);
	rc |= buf_addstr(out, "<header>\n<h1>Host class ");
	rc |= esc_html(out, fp);
	rc |= buf_addstr(out, "</h1>\n<p class=\"meta\">");
	rc |= class_line(out, h);
	rc |= buf_addstr(out, ". Results of this class are compared only with each other.</p>\n"
			 "</header>\n<section class=\"facts\"><h2>Facts</h2>\n<dl class=\"numbers\">\n");
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		rc |= fact_row(out, facts[i].what, json_object_get(h, facts[i].member));
	rc |= buf_addstr(out, "</dl>\n</section>\n<section class=\"series\"><h2>Benchmarks</h2>\n");
	rc |= bench_table(out, rows);
	rc |= buf_addstr(out, "</section>\n");
	rc |= class_changes(out, rows);
	rc |= html_end(out);
	return rc;
}

static int index_page(struct buf *out, const json_t *hosts, const json_t *classes, size_t series)
{
	size_t k = json_array_size(classes);
	int rc = 0;

	rc |= html_begin(out, "plumb archive");
	rc |= buf_printf(out, "<header>\n<h1>plumb archive</h1>\n<p class=\"meta\">%zu host class%s, "
			 "%zu benchmark series: the latest night of each benchmark on each class. "
			 "Each class is its own series; results of different classes are never "
			 "compared.</p>\n</header>\n", k, k == 1 ? "" : "es", series);
	if (k == 0)
		rc |= buf_addstr(out, "<p>The archive holds no results with host facts.</p>\n");
	for (size_t i = 0; i < k; i++) {
		const json_t *c = json_array_get(classes, i);
		const json_t *h = json_array_get(hosts, (size_t)json_integer_value(json_object_get(c, "host")));
		rc |= buf_printf(out, "<section class=\"hostclass\" id=\"class-%zu\">\n<h2>Host class ", i);
		rc |= a_link(out, jsonio_get_str(c, "file", NULL), jsonio_get_str(h, "fingerprint", NULL));
		rc |= buf_addstr(out, "</h2>\n<p class=\"meta\">");
		rc |= class_line(out, h);
		rc |= buf_printf(out, "; %lld bundles, the last made ",
				 (long long)json_integer_value(json_object_get(h, "bundles")));
		rc |= esc_html(out, jsonio_get_str(h, "last", "?"));
		rc |= buf_addstr(out, ".</p>\n");
		rc |= bench_table(out, json_object_get(c, "rows"));
		rc |= buf_addstr(out, "</section>\n");
	}
	rc |= html_end(out);
	return rc;
}

/* ---- the walk ---- */

/* Every series of the class h into dir; its rows appended to rows. */
static int write_class(struct store *st, const json_t *h, const char *host_file, const char *dir,
		       json_t *rows, struct site_result *res, struct plumb_err *err)
{
	const char *fp = jsonio_get_str(h, "fingerprint", NULL);
	json_t *names = NULL;
	struct buf page, top;
	int r;

	if ((r = hosts_benches(st, fp, &names, err)) < 0)
		return r;
	buf_init(&page, SITE_PAGE_MAX);
	buf_init(&top, 1 << 16);
	if (nav(&top, fp, host_file))
		r = buf_err(err, "archive index");
	for (size_t i = 0; r == 0 && i < json_array_size(names); i++) {
		const json_t *pb = json_array_get(names, i);
		const char *bench = jsonio_get_str(pb, "bench", NULL), *project = jsonio_get_str(pb, "project", NULL);
		struct query_trend q = { bench, NULL, fp, 0, project ? project : "" };
		struct query_trend_result t;
		struct trend_series ts;
		json_t *row = NULL;
		char file[128];

		if (cleanup_signal_pending()) {
			r = plumb_err_set(err, PLUMB_EINTERNAL, "archive index: interrupted");
			break;
		}
		if (bench_page(fp, project, bench, file) < 0) {
			r = plumb_err_oom(err, "archive index");
			break;
		}
		if ((r = query_trend(st, &q, &t, err)) < 0)
			break;
		if ((r = trend_series_find(&t, &ts, err)) == 0) {
			buf_reset(&page);
			if ((r = trend_render_page(&t, buf_cstr(&top), &page, err)) == 0)
				r = put_page(dir, file, &page, err);
			row = r == 0 ? series_row(&ts, file) : NULL;
			trend_series_release(&ts);
		}
		query_trend_release(&t);
		if (r == 0 && (!row || json_array_append_new(rows, row)))
			r = plumb_err_oom(err, "archive index");
		if (r == 0) {
			res->series++;
			res->pages++;
		}
	}
	buf_release(&top);
	buf_release(&page);
	json_decref(names);
	return r;
}

/* Every page into the folder dir, which exists and is empty. */
static int write_pages(struct store *st, const char *dir, struct site_result *res,
		       struct plumb_err *err)
{
	json_t *model = NULL, *classes = json_array(), *hosts;
	struct buf page;
	int r;

	if (!classes)
		return plumb_err_oom(err, "archive index");
	if ((r = hostclass_list(st, &model, err)) < 0) {
		json_decref(classes);
		return r;
	}
	hosts = json_object_get(model, "hosts");
	buf_init(&page, SITE_PAGE_MAX);
	for (size_t i = 0; r == 0 && i < json_array_size(hosts); i++) {
		const json_t *h = json_array_get(hosts, i);
		json_t *rows = json_array(), *c;
		char file[128];

		if (json_integer_value(json_object_get(h, "benchmarks")) == 0 ||
		    !jsonio_get_str(h, "fingerprint", NULL)) {
			json_decref(rows);
			continue;
		}
		host_page(jsonio_get_str(h, "fingerprint", NULL), file);
		c = json_pack("{s:I, s:s, s:o}", "host", (json_int_t)i, "file", file, "rows", rows);
		if (!c || json_array_append_new(classes, c)) {
			r = plumb_err_oom(err, "archive index");
			break;
		}
		rows = json_object_get(c, "rows");
		if ((r = write_class(st, h, file, dir, rows, res, err)) < 0)
			break;
		buf_reset(&page);
		if (class_page(&page, h, rows))
			r = buf_err(err, "archive index");
		else
			r = put_page(dir, file, &page, err);
		res->classes++;
		res->pages++;
	}
	if (r == 0) {
		buf_reset(&page);
		if (index_page(&page, hosts, classes, res->series))
			r = buf_err(err, "archive index");
		else
			r = put_page(dir, "index.html", &page, err);
		res->pages++;
	}
	if (r == 0) {
		buf_reset(&page);
		if (buf_addstr(&page, "plumb archive index: this folder is replaced whole by "
			       "`plumb report --archive-index`\n"))
			r = buf_err(err, "archive index");
		else
			r = put_page(dir, SITE_MARKER, &page, err);
	}
	buf_release(&page);
	json_decref(classes);
	json_decref(model);
	return r;
}

/* Put the finished folder tmp in out's place; the old out is removed. */
static int publish(const char *tmp, const char *out, int exists, struct plumb_err *err)
{
	int r = 0;

	if (!exists) {
		if (rename(tmp, out) < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, out, "rename");
	} else if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_EXCHANGE) < 0) {
		/* No exchange on this file system: two renames, the old one aside first. */
		size_t n = strlen(tmp) + 5;
		char *old = malloc(n);
		if (!old)
			return plumb_err_oom(err, "archive index");
		snprintf(old, n, "%s.old", tmp);
		if (rename(out, old) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, out, "rename");
		} else if (rename(tmp, out) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, out, "rename");
			(void)rename(old, out);
		} else {
			(void)rm_tree(old);
		}
		free(old);
		if (r < 0)
			return r;
	} else {
		/* tmp now holds the old site. */
		(void)rm_tree(tmp);
	}
	return fsync_parent(out, err);
}

int site_write(const struct site_opts *o, struct site_result *res, struct plumb_err *err)
{
	char *out = NULL, *parent = NULL, *tmp = NULL, *dir = NULL;
	const char *base;
	struct store st;
	int exists = 0, r, fd;
	size_t n;

	memset(res, 0, sizeof(*res));
	if (!o->out || !*o->out)
		return plumb_err_set(err, PLUMB_EARG, "--archive-index: -o DIR is needed");
	if (!(out = strdup(o->out)))
		return plumb_err_oom(err, "archive index");
	for (n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
		out[n - 1] = '\0';
	base = strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		r = plumb_err_set(err, PLUMB_EARG, "-o %s: name a folder to write, not '%s'", o->out, out);
		goto done;
	}
	if ((r = replaceable(out, &exists, err)) < 0)
		goto done;
	if (!(parent = path_dirname(out))) {
		r = plumb_err_oom(err, "archive index");
		goto done;
	}
	sweep(parent, base);
	n = strlen(parent) + strlen(base) + 64;
	if (!(tmp = malloc(n))) {
		r = plumb_err_oom(err, "archive index");
		goto done;
	}
	snprintf(tmp, n, "%s/.%s.site.%ld.XXXXXX", parent, base, (long)getpid());
	if (!mkdtemp(tmp)) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, out, "create a folder beside");
		free(tmp);
		tmp = NULL;
		goto done;
	}
	if (chmod(tmp, 0755) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, tmp, "chmod");
		goto done;
	}
	if ((r = store_locate(o->archive_dir, &dir, err)) < 0 ||
	    (r = store_open(&st, dir, STORE_READONLY, err)) < 0)
		goto done;
	r = write_pages(&st, tmp, res, err);
	store_close(&st);
	/* Every page and the folder on disk before the rename publishes them: one syncfs(). */
	if (r == 0 && (fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		if (syncfs(fd) < 0 || fsync(fd) < 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, tmp, "sync");
		close(fd);
	} else if (r == 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, tmp, "open");
	}
	if (r == 0 && (r = publish(tmp, out, exists, err)) == 0) {
		free(tmp);
		tmp = NULL;
	}
done:
	if (tmp)
		(void)rm_tree(tmp);
	free(tmp);
	free(parent);
	free(dir);
	free(out);
	return r;
}
