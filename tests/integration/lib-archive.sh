# tests/integration/lib-archive.sh: helpers of the t3*-archive-* tests,
# sourced after test-lib.sh.
#
# The back end: ARCHIVE_BACKEND=sqlite (the default) or postgresql, set by
# the script before sourcing this file (the t31xx scripts run a t30xx
# script so).  On PostgreSQL a server of the script's own is started
# (lib-pg.sh), and `plumb` (and $PLUMB) is plumb with every --archive-dir
# DIR turned into the URL of a database of DIR's own on it, the bundle
# files in DIR (PLUMB_ARCHIVE_STORE): the tests read the same either way.
# The helpers below that look into the index (index_sql, rows_have_files,
# db_ok, archive_copy, archive_drop, archive_same) work on both.

: "${ARCHIVE_BACKEND:=sqlite}"
command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3
# SQLITE_INDEX: the index is archive.db, a file the test may damage or copy.
test "$ARCHIVE_BACKEND" = sqlite && test_set_prereq SQLITE_INDEX
# MANY_ARCHIVES: a test may make a hundred archives (on PostgreSQL each is a
# CREATE DATABASE of a second or so: such a test, about the report and not
# the index, runs on SQLite only).
test "$ARCHIVE_BACKEND" = sqlite && test_set_prereq MANY_ARCHIVES

if test "$ARCHIVE_BACKEND" = postgresql; then
	. "$TEST_SRCDIR/tests/integration/lib-pg.sh"
	if ! test_have_prereq POSTGRESQL; then
		echo "1..0 # SKIP the PostgreSQL back end needs Debian's postgresql (initdb, pg_ctl, psql)"
		exit 0
	fi
	pg_start || { echo "Bail out! cannot start a PostgreSQL server"; exit 1; }
	# A database is named after the archive folder's absolute path.
	mkdir -p "$TRASH/.pg" &&
	cat >"$TRASH/.pg/plumb" <<WRAP || exit 1
