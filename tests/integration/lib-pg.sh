# tests/integration/lib-pg.sh: a PostgreSQL server of the test's own,
# sourced after test-lib.sh.  pg_start starts one (once per test script)
# in a temporary folder, listening on a Unix socket there and on no TCP
# port, as an unprivileged user when the tests run as root (initdb
# refuses root); it is stopped and removed when the script exits, however
# it exits.  Without Debian's postgresql, the POSTGRESQL prerequisite is
# missing and the tests that need it are skipped.
#
#   pg_start            start the server; sets PG_SOCKDIR and PG_USER
#   pg_url DB           a postgresql:// URL of database DB on it (created on first use)
#   pg_sql DB SQL       run SQL there, unaligned output without headers

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG_USER=plumb
PG_DIR=
if test -n "$PG_BIN" && test -x "$PG_BIN/initdb" && test -x "$PG_BIN/pg_ctl" &&
   command -v psql >/dev/null 2>&1; then
	test_set_prereq POSTGRESQL
else
	say "no PostgreSQL server here (Debian's postgresql: /usr/lib/postgresql/*/bin/initdb, psql): its tests are skipped"
fi

# as_owner CMD...: run CMD as the server's owner (nobody when we are root).
as_owner() {
	if test "$(id -u)" = 0; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}

pg_stop() {
	test -n "$PG_DIR" || return 0
	as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}

pg_start() {
	test -z "$PG_DIR" || return 0
	# A short path: a Unix socket's name has a limit of about 100 bytes.
	PG_DIR=$(mktemp -d /tmp/plumb-pg.XXXXXX) || return 1
	trap 'pg_stop' EXIT
	trap 'pg_stop; exit 130' INT TERM
	chmod 755 "$PG_DIR" &&
	if test "$(id -u)" = 0; then chown nobody "$PG_DIR"; fi &&
	as_owner "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" --auth=trust --no-sync \
		-E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1 &&
	as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
		-o "-k $PG_DIR -c listen_addresses= -c fsync=off -c max_connections=60" \
		start >/dev/null || {
		cat "$PG_DIR/initdb.log" "$PG_DIR/server.log" >&2 2>/dev/null
		return 1
	}
	PG_SOCKDIR=$PG_DIR
	export PG_SOCKDIR
}

pg_sql() {
	printf '%s\n' "$2" | psql -X -q -tA -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -U "$PG_USER" -d "$1"
}

pg_url() {
	if ! test -f "$PG_DIR/db.$1"; then
		pg_sql postgres "CREATE DATABASE \"$1\"" >/dev/null && : >"$PG_DIR/db.$1" || return 1
	fi
	echo "postgresql://$PG_USER:not-a-secret@/$1?host=$PG_SOCKDIR"
}
