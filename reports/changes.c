/*
 * reports/changes.c: from archived series to change point models.  The
 * method is stats/changepoint.c; this is where a night is made of what the
 * archive holds (its pad medians, else its center) and where a change is
 * named by the commits either side of it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive/hosts.h"
#include "archive/query.h"
#include "archive/store.h"
#include "common/err.h"
#include "formats/manifest.h"
#include "reports/changes.h"
#include "formats/jsonio.h"
#include "common/banned.h"

const char *changes_series_name(enum changes_series s)
{
	return s == CHANGES_WITHIN ? "within-night" : "level";
}

/* The mean of k numbers, NAN when k is 0 or one is not finite. */
static double mean_of(const double *v, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < k; i++) {
		if (!isfinite(v[i]))
			return NAN;
		sum += v[i];
	}
	return k ? sum / (double)k : NAN;
}

struct cp_night changes_night(const struct changes_obs *o, enum changes_series s)
{
	struct cp_night x = { NAN, NAN };
	double mc = mean_of(o->pads, o->npads), mb;

	if (s == CHANGES_WITHIN) {
		mb = mean_of(o->base_pads, o->nbase);
		if (isfinite(mc) && isfinite(mb) && mb != 0) {
			x = cp_night_of(o->pads, o->npads);
			x.level = mc / mb;
			x.var = x.var / (mb * mb);
		} else if (isfinite(o->ratio)) {
			x.level = o->ratio;
		} else if (isfinite(o->center) && isfinite(o->base_center) && o->base_center != 0) {
			x.level = o->center / o->base_center;
		}
		return x;
	}
	if (isfinite(mc))
		return cp_night_of(o->pads, o->npads);
	if (isfinite(o->center))
		x.level = o->center;
	else if (isfinite(o->min) && isfinite(o->max))
		x.level = (o->min + o->max) / 2;
	return x;
}

enum changes_series changes_series_of(const struct changes_obs *o, size_t n, const char **base)
{
	const char *b = NULL;

	*base = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(changes_night(&o[i], CHANGES_LEVEL).level))
			continue;
		if (!o[i].base_commit || (b && strcmp(b, o[i].base_commit) != 0) ||
		    !isfinite(changes_night(&o[i], CHANGES_WITHIN).level))
			return CHANGES_LEVEL;
		b = o[i].base_commit;
	}
	if (!b)
		return CHANGES_LEVEL;
	*base = b;
	return CHANGES_WITHIN;
}

int changes_is_host(const struct changes_ref *before, const struct changes_ref *after)
{
	return before->commit && after->commit && strcmp(before->commit, after->commit) == 0;
}

int changes_find(const struct cp_night *x, size_t n, struct cp_change **out, size_t *nout,
		 double *noise, struct plumb_err *err)
{
	struct cp_night *y = NULL;
	size_t *idx = NULL, m = 0;
	struct cp_params p;
	int r = 0;

	*out = NULL;
	*nout = 0;
	*noise = NAN;
	if (n == 0)
		return 0;
	y = malloc(n * sizeof(*y));
	idx = malloc(n * sizeof(*idx));
	*out = malloc((n / 2 + 1) * sizeof(**out));
	if (!y || !idx || !*out) {
		r = plumb_err_oom(err, "changes");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i].level)) {
			idx[m] = i;
			y[m++] = x[i];
		}
	cp_params_default(&p);
	if (cp_find(y, m, &p, *out, n / 2 + 1, nout, noise) < 0) {
		r = plumb_err_oom(err, "changes");
		goto done;
	}
	for (size_t i = 0; i < *nout; i++)
		(*out)[i].at = idx[(*out)[i].at];
