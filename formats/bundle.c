/*
 * formats/bundle.c: what the bundle writer, reader and verifier share:
 * limits, member names, SHA256SUMS text, the trusted comment, README.txt.
 *
 * The rules here are the ones formats/bundle-v1.md states; a change to one
 * is a change to the specification.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/quote.h"
#include "formats/bundle.h"
#include "formats/jsonio.h"
#include "formats/bundle-internal.h"
#include "formats/samples.h"
#include "common/banned.h"

void bundle_limits_default(struct bundle_limits *lim)
{
	lim->max_file = BUNDLE_MAX_FILE;
	lim->max_total = BUNDLE_MAX_TOTAL;
	lim->max_member = BUNDLE_MAX_MEMBER;
	lim->max_members = BUNDLE_MAX_MEMBERS;
	lim->window_log_max = BUNDLE_WINDOW_LOG_MAX;
	lim->max_samples_rows = SAMPLES_DEFAULT_MAX_ROWS;
}

void bundle_info_init(struct bundle_info *info)
{
	memset(info, 0, sizeof(*info));
	manifest_init(&info->manifest);
	info->sig = BUNDLE_SIG_NONE;
}

void bundle_info_release(struct bundle_info *info)
{
	if (!info)
		return;
	manifest_release(&info->manifest);
	for (size_t i = 0; i < info->n_members; i++)
		free(info->members[i].name);
	free(info->members);
	bundle_info_init(info);
}

uint64_t bundle_member_limit(const struct bundle_limits *lim, const char *name)
{
	uint64_t max = lim->max_member;
	uint64_t specific = max;

	if (strcmp(name, BUNDLE_README) == 0)
		specific = BUNDLE_MAX_README;
	else if (strcmp(name, BUNDLE_SUMS) == 0)
		specific = BUNDLE_MAX_SUMS;
	else if (strcmp(name, BUNDLE_SIG) == 0)
		specific = BUNDLE_MAX_SIG;
	else if (strcmp(name, BUNDLE_MANIFEST) == 0)
		specific = BUNDLE_MAX_MANIFEST;
	else if (strncmp(name, BUNDLE_LOGS "/", sizeof(BUNDLE_LOGS)) == 0)
		specific = BUNDLE_MAX_LOG;
	else if (strncmp(name, BUNDLE_ARTIFACTS "/", sizeof(BUNDLE_ARTIFACTS)) == 0)
		specific = BUNDLE_MAX_ARTIFACT;
	return specific < max ? specific : max;
}

const char *bundle_quote(char *out, size_t size, const char *s, size_t len)
{
	return quote(out, size, s, len, 80, QUOTE_BYTES);
}

static int portable_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

const char *bundle_name_problem(const char *name, size_t len)
{
	size_t start = 0;

	if (len == 0)
		return "empty name";
	if (len > BUNDLE_MAX_NAME)
		return "name longer than 4096 bytes";
	if (name[0] == '/')
		return "absolute path";
	/* ".." first: it is the one that matters most, wherever it is. */
	for (size_t i = 0; i <= len; i++) {
		if (i == len || name[i] == '/') {
			if (i - start == 2 && name[start] == '.' && name[start + 1] == '.')
				return "path escapes the bundle ('..' component)";
			start = i + 1;
		}
	}
	start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || name[i] == '/') {
			size_t clen = i - start;
			if (clen == 0)
				return "empty path component";
			if (clen == 1 && name[start] == '.')
				return "'.' path component";
			if (clen > BUNDLE_MAX_COMPONENT)
				return "path component longer than 255 bytes";
			start = i + 1;
		} else if (!portable_char((unsigned char)name[i])) {
			return "character outside [A-Za-z0-9._-] in name";
		}
	}
	return NULL;
}

