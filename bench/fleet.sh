#!/bin/sh
# bench/fleet.sh: a fleet's archive on PostgreSQL against the same on SQLite
# (issue 19).
#
#   bench/fleet.sh [--small] [--nights N]     (run from the build folder)
#
# Generates a simulated fleet, 50 hosts x 20 bundles a night x 365 nights
# = 365,000 bundles (--small: 5 hosts x 20 x 30 = 3,000; --nights N: 50
# hosts x 20 x N), through the real
# insert path (bench/archive-fill: ingest_insert, rows only, no files), one
# transaction per host and night (20 bundles), and prints:
#   the import rate with 8 concurrent writers (8 processes, each the hosts
#   h with h % 8 == k), into PostgreSQL and into SQLite;
#   archive list --bench b3 --last 100, archive baseline show, and
#   archive trend interp --host FP (one benchmark on one class: 20 points a
#   night, 7,300 in a year), each as a whole plumb process (median of 9, bench/measure.sh);
#   the database's size per bundle on both.
# The PostgreSQL server is one of its own (initdb in a temporary folder,
# a Unix socket there, no TCP port; as nobody when run as root, default
# settings: fsync on), stopped and removed at exit.
set -eu

HOSTS=50 PER_NIGHT=20 NIGHTS=365
while test $# -gt 0; do
	case $1 in
	--small) HOSTS=5 NIGHTS=30 ;;
	--nights) NIGHTS=$2; shift ;;
	*) echo "usage: bench/fleet.sh [--small] [--nights N]" >&2; exit 2 ;;
	esac
	shift
done
N=$((HOSTS * PER_NIGHT * NIGHTS))
WRITERS=8
BUILD=$(pwd)
PLUMB=${PLUMB:-$BUILD/plumb}
FILL=$BUILD/bench/archive-fill
SRC=$(cd "$(dirname "$0")/.." && pwd)

test -x "$PLUMB" || { echo "fleet.sh: no $PLUMB; run make first" >&2; exit 1; }
if ! test -x "$FILL"; then
	make -s bench/archive-fill >/dev/null || { echo "fleet.sh: cannot build $FILL" >&2; exit 1; }
fi

# The test suite's server (tests/integration/lib-pg.sh), outside a test.
test_set_prereq() { :; }
say() { echo "fleet.sh: $*" >&2; }
. "$SRC/tests/integration/lib-pg.sh"
test -n "$PG_BIN" || { echo "fleet.sh: no PostgreSQL server here (Debian's postgresql)" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-fleet.XXXXXX")
pg_start_fsync() {
	pg_start
	# pg_start is the tests' (fsync off); a benchmark wants the default durability.
	as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -o "-k $PG_DIR -c listen_addresses= -c fsync=on" \
		restart >/dev/null
}
pg_start_fsync
trap 'pg_stop; rm -rf "$WORK"' EXIT
trap 'pg_stop; rm -rf "$WORK"; exit 130' INT TERM
URL=$(pg_url fleet)
LITE=$WORK/sqlite
export PLUMB_ARCHIVE_STORE="$WORK/store"

. "$(dirname "$0")/measure.sh"

# fill WHERE: 8 writers at once; prints the seconds it took.
fill() {
	start=$(python3 -c 'import time; print(time.time())')
	k=0 pids=
	while test $k -lt $WRITERS; do
		"$FILL" "$1" "$N" --hosts "$HOSTS" --per-night "$PER_NIGHT" --part "$k/$WRITERS" \
			--batch "$PER_NIGHT" &
		pids="$pids $!"
		k=$((k + 1))
	done
	status=0
	for p in $pids; do wait "$p" || status=1; done
	test $status = 0 || { echo "fleet.sh: a writer failed" >&2; exit 1; }
	python3 -c "import time; print('%.1f' % (time.time() - $start))"
}

echo "a fleet of $HOSTS hosts x $PER_NIGHT bundles a night x $NIGHTS nights = $N bundles"
echo "(3 benchmarks each: interp and two of b0..b9), $WRITERS writers at once, a commit per host and night"
echo
s_pg=$(fill "$URL")
s_lite=$(fill "$LITE")
rows_pg=$(pg_sql fleet "SELECT count(*) FROM bundles")
rows_lite=$(sqlite3 "$LITE/archive.db" "SELECT count(*) FROM bundles")
test "$rows_pg" = "$N" && test "$rows_lite" = "$N" ||
	{ echo "fleet.sh: $rows_pg rows on PostgreSQL, $rows_lite on SQLite, not $N" >&2; exit 1; }
printf '%-44s %8s s  %8.0f bundles/s\n' "import into PostgreSQL ($WRITERS writers)" "$s_pg" \
	"$(python3 -c "print($N / $s_pg)")"
printf '%-44s %8s s  %8.0f bundles/s\n' "import into SQLite ($WRITERS writers)" "$s_lite" \
	"$(python3 -c "print($N / $s_lite)")"

FP=$(sqlite3 "$LITE/archive.db" "SELECT fingerprint FROM hosts ORDER BY fingerprint LIMIT 1")
for where in "$URL" "$LITE"; do
	ID=$("$PLUMB" archive list --last 1 --json --archive-dir "$where" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
	"$PLUMB" archive baseline set nightly "$ID" --archive-dir "$where" >/dev/null
done
POINTS=$("$PLUMB" archive trend interp --host "$FP" --json --archive-dir "$LITE" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["points"]))')
POINTS_PG=$("$PLUMB" archive trend interp --host "$FP" --json --archive-dir "$URL" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["points"]))')
test "$POINTS" = "$POINTS_PG" || { echo "fleet.sh: trend of $POINTS points on SQLite, $POINTS_PG on PostgreSQL" >&2; exit 1; }

echo
echo "each as a whole plumb process, median of 9:"
row "plumb --version (start-up only)" "$PLUMB" --version
for b in postgresql sqlite; do
	if test $b = postgresql; then where=$URL; else where=$LITE; fi
	row "$b: archive list --bench b3 --last 100" "$PLUMB" archive list --bench b3 --last 100 --archive-dir "$where"
	row "$b: archive baseline show nightly" "$PLUMB" archive baseline show nightly --archive-dir "$where"
	row "$b: archive trend interp --host FP ($POINTS pts)" "$PLUMB" archive trend interp --host "$FP" --archive-dir "$where"
done

echo
"$PLUMB" archive list --archive-dir "$LITE" --last 1 >/dev/null   # a reader: the WAL is checkpointed by the last writer
bytes_pg=$(pg_sql fleet "SELECT pg_database_size(current_database())")
bytes_lite=$(cat "$LITE/archive.db" "$LITE/archive.db-wal" 2>/dev/null | wc -c)
printf '%-44s %8.0f bytes per bundle (%s MB)\n' "PostgreSQL database size" \
	"$(python3 -c "print($bytes_pg / $N)")" "$((bytes_pg / 1048576))"
printf '%-44s %8.0f bytes per bundle (%s MB)\n' "SQLite archive.db (+ WAL)" \
	"$(python3 -c "print($bytes_lite / $N)")" "$((bytes_lite / 1048576))"