#!/bin/sh
n=\$# i=0 next=
while test \$i -lt \$n; do
	a=\$1; shift; i=\$((i + 1))
	if test -n "\$next"; then
		next=
		case \$a in
		postgres*://*) ;;
		*)
			case \$a in /*) d=\$a ;; *) d=\$PWD/\$a ;; esac
			name=a\$(printf %s "\$d" | cksum | cut -d" " -f1)
			if ! test -f "$PG_DIR/db.\$name"; then
				flock "$PG_DIR/create.lock" sh -c 'test -f "\$1" || { printf "CREATE DATABASE %s\\n" "\$2" |
					psql -X -q -h "$PG_SOCKDIR" -U "$PG_USER" -d postgres && : >"\$1"; }' sh "$PG_DIR/db.\$name" "\$name" ||
					exit 70
			fi
			PLUMB_ARCHIVE_STORE=\$d
			export PLUMB_ARCHIVE_STORE
			a="postgresql://$PG_USER:not-a-secret@/\$name?host=$PG_SOCKDIR"
			;;
		esac
	fi
	test "x\$a" = x--archive-dir && next=1
	set -- "\$@" "\$a"
done
exec "$PLUMB" "\$@"
WRAP
	chmod +x "$TRASH/.pg/plumb"
	PLUMB="$TRASH/.pg/plumb"
	export PLUMB
fi

# archive_nights DIR ARGS...: tests/integration/archive-nights filling archive DIR.
archive_nights() {
	d=$1
	shift
	if test "$ARCHIVE_BACKEND" = postgresql; then
		PLUMB_ARCHIVE_STORE=$d "$TEST_BUILDDIR/tests/integration/archive-nights" \
			"$(pg_url "$(archive_db "$d")")" "$@"
	else
		"$TEST_BUILDDIR/tests/integration/archive-nights" "$d" "$@"
	fi
}

# archive_db DIR: the database name of archive folder DIR (PostgreSQL).
archive_db() {
	case $1 in /*) d=$1 ;; *) d=$PWD/$1 ;; esac
	echo "a$(printf %s "$d" | cksum | cut -d" " -f1)"
}

# index_sql DIR SQL: run SQL on the index of archive DIR (unaligned, no headers).
index_sql() {
	if test "$ARCHIVE_BACKEND" = postgresql; then
		pg_sql "$(archive_db "$1")" "$2"
	else
		sqlite3 "$1/archive.db" "$2"
	fi
}

# archive_drop DIR: remove archive DIR, its folder and its index.
archive_drop() {
	rm -rf "$1" &&
	if test "$ARCHIVE_BACKEND" = postgresql; then
		db=$(archive_db "$1") &&
		pg_sql postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" &&
		rm -f "$PG_DIR/db.$db"
	fi
}

# archive_copy SRC DST: DST a copy of archive SRC (folder and index).
archive_copy() {
	archive_drop "$2" &&
	cp -a "$1" "$2" &&
	if test "$ARCHIVE_BACKEND" = postgresql; then
		db=$(archive_db "$2") &&
		pg_sql postgres "CREATE DATABASE $db TEMPLATE $(archive_db "$1")" &&
		: >"$PG_DIR/db.$db"
	fi
}

# archive_dump DIR: the index's rows, as text, to compare.
archive_dump() {
	index_sql "$1" "SELECT id, file_sha256, size FROM bundles ORDER BY id;
		SELECT u.id, b.name, b.cand_center FROM benches b JOIN bundles u ON u.rid = b.bundle ORDER BY 1, 2;
		SELECT name, side FROM baselines ORDER BY name"
}

# archive_same A B: the same files and the same index rows.
archive_same() {
	diff -r "$1" "$2" >/dev/null 2>&1 &&
	if test "$ARCHIVE_BACKEND" = postgresql; then
		archive_dump "$1" >same.1 && archive_dump "$2" >same.2 && cmp -s same.1 same.2
	fi
}

# make_bundle SEED OUT [LOGBYTES]: pack the fixture folder with run.seed =
# SEED, so each seed gives a bundle with its own id; with LOGBYTES, a log
# of that many bytes of base64 noise (compressing to about 3/4) makes it big.
# $BUNDLE_FP, when set, is its host fingerprint (another host class).
make_bundle() {
	rm -rf "mk.$1" && mkdir "mk.$1" &&
	sed -e "s/\"seed\": 1,/\"seed\": $1,/" \
		-e "s/\"fingerprint\": \"5ca1ab1e00000001\"/\"fingerprint\": \"${BUNDLE_FP:-5ca1ab1e00000001}\"/" \
		"$FIXTURES/archive/bundle/manifest.json" >"mk.$1/manifest.json" &&
	cp "$FIXTURES/archive/bundle/samples.tsv" "mk.$1/" &&
	if test -n "${3:-}"; then
		mkdir "mk.$1/logs" &&
		head -c "$3" /dev/urandom | base64 | head -c "$3" >"mk.$1/logs/build.log"
	fi &&
	plumb bundle pack "mk.$1" -o "$2" >/dev/null &&
	rm -rf "mk.$1"
}

# bundle_id FILE: the id `plumb archive add` prints for it, from a scratch archive.
bundle_id() {
	plumb archive add "$1" --archive-dir "$TRASH/.id-archive" | cut -c1-64
}

# stored_path ARCHIVE ID
stored_path() {
	id=$2
	echo "$1/bundles/$(printf %.2s "$id")/$id.plumb"
}

# rows_have_files ARCHIVE: every bundle row has its file (the invariant).
rows_have_files() {
	index_sql "$1" "SELECT id FROM bundles" >rows.txt || return 1
	while read -r id; do
		f=$(stored_path "$1" "$id")
		test -f "$f" || { echo "row $id has no file $f" >&2; return 1; }
	done <rows.txt
}

# db_ok ARCHIVE: SQLite's integrity check passes (PostgreSQL: the database answers).
db_ok() {
	if test "$ARCHIVE_BACKEND" = postgresql; then
		test "$(index_sql "$1" "SELECT count(*) >= 0 FROM bundles")" = t
		return
	fi
	out=$(sqlite3 "$1/archive.db" "PRAGMA integrity_check") &&
	test "$out" = ok || { echo "integrity_check: $out" >&2; return 1; }
}

# no_temp_files ARCHIVE
no_temp_files() {
	find "$1/bundles" -name ".*.tmp.*" >temps.txt &&
	! test -s temps.txt || { cat temps.txt >&2; return 1; }
}

# plant ARCHIVE FILE: put a bundle file into ARCHIVE the way no plumb
# command would, unverified (its file under its id, and a bare row), as
# bit rot or a hostile host would leave it; prints its id.
plant() {
	id=$(zstd -dcq "$2" | tar -xOf - SHA256SUMS | sha256sum | cut -c1-64) &&
	sum=$(sha256sum "$2" | cut -c1-64) && size=$(wc -c <"$2") &&
	mkdir -p "$1/bundles/$(printf %.2s "$id")" &&
	cp "$2" "$(stored_path "$1" "$id")" &&
	sqlite3 "$1/archive.db" "INSERT INTO bundles (id, file_sha256, size, created, added,
		format_version, signature) VALUES ('$id', '$sum', $size, 0, 0, '1.0', 'none')" &&
	echo "$id"
}

# push_at_once TO: hosts host1..host$HOSTS push to TO all at once; fails
# unless every push exits 0, no bundle is sent twice, nothing is refused
# or stopped, and each host's 5 bundles are sent or already there.
push_at_once() {
	h=1 pids= &&
	while test $h -le $HOSTS; do
		plumb archive push --archive-dir host$h --to "$1" --json >push.$h.json 2>push.$h.err &
		pids="$pids $!"
		h=$((h + 1))
	done &&
	status=0 &&
	for p in $pids; do
		wait $p || status=1
	done &&
	test $status = 0 || { cat push.*.err >&2; return 1; }
	python3 - push.*.json <<-\PY
	import json, sys
	runs = [json.load(open(f)) for f in sys.argv[1:]]
	sent = [i for r in runs for i in r["sent"]]
	assert len(sent) == len(set(sent)), "a bundle sent twice"
	for r in runs:
	    assert not r["refused"] and not r["stopped"], r
	    assert len(r["sent"]) + len(r["present"]) == 5, r
	PY
}