int bundle_trusted_comment(const char *id, const char *created, char *out,
			   size_t size)
{
	int n = snprintf(out, size, "bundle:%s\tcreated:%s", id, created ? created : "unknown");
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int bundle_comment_id(const char *comment, char id[BUNDLE_ID_HEX])
{
	const char *p = comment;

	while (*p) {
		const char *end = strchr(p, '\t');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 7 + 64 && strncmp(p, "bundle:", 7) == 0) {
			memcpy(id, p + 7, 64);
			id[64] = '\0';
			return 0;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return -1;
}

void bundle_sums_free(struct bundle_sum *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

/* "SHA256SUMS: line N: <what>", PLUMB_EINPUT. */
static int sums_err(struct plumb_err *err, size_t line, const char *what,
		    const char *name, size_t name_len)
{
	char q[400];

	if (name)
		return plumb_err_set(err, PLUMB_EINPUT, "SHA256SUMS: line %zu: %s '%s'",
				     line, what, bundle_quote(q, sizeof(q), name, name_len));
	return plumb_err_set(err, PLUMB_EINPUT, "SHA256SUMS: line %zu: %s", line, what);
}

int bundle_sums_parse(const char *text, size_t len, struct bundle_sum **out,
		      size_t *n_out, struct plumb_err *err)
{
	struct bundle_sum *v = NULL;
	size_t n = 0, cap = 0, line = 0;
	const char *p = text, *end = text + len;
	int rc = 0;

	*out = NULL;
	*n_out = 0;
	if (len == 0)
		return plumb_err_set(err, PLUMB_EINPUT, "SHA256SUMS: empty");
	if (text[len - 1] != '\n')
		return plumb_err_set(err, PLUMB_EINPUT,
				     "SHA256SUMS: the last line does not end with a newline (truncated?)");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)(nl - p);
		const char *name = p + 66;
		size_t name_len;
		const char *why;

		line++;
		if (l < 67 || p[64] != ' ' || p[65] != ' ') {
			rc = sums_err(err, line, "malformed line (expected 64 hex digits, two "
				      "spaces and a member name)", NULL, 0);
			break;
		}
		name_len = l - 66;
		if (n == BUNDLE_MAX_MEMBERS) {
			rc = sums_err(err, line, "more lines than the member limit (1024)", NULL, 0);
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct bundle_sum *nv = realloc(v, ncap * sizeof(*v));
			if (!nv) {
				rc = plumb_err_oom(err, "SHA256SUMS");
				break;
			}
			v = nv;
			cap = ncap;
		}
		if (digest_from_hex(p, 64, v[n].sha256) < 0) {
			rc = sums_err(err, line, "malformed checksum (expected 64 lower-case "
				      "hex digits) for", name, name_len);
			break;
		}
		why = bundle_name_problem(name, name_len);
		if (why) {
			char what[200];
			snprintf(what, sizeof(what), "%s:", why);
			rc = sums_err(err, line, what, name, name_len);
			break;
		}
		if ((name_len == strlen(BUNDLE_SUMS) && memcmp(name, BUNDLE_SUMS, name_len) == 0) ||
		    (name_len == strlen(BUNDLE_SIG) && memcmp(name, BUNDLE_SIG, name_len) == 0)) {
			rc = sums_err(err, line, "lists itself or its signature:", name, name_len);
			break;
		}
		v[n].name = strndup(name, name_len);
		if (!v[n].name) {
			rc = plumb_err_oom(err, "SHA256SUMS");
			break;
		}
		n++;
		if (n > 1) {
			int c = strcmp(v[n - 2].name, v[n - 1].name);
			if (c == 0) {
				rc = sums_err(err, line, "member listed twice:", name, name_len);
				break;
			}
			if (c > 0) {
				rc = sums_err(err, line, "not sorted by name (byte order) at", name,
					      name_len);
				break;
			}
		}
		p = nl + 1;
	}
	if (rc < 0) {
		bundle_sums_free(v, n);
		return rc;
	}
	*out = v;
	*n_out = n;
	return 0;
}

int bundle_manifest_budget(const char *json, size_t len, struct plumb_err *err)
{
	if (jsonio_values(json, len, BUNDLE_MAX_JSON_VALUES) > BUNDLE_MAX_JSON_VALUES)
		return plumb_err_set(err, PLUMB_EINPUT, "more than %u JSON values "
				     "(the limit of a bundle's manifest.json)",
				     BUNDLE_MAX_JSON_VALUES);
	return 0;
}

int bundle_readme(struct buf *out, struct plumb_err *err)
{
	if (buf_printf(out,
		"This file is a plumb result bundle, format plumb-bundle version 1.\n"
		"It was written by plumb %s.\n"
		"\n"
		"plumb benchmarks a base and a candidate commit of a program, each built\n"
		"at several code placements (pad variants), and records what it measured\n"
		"here.  The bundle is a tar archive compressed with zstd.  Its members:\n"
		"\n"
		"  README.txt      this text\n"
		"  manifest.json   the run: repository and commits, builds, host facts,\n"
		"                  schedule, and per benchmark the pad medians, ranges,\n"
		"                  ratio and verdict (JSON)\n"
		"  samples.tsv     every measured value, one per line, tab-separated:\n"
		"                  bench side pad round iter metric value\n"
		"  logs/           build and benchmark logs, when there are any\n"
		"  artifacts/      the measured executables (b00: base pad 0, c00:\n"
		"                  candidate pad 0), when kept\n"
		"  SHA256SUMS      the SHA-256 of every other member\n"
		"  SHA256SUMS.sig  optional: a minisign signature of SHA256SUMS\n"
		"\n"
		"The bundle id is the SHA-256 of the SHA256SUMS member.\n"
		"\n"
		"Reading it needs no plumb, only zstd, tar, sha256sum and minisign:\n"
		"\n"
		"  mkdir bundle && cd bundle\n"
		"  zstd -d < ../NAME.plumb | tar -xf -\n"
		"  sha256sum -c SHA256SUMS\n"
		"  sha256sum SHA256SUMS          # the bundle id\n"
		"  minisign -Vm SHA256SUMS -x SHA256SUMS.sig -p KEY.pub\n"
		"\n"
		"The last command checks the signature, when there is one, with the\n"
		"signer's public key; its trusted comment names the bundle id and the\n"
		"time the run ended.\n"
		"\n"
		"The format is specified in formats/bundle-v1.md in the plumb sources\n"
		"and in the plumb-bundle(5) manual page.\n",
		PACKAGE_VERSION) < 0)
		return buf_err(err, "README.txt");
	return 0;
}