done:
	if (r < 0) {
		free(*out);
		*out = NULL;
	}
	free(y);
	free(idx);
	return r;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ref_object(const struct changes_ref *r)
{
	json_t *o = json_object();

	if (!o || json_object_set_new(o, "commit", jsonio_str(r->commit)) ||
	    json_object_set_new(o, "time", jsonio_str(r->time)) ||
	    json_object_set_new(o, "bundle", jsonio_str(r->bundle))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *changes_object(const struct cp_change *c, const struct changes_ref *last_before,
		       const struct changes_ref *first_after, enum changes_series series)
{
	json_t *o = json_object(), *b = ref_object(last_before), *a = ref_object(first_after);
	char range[100];
	int bad = !o || !b || !a;

	snprintf(range, sizeof(range), "%.40s..%.40s", last_before->commit ? last_before->commit : "?",
		 first_after->commit ? first_after->commit : "?");
	if (!bad) {
		bad |= json_object_set_new(o, "direction", json_string(c->after > c->before ? "up" : "down"));
		bad |= json_object_set_new(o, "ratio", num_or_null(c->ratio));
		bad |= json_object_set_new(o, "low", num_or_null(c->lo));
		bad |= json_object_set_new(o, "high", num_or_null(c->hi));
		bad |= json_object_set_new(o, "z", num_or_null(c->z));
		bad |= json_object_set_new(o, "before", num_or_null(c->before));
		bad |= json_object_set_new(o, "after", num_or_null(c->after));
		bad |= json_object_set_new(o, "nights_before", json_integer((json_int_t)c->n_before));
		bad |= json_object_set_new(o, "nights_after", json_integer((json_int_t)c->n_after));
		bad |= json_object_set_new(o, "commits", json_string(range));
		bad |= json_object_set_new(o, "series", json_string(changes_series_name(series)));
		bad |= json_object_set_new(o, "cause", json_string(changes_is_host(last_before, first_after) ?
								   "host" : "commits"));
		bad |= json_object_set_new(o, "last_before", b);
		b = NULL;
		bad |= json_object_set_new(o, "first_after", a);
		a = NULL;
	}
	json_decref(a);
	json_decref(b);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- every series of a host ---- */

struct host_walk {
	const char *host;   /* the class being walked */
	int64_t since;
	json_t *changes;
	size_t series, nights;
	struct cp_night *x;
	struct changes_obs *obs;
	size_t cap;
	struct plumb_err *err;
};

static void ref_of(const struct query_night *q, char t[MANIFEST_TIME_MAX], struct changes_ref *r)
{
	if (manifest_time_format(q->at, t) < 0)
		t[0] = '\0';
	r->commit = q->commit;
	r->time = t[0] ? t : NULL;
	r->bundle = q->bundle;
}

static int one_series(const struct query_series *s, void *arg)
{
	struct host_walk *w = arg;
	enum changes_series series;
	struct cp_change *c;
	const char *base;
	size_t nc;
	double noise;

	w->series++;
	w->nights += s->n;
	if (s->n > w->cap) {
		struct cp_night *g = realloc(w->x, s->n * sizeof(*g));
		struct changes_obs *h;
		if (g)
			w->x = g;
		h = g ? realloc(w->obs, s->n * sizeof(*h)) : NULL;
		if (!h)
			return plumb_err_oom(w->err, "changes");
		w->obs = h;
		w->cap = s->n;
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct query_night *q = &s->nights[i];
		struct changes_obs *o = &w->obs[i];
		o->pads = s->pads + q->pad0;
		o->npads = q->npads;
		o->center = q->center;
		o->min = q->min;
		o->max = q->max;
		o->base_pads = s->pads + q->base_pad0;
		o->nbase = q->base_npads;
		o->base_center = q->base_center;
		o->ratio = q->ratio;
		o->commit = q->commit;
		o->base_commit = q->base_commit;
	}
	series = changes_series_of(w->obs, s->n, &base);
	for (size_t i = 0; i < s->n; i++)
		w->x[i] = changes_night(&w->obs[i], series);
	if (changes_find(w->x, s->n, &c, &nc, &noise, w->err) < 0)
		return w->err->code;
	for (size_t i = 0; i < nc; i++) {
		const struct query_night *after = &s->nights[c[i].at];
		const struct query_night *before = &s->nights[c[i].at - 1];
		char ta[MANIFEST_TIME_MAX], tb[MANIFEST_TIME_MAX];
		struct changes_ref ra, rb;
		json_t *o;

		if (after->at < w->since)
			continue;
		/* The last night before with a level: the one the test compared with. */
		for (size_t k = c[i].at; k-- > 0;)
			if (isfinite(w->x[k].level)) {
				before = &s->nights[k];
				break;
			}
		ref_of(after, ta, &ra);
		ref_of(before, tb, &rb);
		o = changes_object(&c[i], &rb, &ra, series);
		if (!o || json_object_set_new(o, "bench", json_string(s->bench)) ||
		    json_object_set_new(o, "project", *s->project ? json_string(s->project)
								   : json_null()) ||
		    json_object_set_new(o, "host", json_string(w->host)) ||
		    json_object_set_new(o, "metric", jsonio_str(s->metric)) ||
		    json_object_set_new(o, "at", json_integer(after->at)) ||
		    json_array_append_new(w->changes, o)) {
			free(c);
			return plumb_err_oom(w->err, "changes");
		}
	}
	free(c);
	return 0;
}

/* Newest first; one time: by benchmark name, then host class. */
static int newest_first(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t ta = json_integer_value(json_object_get(x, "at"));
	json_int_t tb = json_integer_value(json_object_get(y, "at"));

	int c;

	if (ta != tb)
		return ta > tb ? -1 : 1;
	c = strcmp(json_string_value(json_object_get(x, "bench")),
		   json_string_value(json_object_get(y, "bench")));
	return c ? c : strcmp(json_string_value(json_object_get(x, "host")),
			      json_string_value(json_object_get(y, "host")));
}

int changes_of_host(const struct changes_opts *o, json_t **out, struct plumb_err *err)
{
	struct host_walk w;
	struct store st;
	char fp[256] = "", *dir = NULL;
	json_t **v = NULL, *sorted = NULL, *m = NULL, *walked = NULL;
	size_t n;
	int r;

	*out = NULL;
	memset(&w, 0, sizeof(w));
	w.err = err;
	if (o->since && query_parse_since(o->since, &w.since) < 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "--since: '%s' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC)",
				     o->since);
	if (!o->since)
		w.since = INT64_MIN;
	if ((r = store_locate(o->archive_dir, &dir, err)) < 0)
		return r;
	r = store_open(&st, dir, STORE_READONLY, err);
	free(dir);
	if (r < 0)
		return r;
	if (!(w.changes = json_array())) {
		store_close(&st);
		return plumb_err_oom(err, "changes");
	}
	/* --host: that class; else every class, each change naming its own. */
	if (o->host) {
		int64_t id;
		if ((r = query_host(&st, o->host, &id, fp, sizeof(fp), err)) == 0 &&
		    !(walked = json_pack("[s]", fp)))
			r = plumb_err_oom(err, "changes");
	} else if ((r = hosts_classes(&st, &walked, err)) == 0 && json_array_size(walked) == 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "no results with host facts in the archive");
	}
	for (size_t i = 0; r == 0 && i < json_array_size(walked); i++) {
		w.host = json_string_value(json_array_get(walked, i));
		r = query_each_series(&st, w.host, o->project, fp, sizeof(fp), one_series, &w, err);
	}
	store_close(&st);
	free(w.x);
	free(w.obs);
	if (r < 0)
		goto done;
	n = json_array_size(w.changes);
	v = malloc((n + 1) * sizeof(*v));
	sorted = json_array();
	m = json_object();
	if (!v || !sorted || !m) {
		r = plumb_err_oom(err, "changes");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(w.changes, i);
	qsort(v, n, sizeof(*v), newest_first);
	for (size_t i = 0; i < n; i++) {
		json_object_del(v[i], "at");
		if (json_array_append(sorted, v[i])) {
			r = plumb_err_oom(err, "changes");
			goto done;
		}
	}
	if (json_object_set_new(m, "host", json_array_size(walked) == 1 ?
				json_incref(json_array_get(walked, 0)) : json_null()) ||
	    json_object_set(m, "hosts", walked) ||
	    json_object_set_new(m, "since", jsonio_str(o->since)) ||
	    json_object_set_new(m, "series", json_integer((json_int_t)w.series)) ||
	    json_object_set_new(m, "nights", json_integer((json_int_t)w.nights)) ||
	    json_object_set_new(m, "changes", sorted)) {
		sorted = NULL;
		r = plumb_err_oom(err, "changes");
		goto done;
	}
	sorted = NULL;
	*out = m;
	m = NULL;
done:
	free(v);
	json_decref(sorted);
	json_decref(m);
	json_decref(w.changes);
	json_decref(walked);
	return r;
}
