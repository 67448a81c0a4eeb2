/*
 * cli/cmd-bundle.c: `plumb bundle pack|show|verify|extract|keygen|sign`,
 * a command family with its own table.  Each subcommand parses its options
 * and calls one function of formats/bundle.h (or formats/sign.h); the
 * output of every subcommand that names a bundle includes its id; what
 * every subcommand prints is views/bundle.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "cli/exit.h"
#include "formats/bundle.h"
#include "formats/sign.h"
#include "views/bundle.h"
#include "common/banned.h"

static const struct plumb_cmd cmd_bundle_pack, cmd_bundle_show, cmd_bundle_verify,
	cmd_bundle_extract, cmd_bundle_keygen, cmd_bundle_sign;

/* --json of pack, verify, extract, keygen and sign (keys: docs/json-keys.md). */
static int opt_json;

#define JSON_OPT(keys) OPT_FLAG_("json", 0, "print JSON: " keys, &opt_json)

static int print_obj(json_t *o)
{
	int r = cli_print_json(o, "bundle JSON");

	json_decref(o);
	return r;
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
	JSON_OPT("{path, id, signed}"),
	OPT_END_()
};

static int pack_exec(int argc, char **argv)
{
	struct buf out;
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
	if (opt_json)
		return print_obj(json_pack("{s:s, s:s, s:b}", "path", pack_args.out, "id", id,
					   "signed", pack_args.key != NULL));
	buf_init(&out, 1 << 16);
	return cli_print_view(&out, view_bundle_packed(&out, pack_args.out, id, pack_args.key != NULL),
			      "bundle pack");
}

static const struct plumb_cmd cmd_bundle_pack = {
	.name = "pack",
	.summary = "make a bundle from a folder of results",
	.usage = "bundle pack DIR -o FILE.plumb [--sign KEY] [--json]",
	.description =
		"DIR holds manifest.json, samples.tsv and optionally logs/*.log (a folder\n"
		"bundle extract wrote is checked against its SHA256SUMS first).  Both files\n"
		"are checked first (a bad one is reported with its JSON path or TSV line\n"
		"and nothing is written), and so is the manifest against its samples and\n"
		"host facts; the bundle appears atomically.  Packing the same\n"
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
	JSON_OPT("{path, ok, id, members, samples, fileBytes, tarBytes, signature}"),
	OPT_END_()
};

static int verify_exec(int argc, char **argv)
{
	struct buf out;
	struct sign_public_key pk;
	struct bundle_read_opts o = { .limits = NULL };
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
	if (opt_json) {
		rc = print_obj(json_pack("{s:s, s:b, s:s, s:I, s:I, s:I, s:I, s:s}", "path", argv[0],
					 "ok", 1, "id", info.id, "members", (json_int_t)info.n_members,
					 "samples", (json_int_t)info.samples_rows,
					 "fileBytes", (json_int_t)info.file_bytes,
					 "tarBytes", (json_int_t)info.tar_bytes,
					 "signature", view_bundle_sig(&info, sig, sizeof(sig))));
		bundle_info_release(&info);
		return rc;
	}
	buf_init(&out, 1 << 16);
	rc = cli_print_view(&out, view_bundle_verified(&out, argv[0], &info), "bundle verify");
	bundle_info_release(&info);
	return rc;
}

static const struct plumb_cmd cmd_bundle_verify = {
	.name = "verify",
	.summary = "check a bundle: limits, checksums, signature, contents",
	.usage = "bundle verify FILE.plumb [-p KEY.pub] [--require-signature] [--json]",
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

static int show_exec(int argc, char **argv)
{
	struct sign_public_key pk;
	struct buf out;
	struct bundle_read_opts o = { .limits = NULL };
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
	buf_init(&out, (size_t)128 << 20);
	rc = show_args.json ? view_bundle_json(argv[0], &info, &out, &err)
			    : view_bundle_text(argv[0], &info, &out, &err);
	if (rc == 0)
		fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
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
	JSON_OPT("{path, id, members, dir}"),
	OPT_END_()
};

static int extract_exec(int argc, char **argv)
{
	struct buf out;
	struct sign_public_key pk;
	struct bundle_read_opts o = { .limits = NULL };
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
	if (opt_json) {
		rc = print_obj(json_pack("{s:s, s:s, s:I, s:s}", "path", argv[0], "id", info.id,
					 "members", (json_int_t)info.n_members, "dir", argv[1]));
		bundle_info_release(&info);
		return rc;
	}
	buf_init(&out, 1 << 16);
	rc = cli_print_view(&out, view_bundle_extracted(&out, argv[0], &info, argv[1]),
			    "bundle extract");
	bundle_info_release(&info);
	return rc;
}

static const struct plumb_cmd cmd_bundle_extract = {
	.name = "extract",
	.summary = "verify a bundle, then write its members into a folder",
	.usage = "bundle extract FILE.plumb DIR [--force] [-p KEY.pub] [--require-signature] [--json]",
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
	JSON_OPT("{secretKey, publicKey, keyId}"),
	OPT_END_()
};

static int keygen_exec(int argc, char **argv)
{
	struct buf out;
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
	if (opt_json) {
		char *sec = buf_strdupf("%s.key", keygen_args.out), *pub = buf_strdupf("%s.pub", keygen_args.out);
		int r = sec && pub ? print_obj(json_pack("{s:s, s:s, s:s}", "secretKey", sec, "publicKey", pub,
							 "keyId", keyid)) : cli_exit_status(PLUMB_EINTERNAL);
		free(sec);
		free(pub);
		return r;
	}
	buf_init(&out, 1 << 16);
	return cli_print_view(&out, view_bundle_keygen(&out, keygen_args.out, keyid), "bundle keygen");
}

static const struct plumb_cmd cmd_bundle_keygen = {
	.name = "keygen",
	.summary = "make a signing key pair (minisign format)",
	.usage = "bundle keygen -o NAME [--force] [--json]",
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
	JSON_OPT("{path, id, keyId}"),
	OPT_END_()
};

static int sign_exec(int argc, char **argv)
{
	struct buf out;
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
	if (opt_json) {
		rc = print_obj(json_pack("{s:s, s:s, s:s}", "path", argv[0], "id", info.id,
					 "keyId", info.sig_keyid));
		bundle_info_release(&info);
		return rc;
	}
	buf_init(&out, 1 << 16);
	rc = cli_print_view(&out, view_bundle_signed(&out, argv[0], &info), "bundle sign");
	bundle_info_release(&info);
	return rc;
}

static const struct plumb_cmd cmd_bundle_sign = {
	.name = "sign",
	.summary = "add a minisign signature (SHA256SUMS.sig) to a bundle",
	.usage = "bundle sign FILE.plumb -k NAME.key [--json]",
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
	/* No usage of its own: each subcommand's, as it prints it (cmd_print_usage()). */
	.description =
		"A bundle (NAME.plumb) is a zstd-compressed tar archive holding README.txt,\n"
		"manifest.json, samples.tsv, logs/, SHA256SUMS and optionally SHA256SUMS.sig;\n"
		"it can be read with zstd, tar, sha256sum and minisign alone.  Its id is the\n"
		"SHA-256 of SHA256SUMS.  See plumb-bundle(5).",
	.subs = bundle_subs,
};
