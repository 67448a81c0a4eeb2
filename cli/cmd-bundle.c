/*
 * cli/cmd-bundle.c: `plumb bundle pack|show|verify|extract|keygen|sign`,
 * a command family with its own table.  Each subcommand parses its options
 * and calls one function of formats/bundle.h (or formats/sign.h); the
 * output of every subcommand that names a bundle includes its id.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/bundle.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "formats/sign.h"
#include "common/banned.h"

static const struct plumb_cmd cmd_bundle_pack, cmd_bundle_show, cmd_bundle_verify,
	cmd_bundle_extract, cmd_bundle_keygen, cmd_bundle_sign;

/* Load -p KEY.pub when given; 0, or an exit status (cmd.h). */
int cli_load_pubkey(const char *path, struct sign_public_key *pk, int *have)
{
	struct plumb_err err;

	*have = 0;
	if (!path)
		return 0;
	plumb_err_clear(&err);
	if (sign_public_key_load(pk, path, &err) < 0)
		return cli_fail(&err);
	*have = 1;
	return 0;
}

static const char *sig_text(const struct bundle_info *info, char *out, size_t size)
{
	switch (info->sig) {
	case BUNDLE_SIG_GOOD:
		snprintf(out, size, "good, key %s", info->sig_keyid);
		break;
	case BUNDLE_SIG_UNCHECKED:
		snprintf(out, size, "present (key %s), not checked: no public key given (-p)",
			 info->sig_keyid);
		break;
	default:
		snprintf(out, size, "none");
		break;
	}
	return out;
}

static const char *sig_state_name(enum bundle_sig_state s)
{
	switch (s) {
	case BUNDLE_SIG_GOOD: return "good";
	case BUNDLE_SIG_UNCHECKED: return "unchecked";
	default: return "none";
	}
}

/* ---- pack ---------------------------------------------------------------- */

static struct {
	const char *out;
	const char *key;
} pack_args;

static const struct plumb_opt pack_opts[] = {
	OPT_STRING_("output", 'o', "FILE", "the bundle to write (required)", &pack_args.out),
	OPT_STRING_("sign", 0, "KEY", "also sign it with this secret key (NAME.key)",
		    &pack_args.key),
	OPT_END_()
};

