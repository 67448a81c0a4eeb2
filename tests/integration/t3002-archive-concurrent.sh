#!/bin/sh
test_description='archive add from 8 processes at once, with duplicates'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

DISTINCT=20
PROCS=8
EACH=50

test_expect_success '8 processes creating the same new archive at once all see a plumb archive' '
	printf "x" >bad.plumb &&
	round=1 &&
	while test $round -le 25; do
		archive_drop N &&
		for p in 1 2 3 4 5 6 7 8; do
			plumb archive add bad.plumb --archive-dir N 2>>create.err &
		done &&
		wait &&
		round=$((round + 1))
	done &&
	! grep -v "bad.plumb" create.err
'

test_expect_success "make $DISTINCT distinct bundles" '
	i=1 &&
	while test $i -le $DISTINCT; do
		make_bundle $i b$i.plumb || return 1
		i=$((i + 1))
	done
'

# worker N: EACH imports, one process each, walking the bundles from its
# own starting point so that every bundle is added by several workers.
worker() {
	k=0 status=0
	while test $k -lt $EACH; do
		b=$(( ($1 * 7 + k) % DISTINCT + 1 ))
		plumb archive add b$b.plumb --archive-dir A >>out.$1 2>>err.$1 || {
			echo "worker $1: add b$b.plumb exited $?" >>err.$1
			status=1
		}
		k=$((k + 1))
	done
	return $status
}

test_expect_success SQLITE3 "$PROCS processes x $EACH imports into a new archive all succeed" '
	p=1 pids= &&
	while test $p -le $PROCS; do
		worker $p &
		pids="$pids $!"
		p=$((p + 1))
	done &&
	failed=0 &&
	for pid in $pids; do
		wait $pid || failed=1
	done &&
	cat err.* >err &&
	test_must_fail test -s err &&
	test $failed = 0 &&
	cat out.* >out &&
	test "$(wc -l <out)" = $((PROCS * EACH)) &&
	test "$(grep -c "  added$" out)" = $DISTINCT
'

test_expect_success SQLITE3 'one row per distinct bundle, every row with its file, database intact' '
	test "$(index_sql A "SELECT count(*) FROM bundles")" = $DISTINCT &&
	test "$(index_sql A "SELECT count(DISTINCT id) FROM bundles")" = $DISTINCT &&
	test "$(index_sql A "SELECT count(*) FROM benches")" = $DISTINCT &&
	test "$(index_sql A "SELECT count(*) FROM hosts")" = 1 &&
	db_ok A && rows_have_files A && no_temp_files A &&
	plumb archive verify --archive-dir A >out &&
	test_grep "^ok: $DISTINCT bundles and $DISTINCT files" out
'

test_expect_success 'no busy or locked error ever reached a user' '
	! grep -i -e busy -e locked err.* /dev/null
'

test_done
