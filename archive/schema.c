/*
 * archive/schema.c: the SQL of every schema version and the migration
 * driver.  Kept apart from the store so the history of the layout reads
 * in one place; archive/SCHEMA.md explains each table.
 *
 * The steps are SQLite's DDL; on PostgreSQL each is rewritten by
 * dialect_pg_schema() (archive/dialect.c holds every difference), and the
 * version lives in the table plumb_schema instead of PRAGMA user_version.
 *
 * Never edit a released step: add one.  A step runs inside the driver's
 * transaction, so it must not contain BEGIN/COMMIT or PRAGMAs that are
 * no-ops inside a transaction (foreign_keys, journal_mode).
 */
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "archive/db.h"
#include "archive/dialect.h"
#include "archive/schema.h"
#include "archive/sqlerr.h"
#include "common/err.h"
#include "common/banned.h"

/* Version 1: bundles, hosts, benches, baselines, labels. */
static const char schema_v1[] =
	"PRAGMA application_id = 1886154082;\n"
	"CREATE TABLE hosts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  fingerprint TEXT NOT NULL UNIQUE,\n"
	"  facts TEXT NOT NULL\n"
	");\n"
	"CREATE TABLE bundles (\n"
	"  rid INTEGER PRIMARY KEY,\n"
	"  id TEXT NOT NULL UNIQUE CHECK (length(id) = 64),\n"
	"  file_sha256 TEXT NOT NULL CHECK (length(file_sha256) = 64),\n"
	"  size INTEGER NOT NULL CHECK (size >= 0),\n"
	"  created INTEGER NOT NULL,\n"
	"  added INTEGER NOT NULL,\n"
	"  plumb_version TEXT,\n"
	"  format_version TEXT NOT NULL,\n"
	"  repo TEXT,\n"
	"  base_ref TEXT,\n"
	"  base_commit TEXT,\n"
	"  base_time INTEGER,\n"
	"  cand_ref TEXT,\n"
	"  cand_commit TEXT,\n"
	"  cand_time INTEGER,\n"
	"  signature TEXT NOT NULL CHECK (signature IN ('none', 'present', 'verified')),\n"
	"  host INTEGER REFERENCES hosts(id)\n"
	");\n"
	"CREATE INDEX bundles_created ON bundles(created);\n"
	"CREATE INDEX bundles_host ON bundles(host, created);\n"
	"CREATE INDEX bundles_cand_commit ON bundles(cand_commit);\n"
	"CREATE INDEX bundles_base_commit ON bundles(base_commit);\n"
	"CREATE INDEX bundles_repo ON bundles(repo, created);\n"
	"CREATE TABLE benches (\n"
	"  bundle INTEGER NOT NULL REFERENCES bundles(rid) ON DELETE CASCADE,\n"
	"  name TEXT NOT NULL,\n"
	"  mode TEXT,\n"
	"  metric TEXT,\n"
	"  base_center REAL, base_min REAL, base_max REAL, base_spread REAL,\n"
	"  base_pads TEXT,\n"
	"  cand_center REAL, cand_min REAL, cand_max REAL, cand_spread REAL,\n"
	"  cand_pads TEXT,\n"
	"  ratio REAL,\n"
	"  verdict TEXT,\n"
	"  noise REAL,\n"
	"  PRIMARY KEY (bundle, name)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX benches_name ON benches(name, metric);\n"
	"CREATE TABLE baselines (\n"
	"  name TEXT PRIMARY KEY,\n"
	"  bundle INTEGER NOT NULL REFERENCES bundles(rid),\n"
	"  side TEXT NOT NULL CHECK (side IN ('base', 'candidate')),\n"
	"  set_at INTEGER NOT NULL,\n"
	"  note TEXT\n"
	");\n"
	"CREATE INDEX baselines_bundle ON baselines(bundle);\n"
	"CREATE TABLE labels (\n"
	"  bundle INTEGER NOT NULL REFERENCES bundles(rid) ON DELETE CASCADE,\n"
	"  key TEXT NOT NULL,\n"
	"  value TEXT NOT NULL,\n"
	"  PRIMARY KEY (bundle, key)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX labels_kv ON labels(key, value);\n";