static int pack_exec(int argc, char **argv)
{
	struct sign_secret_key sk;
	struct plumb_err err;
	char id[BUNDLE_ID_HEX];
	int rc;

	if (argc != 1 || !pack_args.out) {
		fprintf(stderr, "plumb bundle pack: needs one folder and -o FILE\n");
		cmd_print_usage(&cmd_bundle_pack, "bundle pack", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (pack_args.key && sign_secret_key_load(&sk, pack_args.key, &err) < 0)
		return cli_fail(&err);
	rc = bundle_pack(argv[0], pack_args.out, pack_args.key ? &sk : NULL, id, &err);
	if (pack_args.key)
		sign_secret_key_release(&sk);
	if (rc < 0)
		return cli_fail(&err);
	printf("%s: bundle %s%s\n", pack_args.out, id, pack_args.key ? " (signed)" : "");
	return PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_pack = {
	.name = "pack",
	.summary = "make a bundle from a folder of results",
	.usage = "bundle pack DIR -o FILE.plumb [--sign KEY]",
	.description =
		"DIR holds manifest.json, samples.tsv and optionally logs/*.log.  Both files\n"
		"are checked first (a bad one is reported with its JSON path or TSV line\n"
		"and nothing is written); the bundle appears atomically.  Packing the same\n"
		"folder twice gives the same bytes: every member's time is SOURCE_DATE_EPOCH\n"
		"when set, else the manifest's run.end, else its created time.",
	.opts = pack_opts,
	.exec = pack_exec,
};

/* ---- verify -------------------------------------------------------------- */

static struct {
	const char *pub;
	int require_sig;
} verify_args;

static const struct plumb_opt verify_opts[] = {
	OPT_STRING_("public-key", 'p', "KEY.pub", "check the signature with this public key",
		    &verify_args.pub),
	OPT_FLAG_("require-signature", 0, "fail unless the bundle has a good signature",
		  &verify_args.require_sig),
	OPT_END_()
};

static int verify_exec(int argc, char **argv)
{
	struct sign_public_key pk;
	struct bundle_read_opts o = { NULL, NULL, 0 };
	struct bundle_info info;
	struct plumb_err err;
	char sig[200];
	int have, rc;

	if (argc != 1) {
		cmd_print_usage(&cmd_bundle_verify, "bundle verify", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if (verify_args.require_sig && !verify_args.pub) {
		fprintf(stderr, "plumb bundle verify: --require-signature needs -p KEY.pub\n");
		return PLUMB_EXIT_USAGE;
	}
	rc = cli_load_pubkey(verify_args.pub, &pk, &have);
	if (rc)
		return rc;
	o.pubkey = have ? &pk : NULL;
	o.require_signature = verify_args.require_sig;
	plumb_err_clear(&err);
	bundle_info_init(&info);
	if (bundle_verify_path(argv[0], &o, &info, &err) < 0)
		return cli_fail(&err);
	printf("%s: ok\n", argv[0]);
	printf("id         %s\n", info.id);
	printf("members    %zu\n", info.n_members);
	printf("samples    %llu\n", (unsigned long long)info.samples_rows);
	printf("size       %llu bytes (%llu uncompressed)\n",
	       (unsigned long long)info.file_bytes, (unsigned long long)info.tar_bytes);
	printf("signature  %s\n", sig_text(&info, sig, sizeof(sig)));
	bundle_info_release(&info);
	return PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_verify = {
	.name = "verify",
	.summary = "check a bundle: limits, checksums, signature, contents",
	.usage = "bundle verify FILE.plumb [-p KEY.pub] [--require-signature]",
	.description =
		"Read the whole bundle once, checking every limit of format v1, the tar\n"
		"structure, every member's SHA-256 against SHA256SUMS, the manifest and\n"
		"samples.tsv, and with -p the minisign signature.  Writes nothing.\n"
		"Exit status 3 names the first problem found.",
	.opts = verify_opts,
	.exec = verify_exec,
};

/* ---- show ---------------------------------------------------------------- */

static struct {
	const char *pub;
	int json;
} show_args;

static const struct plumb_opt show_opts[] = {
	OPT_STRING_("public-key", 'p', "KEY.pub", "check the signature with this public key",
		    &show_args.pub),
	OPT_FLAG_("json", 0, "machine-readable output", &show_args.json),
	OPT_END_()
};

/* A string of the bundle, escaped (common/escape.h): "?" for NULL. */
static int put(struct buf *out, const char *s)
{
	return esc_text(out, s ? s : "?");
}

/* A value of the bundle in width columns: with its unit, or in scale sc; "-" when absent. */
static int put_value(struct buf *out, double v, enum units_dim dim,
		     const struct units_scale *sc, int width)
{
	char c[UNITS_MAX];

	if (isnan(v))
		snprintf(c, sizeof(c), "-");
	else if (sc)
		units_number(v, sc, c);
	else
		units_value(v, dim, 0, c);
	return buf_printf(out, "%*s", width, c);
}

static int show_commit(struct buf *out, const char *label, const struct manifest_commit *c)
{
	char id[13];

	snprintf(id, sizeof(id), "%s", c->commit ? c->commit : "?");
	return buf_printf(out, "%-10s ", label) | put(out, c->ref) | buf_addch(out, ' ') |
	       put(out, id) | (c->subject ? buf_addstr(out, "  ") | put(out, c->subject) : 0) |
	       buf_addstr(out, c->dirty == 1 ? "  (dirty working copy)\n" : "\n");
}

/* A string host fact ("cpu", "model"), or NULL. */
static const char *host_fact(const json_t *facts, const char *group, const char *key)
{
	const json_t *v = facts;

	if (group)
		v = json_object_get(v, group);
	v = json_object_get(v, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * The text of bundle show into out.  Every string of the bundle is
 * untrusted and escaped; values print as plumb report prints them.
 */
static int show_text(const char *path, const struct bundle_info *info, struct buf *out)
{
	const struct manifest *m = &info->manifest;
	const json_t *h = m->host.start;
	const char *facts[4][2] = {
		{ "", host_fact(h, NULL, "hostname") }, { "", host_fact(h, "cpu", "model") },
		{ "kernel ", host_fact(h, "kernel", "release") },
		{ "governor ", host_fact(h, "cpufreq", "governor") },
	};
	char sig[200];
	int bad = 0;

	bad |= buf_addstr(out, "bundle     ") | put(out, path) | buf_addch(out, '\n');
	bad |= buf_printf(out, "id         %s\n", info->id);
	bad |= buf_addstr(out, "created    ") | put(out, m->created) | buf_addstr(out, " by ") |
	       put(out, m->tool.name) | buf_addch(out, ' ') | put(out, m->tool.version) |
	       buf_addch(out, '\n');
	if (m->repo.url)
		bad |= buf_addstr(out, "repo       ") | put(out, m->repo.url) | buf_addch(out, '\n');
	bad |= show_commit(out, "base", &m->repo.base);
	bad |= show_commit(out, "candidate", &m->repo.candidate);
	if (facts[0][1] || facts[1][1] || facts[2][1] || facts[3][1] || m->host.fingerprint) {
		const char *sep = " ";
		bad |= buf_addstr(out, "host      ");
		for (size_t i = 0; i < 4; i++) {
			if (!facts[i][1])
				continue;
			bad |= buf_printf(out, "%s%s", sep, facts[i][0]) | put(out, facts[i][1]);
			sep = ", ";
		}
		if (m->host.fingerprint)
			bad |= buf_printf(out, "%sfingerprint ", sep) | put(out, m->host.fingerprint);
		bad |= buf_addch(out, '\n');
	}
	bad |= buf_printf(out, "run        %lld rounds, seed %lld, %zu variants, build method %s\n",
			  (long long)m->run.rounds, (long long)m->run.seed, m->build.n_variants,
			  manifest_method_name(m->build.method));
	bad |= buf_printf(out, "samples    %llu\n", (unsigned long long)info->samples_rows);
	bad |= buf_addstr(out, "signature  ") | put(out, sig_text(info, sig, sizeof(sig))) |
	       buf_addch(out, '\n');
	if (m->n_benches > 0)
		bad |= buf_printf(out, "\n%-20s %-8s %-7s %12s %12s %12s %12s %8s  %s\n", "bench",
				  "mode", "metric", "base", "candidate", "cand. min", "cand. max",
				  "ratio", "verdict");
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		const char *v = manifest_verdict_name(b->verdict);
		const char *d = manifest_direction_name(b->direction);
		enum units_dim dim = metric_dim(b->metric);
		const struct manifest_side_stats *c = &b->candidate;
		struct units_scale sc;

		bad |= esc_text_pad(out, b->name, 20) |
		       buf_printf(out, " %-8s %-7s ", manifest_mode_name(b->mode),
				  metric_name(b->metric));
		if (b->failure) {
			bad |= buf_addstr(out, "failed: ") | put(out, b->failure) | buf_addch(out, '\n');
			continue;
		}
		units_scale(c->present ? c->center : 0, dim, 0, &sc);
		bad |= put_value(out, b->base.present ? b->base.center : NAN, dim, NULL, 12) |
		       put_value(out, c->present ? c->center : NAN, dim, NULL, 13) |
		       put_value(out, c->present ? c->min : NAN, dim, &sc, 13) |
		       put_value(out, c->present ? c->max : NAN, dim, &sc, 13);
		if (isnan(b->ratio))
			bad |= buf_printf(out, " %8s", "-");
		else
			bad |= buf_printf(out, " %8.4f", b->ratio);
		bad |= buf_printf(out, "  %s%s%s%s\n", v ? v : "-", d ? " (" : "", d ? d : "",
				  d ? ")" : "");
	}
	return bad ? -1 : 0;
}

static int show_json(const char *path, const struct bundle_info *info,
		     struct plumb_err *err)
{
	json_t *o = json_object(), *members = json_array(), *sig = json_object();
	json_t *man = NULL;
	struct buf mtext, out;
	int rc = 0;

	buf_init(&mtext, (size_t)64 << 20);
	buf_init(&out, (size_t)128 << 20);
	if (!o || !members || !sig) {
		rc = plumb_err_oom(err, "json");
		goto done;
	}
	rc = manifest_write(&info->manifest, &mtext, err);
	if (rc < 0)
		goto done;
	man = json_loadb(mtext.data, mtext.len, 0, NULL);
	if (!man) {
		rc = plumb_err_set(err, PLUMB_EINTERNAL, "manifest: cannot read back");
		goto done;
	}
	for (size_t i = 0; i < info->n_members; i++) {
		const struct bundle_member *m = &info->members[i];
		char hex[DIGEST_HEX];
		json_t *e = json_object();
		if (!e) {
			rc = plumb_err_oom(err, "json");
			goto done;
		}
		json_object_set_new(e, "name", json_string(m->name));
		json_object_set_new(e, "type", json_string(m->is_dir ? "folder" : "file"));
		json_object_set_new(e, "size", json_integer((json_int_t)m->size));
		if (!m->is_dir) {
			digest_hex(m->sha256, hex);
			json_object_set_new(e, "sha256", json_string(hex));
		}
		json_array_append_new(members, e);
	}
	json_object_set_new(sig, "state", json_string(sig_state_name(info->sig)));
	if (info->sig != BUNDLE_SIG_NONE) {
		json_object_set_new(sig, "keyId", json_string(info->sig_keyid));
		json_object_set_new(sig, "trustedComment", json_string(info->sig_comment));
	}
	json_object_set_new(o, "bundle", json_string(path));
	json_object_set_new(o, "id", json_string(info->id));
	json_object_set_new(o, "fileBytes", json_integer((json_int_t)info->file_bytes));
	json_object_set_new(o, "tarBytes", json_integer((json_int_t)info->tar_bytes));
	json_object_set_new(o, "samples", json_integer((json_int_t)info->samples_rows));
	json_object_set_new(o, "signature", sig);
	sig = NULL;
	json_object_set_new(o, "members", members);
	members = NULL;
	json_object_set_new(o, "manifest", man);
	man = NULL;
	rc = jsonio_dump(o, &out, err);
	if (rc == 0)
		fwrite(out.data, 1, out.len, stdout);
done:
	json_decref(o);
	json_decref(members);
	json_decref(sig);
	json_decref(man);
	buf_release(&mtext);
	buf_release(&out);
	return rc;
}

static int show_exec(int argc, char **argv)
{
	struct sign_public_key pk;
	struct bundle_read_opts o = { NULL, NULL, 0 };
	struct bundle_info info;
	struct plumb_err err;
	int have, rc;

	if (argc != 1) {
		cmd_print_usage(&cmd_bundle_show, "bundle show", stderr);
		return PLUMB_EXIT_USAGE;
	}
	rc = cli_load_pubkey(show_args.pub, &pk, &have);
	if (rc)
		return rc;
	o.pubkey = have ? &pk : NULL;
	plumb_err_clear(&err);
	bundle_info_init(&info);
	if (bundle_verify_path(argv[0], &o, &info, &err) < 0)
		return cli_fail(&err);
	if (show_args.json) {
		rc = show_json(argv[0], &info, &err);
	} else {
		struct buf out;

		buf_init(&out, (size_t)64 << 20);
		rc = show_text(argv[0], &info, &out);
		if (rc < 0)
			buf_err(&err, "bundle show");
		else
			fwrite(out.data, 1, out.len, stdout);
		buf_release(&out);
	}
	bundle_info_release(&info);
	return rc < 0 ? cli_fail(&err) : PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_show = {
	.name = "show",
	.summary = "summarize a bundle: commits, host, benchmarks, verdicts",
	.usage = "bundle show FILE.plumb [-p KEY.pub] [--json]",
	.description =
		"Verify the bundle as `plumb bundle verify` does, then print its id, the\n"
		"repository and the two commits, the host, the schedule, the signature\n"
		"state and one line per benchmark (centers, candidate range, ratio,\n"
		"verdict).  --json prints the id, members, signature and the whole\n"
		"manifest as one JSON object.",
	.opts = show_opts,
	.exec = show_exec,
};

/* ---- extract ------------------------------------------------------------- */

static struct {
	const char *pub;
	int require_sig;
	int force;
} extract_args;

static const struct plumb_opt extract_opts[] = {
	OPT_FLAG_("force", 0, "extract into a folder that is not empty", &extract_args.force),
	OPT_STRING_("public-key", 'p', "KEY.pub", "check the signature with this public key",
		    &extract_args.pub),
	OPT_FLAG_("require-signature", 0, "refuse a bundle without a good signature",
		  &extract_args.require_sig),
	OPT_END_()
};

static int extract_exec(int argc, char **argv)
{
	struct sign_public_key pk;
	struct bundle_read_opts o = { NULL, NULL, 0 };
	struct bundle_info info;
	struct plumb_err err;
	int have, rc;

	if (argc != 2) {
		cmd_print_usage(&cmd_bundle_extract, "bundle extract", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if (extract_args.require_sig && !extract_args.pub) {
		fprintf(stderr, "plumb bundle extract: --require-signature needs -p KEY.pub\n");
		return PLUMB_EXIT_USAGE;
	}
	rc = cli_load_pubkey(extract_args.pub, &pk, &have);
	if (rc)
		return rc;
	o.pubkey = have ? &pk : NULL;
	o.require_signature = extract_args.require_sig;
	plumb_err_clear(&err);
	bundle_info_init(&info);
	if (bundle_extract(argv[0], argv[1], extract_args.force, &o, &info, &err) < 0)
		return cli_fail(&err);
	printf("%s: bundle %s: extracted %zu members into %s\n", argv[0], info.id,
	       info.n_members, argv[1]);
	bundle_info_release(&info);
	return PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_extract = {
	.name = "extract",
	.summary = "verify a bundle, then write its members into a folder",
	.usage = "bundle extract FILE.plumb DIR [--force] [-p KEY.pub] [--require-signature]",
	.description =
		"The bundle is verified completely first; a bad one leaves nothing behind.\n"
		"Nothing is written outside DIR (libarchive's secure extraction, no links,\n"
		"no special files).  DIR is created when missing; a DIR that is not empty\n"
		"is refused unless --force.",
	.opts = extract_opts,
	.exec = extract_exec,
};

/* ---- keygen -------------------------------------------------------------- */

static struct {
	const char *out;
	int force;
} keygen_args;

static const struct plumb_opt keygen_opts[] = {
	OPT_STRING_("output", 'o', "NAME", "write NAME.key and NAME.pub (required)",
		    &keygen_args.out),
	OPT_FLAG_("force", 0, "replace existing key files", &keygen_args.force),
	OPT_END_()
};

static int keygen_exec(int argc, char **argv)
{
	struct sign_public_key pk;
	struct plumb_err err;
	char keyid[SIGN_KEYID_HEX];

	(void)argv;
	if (argc != 0 || !keygen_args.out) {
		fprintf(stderr, "plumb bundle keygen: needs -o NAME\n");
		cmd_print_usage(&cmd_bundle_keygen, "bundle keygen", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (sign_keygen(keygen_args.out, keygen_args.force, &pk, &err) < 0)
		return cli_fail(&err);
	sign_keyid_hex(pk.keyid, keyid);
	printf("%s.key: secret key (mode 0600, not encrypted)\n", keygen_args.out);
	printf("%s.pub: public key %s\n", keygen_args.out, keyid);
	return PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_keygen = {
	.name = "keygen",
	.summary = "make a signing key pair (minisign format)",
	.usage = "bundle keygen -o NAME [--force]",
	.description =
		"Write NAME.key, an unencrypted minisign secret key (mode 0600, for cron\n"
		"jobs: keep it safe), and NAME.pub, the public key that `plumb bundle\n"
		"verify -p` and `minisign -V -p` take.",
	.opts = keygen_opts,
	.exec = keygen_exec,
};

/* ---- sign ---------------------------------------------------------------- */

static struct {
	const char *key;
} sign_args;

static const struct plumb_opt sign_opts[] = {
	OPT_STRING_("key", 'k', "NAME.key", "the secret key to sign with (required)",
		    &sign_args.key),
	OPT_END_()
};

static int sign_exec(int argc, char **argv)
{
	struct sign_secret_key sk;
	struct bundle_info info;
	struct plumb_err err;
	int rc;

	if (argc != 1 || !sign_args.key) {
		fprintf(stderr, "plumb bundle sign: needs one bundle and -k NAME.key\n");
		cmd_print_usage(&cmd_bundle_sign, "bundle sign", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (sign_secret_key_load(&sk, sign_args.key, &err) < 0)
		return cli_fail(&err);
	bundle_info_init(&info);
	rc = bundle_sign(argv[0], &sk, &info, &err);
	sign_secret_key_release(&sk);
	if (rc < 0)
		return cli_fail(&err);
	printf("%s: bundle %s: signed with key %s\n", argv[0], info.id, info.sig_keyid);
	bundle_info_release(&info);
	return PLUMB_EXIT_OK;
}

static const struct plumb_cmd cmd_bundle_sign = {
	.name = "sign",
	.summary = "add a minisign signature (SHA256SUMS.sig) to a bundle",
	.usage = "bundle sign FILE.plumb -k NAME.key",
	.description =
		"Verify the bundle, then replace it atomically by the same bundle with\n"
		"SHA256SUMS.sig (an existing signature is replaced).  The bundle id does\n"
		"not change; the trusted comment names it and the run's created time.",
	.opts = sign_opts,
	.exec = sign_exec,
};

/* ---- the family ---------------------------------------------------------- */

static const struct plumb_cmd *const bundle_subs[] = {
	&cmd_bundle_pack,
	&cmd_bundle_show,
	&cmd_bundle_verify,
	&cmd_bundle_extract,
	&cmd_bundle_keygen,
	&cmd_bundle_sign,
	NULL
};

const struct plumb_cmd cmd_bundle = {
	.name = "bundle",
	.summary = "pack, show, verify, extract and sign result bundles",
	.usage = "bundle pack DIR -o FILE.plumb [--sign KEY]\n"
		 "bundle show FILE.plumb [--json]\n"
		 "bundle verify FILE.plumb [-p KEY.pub] [--require-signature]\n"
		 "bundle extract FILE.plumb DIR [--force]\n"
		 "bundle keygen -o NAME\n"
		 "bundle sign FILE.plumb -k NAME.key",
	.description =
		"A bundle (NAME.plumb) is a zstd-compressed tar archive holding README.txt,\n"
		"manifest.json, samples.tsv, logs/, SHA256SUMS and optionally SHA256SUMS.sig;\n"
		"it can be read with zstd, tar, sha256sum and minisign alone.  Its id is the\n"
		"SHA-256 of SHA256SUMS.  See plumb-bundle(5).",
	.subs = bundle_subs,
};
