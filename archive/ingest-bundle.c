/*
 * archive/ingest-bundle.c: a bundle file to a struct ingest_record,
 * through the bundle library (formats/bundle.h), which verifies every
 * member, limit and checksum, and the manifest model (formats/manifest.h).
 * The only file of archive/ that knows either.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive/ingest.h"
#include "common/err.h"
#include "formats/bundle.h"
#include "formats/manifest.h"
#include "common/banned.h"

/* *slot = copy of s (NULL stays NULL); -1 when out of memory. */
static int dup_str(char **slot, const char *s)
{
	*slot = NULL;
	if (!s)
		return 0;
	*slot = strdup(s);
	return *slot ? 0 : -1;
}

static int ref_from(struct ingest_ref *r, const struct manifest_commit *c)
{
	int64_t t;

	if (dup_str(&r->ref, c->ref) < 0 || dup_str(&r->commit, c->commit) < 0)
		return -1;
	if (c->time && manifest_time_parse(c->time, &t) == 0) {
		r->time = t;
		r->has_time = 1;
	}
	return 0;
}

static int side_from(struct ingest_side *d, const struct manifest_side_stats *s)
{
	if (!s->present)
		return 0;
	d->center = s->center;
	d->min = s->min;
	d->max = s->max;
	d->spread = s->spread;
	/* The manifest may leave the spread out; it is defined by the others. */
	if (isnan(d->spread) && isfinite(s->center) && s->center != 0)
		d->spread = (s->max - s->min) / s->center;
	if (s->n_pads) {
		d->pads = malloc(s->n_pads * sizeof(*d->pads));
		if (!d->pads)
			return -1;
		memcpy(d->pads, s->pads, s->n_pads * sizeof(*d->pads));
		d->npads = s->n_pads;
	}
	return 0;
}

/* The verdict as the archive keeps it: "slower", "unswept-faster", "failed"... */
static int verdict_from(char **slot, const struct manifest_bench *b)
{
	const char *v = verdict_name(b->verdict);
	const char *d = manifest_direction_name(b->direction);
	char text[64];

	if (b->failure && !v)
		return dup_str(slot, "failed");
	if (!v)
		return dup_str(slot, NULL);
	if (b->verdict == VERDICT_UNSWEPT && d) {
		snprintf(text, sizeof(text), "%s-%s", v, d);
		return dup_str(slot, text);
	}
	return dup_str(slot, v);
}

/*
 * The host fingerprint: host.fingerprint, else the one inside the start
 * facts (runner/host-json.h writes it there), else none.  Never recomputed
 * here: the facts of an old bundle are what they are.
 */
static const char *fingerprint_of(const struct manifest *m)
{
	const char *fp = m->host.fingerprint;

	if (!fp || !*fp)
		fp = json_string_value(json_object_get(m->host.start, "fingerprint"));
	return fp && *fp ? fp : NULL;
}

int ingest_from_manifest(const struct manifest *m, struct ingest_record *rec,
			 struct plumb_err *err)
{
	char text[128];
	int64_t created;

	if (!m->created || manifest_time_parse(m->created, &created) < 0)
		return plumb_err_set(err, PLUMB_EINPUT, "created: not an RFC 3339 UTC time");
	rec->created = created;
	if (m->tool.name && strcmp(m->tool.name, "plumb") != 0)
		snprintf(text, sizeof(text), "%s %s", m->tool.name, m->tool.version ? m->tool.version : "");
	else
		snprintf(text, sizeof(text), "%s", m->tool.version ? m->tool.version : "");
	if (dup_str(&rec->plumb_version, text) < 0)
		goto oom;
	snprintf(text, sizeof(text), "%d.%lld", MANIFEST_VERSION_MAJOR, (long long)m->version_minor);
	if (dup_str(&rec->format_version, text) < 0 ||
	    dup_str(&rec->repo, m->repo.url) < 0 ||
	    dup_str(&rec->project, m->run.project ? m->run.project : m->repo.url) < 0 ||
	    ref_from(&rec->base, &m->repo.base) < 0 ||
	    ref_from(&rec->cand, &m->repo.candidate) < 0 ||
	    dup_str(&rec->host_fingerprint, fingerprint_of(m)) < 0)
		goto oom;
	if (rec->host_fingerprint && m->host.start) {
		rec->host_facts = json_dumps(m->host.start, JSON_COMPACT | JSON_SORT_KEYS);
		if (!rec->host_facts)
			goto oom;
	}
	for (size_t i = 0; i < m->run.n_labels; i++)
		if (ingest_add_label(rec, m->run.labels[i].key, m->run.labels[i].value) < 0)
			goto oom;
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct manifest_bench *mb = &m->benches[i];
		struct ingest_bench *b = ingest_add_bench(rec);
		if (!b || dup_str(&b->name, mb->name) < 0 ||
		    dup_str(&b->mode, manifest_mode_name(mb->mode)) < 0 ||
		    dup_str(&b->metric, metric_name(mb->metric)) < 0 ||
		    verdict_from(&b->verdict, mb) < 0 ||
		    side_from(&b->base, &mb->base) < 0 ||
		    side_from(&b->cand, &mb->candidate) < 0)
			goto oom;
		b->ratio = mb->ratio;
		if (isnan(b->ratio) && mb->base.present && mb->candidate.present &&
		    mb->base.center != 0)
			b->ratio = mb->candidate.center / mb->base.center;
		if (mb->noise.present)
			b->noise = mb->noise.relative;
	}
	return 0;
oom:
	return plumb_err_oom(err, "archive record");
}

/* After a successful verification: the record from the bundle's info. */
static int from_info(const struct bundle_info *info, struct ingest_record *rec,
		     const char *name, struct plumb_err *err)
{
	int r;

	snprintf(rec->id, sizeof(rec->id), "%s", info->id);
	switch (info->sig) {
	case BUNDLE_SIG_GOOD:
		rec->signature = "verified";
		break;
	case BUNDLE_SIG_UNCHECKED:
		rec->signature = "present";
		break;
	default:
		rec->signature = "none";
		break;
	}
	if (info->sig != BUNDLE_SIG_NONE) {
		snprintf(rec->sig_key, sizeof(rec->sig_key), "%s", info->sig_keyid);
		if (!(rec->sig_comment = strdup(info->sig_comment)))
			return plumb_err_oom(err, "archive record");
	}
	if ((r = ingest_from_manifest(&info->manifest, rec, err)) < 0)
		return plumb_err_prefix(err, "%s: manifest.json", name);
	return 0;
}

int ingest_read_bundle_fd(int fd, const char *name, struct ingest_record *rec,
			  struct plumb_err *err)
{
	return ingest_read_bundle_fd_key(fd, name, NULL, rec, err);
}

int ingest_read_bundle_fd_key(int fd, const char *name, const struct sign_public_key *pubkey,
			      struct ingest_record *rec, struct plumb_err *err)
{
	struct bundle_read_opts opts;
	struct bundle_info info;
	int r;

	memset(&opts, 0, sizeof(opts));
	opts.pubkey = pubkey;
	bundle_info_init(&info);
	r = bundle_verify_fd(fd, name, &opts, &info, err);
	if (r == 0)
		r = from_info(&info, rec, name, err);
	bundle_info_release(&info);
	return r;
}

int ingest_read_bundle(const char *path, struct ingest_record *rec,
		       struct plumb_err *err)
{
	struct bundle_info info;
	int r;

	bundle_info_init(&info);
	r = bundle_verify_path(path, NULL, &info, err);
	if (r == 0)
		r = from_info(&info, rec, path, err);
	bundle_info_release(&info);
	return r;
}