/*
 * Version 2: a trend reads one benchmark on one host in candidate-time
 * order.  With the host and the time only in bundles, that query visits
 * every row of the benchmark (100,000 in a years-old archive) to find the
 * thousand of one host.  Copies of both in benches, set once at insert
 * (bundles never change), let one index answer it in order.
 */
static const char schema_v2[] =
	"ALTER TABLE benches ADD COLUMN host INTEGER;\n"
	"ALTER TABLE benches ADD COLUMN at INTEGER;\n"
	"UPDATE benches SET\n"
	"  host = (SELECT u.host FROM bundles u WHERE u.rid = benches.bundle),\n"
	"  at = (SELECT coalesce(u.cand_time, u.created) FROM bundles u\n"
	"        WHERE u.rid = benches.bundle);\n"
	"DROP INDEX benches_name;\n"
	"CREATE INDEX benches_trend ON benches(name, host, metric, at);\n";

/*
 * Version 3: who signed what is stored.  A bundle's id does not cover its
 * signature, so a signed copy can replace an unsigned or wrongly signed
 * one; the key id and trusted comment of the stored file's signature (NULL
 * when unsigned, or unknown for a bundle added before version 3), and one
 * row per replacement.
 */
static const char schema_v3[] =
	"ALTER TABLE bundles ADD COLUMN sig_key TEXT;\n"
	"ALTER TABLE bundles ADD COLUMN sig_comment TEXT;\n"
	"CREATE TABLE replacements (\n"
	"  bundle INTEGER NOT NULL REFERENCES bundles(rid) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  old_signature TEXT NOT NULL,\n"
	"  old_key TEXT,\n"
	"  new_signature TEXT NOT NULL,\n"
	"  new_key TEXT\n"
	");\n"
	"CREATE INDEX replacements_bundle ON replacements(bundle);\n";

/*
 * Version 4: projects kept apart.  Two repositories may both have a
 * benchmark "compress": a series is one project's benchmark on one host.
 * A bundle records its project (run.project); rows from before take the
 * repository their bundle recorded (its folder or URL), the only identity
 * they have.  The trend index leads with the project.
 */
static const char schema_v4[] =
	"ALTER TABLE bundles ADD COLUMN project TEXT;\n"
	"ALTER TABLE benches ADD COLUMN project TEXT;\n"
	"UPDATE bundles SET project = repo;\n"
	"UPDATE benches SET\n"
	"  project = (SELECT u.project FROM bundles u WHERE u.rid = benches.bundle);\n"
	"DROP INDEX benches_trend;\n"
	"CREATE INDEX benches_trend ON benches(project, name, host, metric, at);\n"
	"CREATE INDEX bundles_project ON bundles(project, created);\n";

static const char *const schema_steps[SCHEMA_VERSION] = {
	schema_v1,
	schema_v2,
	schema_v3,
	schema_v4,
};

const char *schema_step(int i)
{
	if (i < 0 || i >= SCHEMA_VERSION)
		return NULL;
	return schema_steps[i];
}

/* Refuse a database that is not a plumb archive or is too new. */
static int check_version(struct db *db, const char *path, int version, int nsteps,
			 struct plumb_err *err)
{
	int app = 0, n = 0, rc;

	if (version > nsteps)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: archive schema %d is newer than this plumb understands (%d)",
				     path, version, nsteps);
	if (version > 0) {
		if ((rc = dialect_get_application_id(db, &app)) != DB_OK)
			return sqlerr_set(db, path, rc, "read the application id", err);
		if (app != SCHEMA_APPLICATION_ID)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: not a plumb archive (application_id %d)",
					     path, app);
		return 0;
	}
	/* Version 0 must be a new, empty database: a foreign one is not adopted. */
	if ((rc = dialect_count_tables(db, &n)) != DB_OK)
		return sqlerr_set(db, path, rc, "read schema", err);
	if (n != 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: not a plumb archive (a database with other tables)", path);
	return 0;
}

static int get_version(struct db *db, const char *path, int *version,
		       struct plumb_err *err)
{
	int rc = dialect_get_version(db, version);

	return rc == DB_OK ? 0 : sqlerr_set(db, path, rc, "read the schema version", err);
}

int schema_check(struct db *db, const char *path, struct plumb_err *err)
{
	int version = 0, rc, r;

	/*
	 * One read transaction: the version and the tables must come from the
	 * same snapshot, or another process creating the archive between the
	 * two reads would make a new archive look like a foreign database.
	 */
	rc = dialect_begin_read(db);
	if (rc != DB_OK)
		return sqlerr_set(db, path, rc, "begin", err);
	r = get_version(db, path, &version, err);
	if (r == 0)
		r = check_version(db, path, version, SCHEMA_VERSION, err);
	db_exec(db, "ROLLBACK");
	return r;
}

int schema_current(struct db *db, const char *path, struct plumb_err *err)
{
	int version = 0, r = get_version(db, path, &version, err);

	if (r == 0 && version < SCHEMA_VERSION)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: archive schema %d is older than this "
				     "plumb's (%d) and it is opened read-only: a command that writes "
				     "(plumb archive gc) upgrades it", path, version, SCHEMA_VERSION);
	return r;
}

/* Run one step in the back end's dialect. */
static int run_step(struct db *db, const char *step)
{
	char *pg;
	int rc;

	if (db_backend(db) == DB_SQLITE)
		return db_exec(db, step);
	if (!(pg = dialect_pg_schema(step)))
		return DB_NOMEM;
	rc = db_exec(db, pg);
	free(pg);
	return rc;
}

int schema_apply(struct db *db, const char *path, const char *const *steps,
		 int nsteps, int *from, struct plumb_err *err)
{
	int version = 0, rc, r;

	/*
	 * Cheap check first: an up-to-date archive needs no write lock.  Only
	 * the answers that cannot change under us are taken here (a version
	 * never goes down); anything else is decided under the lock.
	 */
	if ((r = get_version(db, path, &version, err)) < 0)
		return r;
	if (from)
		*from = version;
	if (version >= nsteps)
		return check_version(db, path, version, nsteps, err);

	rc = dialect_begin_write(db);
	if (rc != DB_OK)
		return sqlerr_set(db, path, rc, "begin migration", err);
	/* Another process may have migrated while we waited for the lock. */
	if ((r = get_version(db, path, &version, err)) < 0)
		goto fail;
	if (from)
		*from = version;
	if ((r = check_version(db, path, version, nsteps, err)) < 0)
		goto fail;
	for (int v = version; v < nsteps; v++) {
		rc = run_step(db, steps[v]);
		if (rc != DB_OK) {
			r = plumb_err_set(err, rc == DB_FULL || (rc & 0xff) == DB_IOERR ?
					  PLUMB_EIO : PLUMB_EINTERNAL,
					  "%s: migration to schema %d failed: %s", path, v + 1,
					  db_errmsg(db));
			goto fail;
		}
	}
	rc = dialect_set_version(db, nsteps);
	if (rc != DB_OK) {
		r = sqlerr_set(db, path, rc, "set schema version", err);
		goto fail;
	}
	rc = db_exec(db, "COMMIT");
	if (rc != DB_OK) {
		r = sqlerr_set(db, path, rc, "commit migration", err);
		goto fail;
	}
	return 0;
fail:
	db_exec(db, "ROLLBACK");
	return r;
}

int schema_migrate(struct db *db, const char *path, int *from,
		   struct plumb_err *err)
{
	return schema_apply(db, path, schema_steps, SCHEMA_VERSION, from, err);
}
