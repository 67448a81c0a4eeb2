#!/bin/sh
test_description='a fleet: 8 hosts pushing into one shared archive at once, and a push killed (SIGKILL) at every sync retried to completion with no duplicate and no loss'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

HOSTS=8
EACH=4

# count ARCHIVE: its bundle rows, and that no id is there twice.
count() {
	sqlite3 "$1/archive.db" "SELECT count(*) || ' ' || count(DISTINCT id) FROM bundles"
}

test_expect_success "$HOSTS hosts of their own class, $EACH bundles each, and one bundle every host holds" '
	make_bundle 999 common.plumb &&
	h=1 &&
	while test $h -le $HOSTS; do
		k=1 &&
		while test $k -le $EACH; do
			BUNDLE_FP=5ca1ab1e0000010$h make_bundle $((h * 100 + k)) h$h.$k.plumb || return 1
			k=$((k + 1))
		done &&
		plumb archive add h$h.*.plumb common.plumb --archive-dir host$h >/dev/null || return 1
		h=$((h + 1))
	done
'

test_expect_success SQLITE3 "$HOSTS pushes at once into one new shared archive all succeed, nothing twice, nothing lost" '
	push_at_once shared &&
	test "$(count shared)" = "$((HOSTS * EACH + 1)) $((HOSTS * EACH + 1))" &&
	h=1 &&
	while test $h -le $HOSTS; do
		test "$(sqlite3 shared/archive.db "SELECT count(*) FROM bundles b JOIN hosts h ON h.id = b.host
			WHERE h.fingerprint = '\''5ca1ab1e0000010$h'\''")" = $EACH || return 1
		h=$((h + 1))
	done &&
	rows_have_files shared && db_ok shared && no_temp_files shared &&
	plumb archive verify --archive-dir shared >/dev/null
'

test_expect_success 'one class pulled back from the shared archive' '
	plumb archive pull --archive-dir reader --from shared --host 5ca1ab1e00000103 --json >pull.json &&
	test_json pull.json "len(j[\"sent\"]) == $EACH" &&
	plumb archive list --archive-dir reader --json >list.json &&
	test_json list.json "len(j) == $EACH and all(b[\"host\"].startswith(\"5ca1ab1e00000103\") for b in j)"
'

# kill_at SC N: a push of host1 into a fresh shared archive killed at call
# N of system call SC, then run again to its end; prints "done" when the
# first push was not killed (N is past the last such call).
kill_at() {
	rm -rf K &&
	under_strace -f -o /dev/null -e trace="$1" -e inject="$1":signal=KILL:when="$2" \
		"$PLUMB" archive push --archive-dir host1 --to K >/dev/null 2>kill.err
	st=$?
	if test $st = 0; then
		echo done
		return 0
	fi
	test $st = 137 || { echo "$1 #$2: exited $st, not killed" >&2; cat kill.err >&2; return 1; }
	# Killed while creating the shared archive: no table yet to check.
	if test -n "$(sqlite3 K/archive.db "SELECT 1 FROM sqlite_master WHERE name = '\''bundles'\''" 2>/dev/null)"; then
		rows_have_files K || { echo "after a kill at $1 #$2" >&2; return 1; }
	fi
	"$PLUMB" archive push --archive-dir host1 --to K --json >rerun.json 2>rerun.err ||
		{ echo "after a kill at $1 #$2: the rerun failed" >&2; cat rerun.err >&2; return 1; }
	test_json rerun.json "len(j[\"sent\"]) + len(j[\"present\"]) == $((EACH + 1)) and not j[\"refused\"]" &&
	test "$(count K)" = "$((EACH + 1)) $((EACH + 1))" &&
	rows_have_files K && db_ok K && no_temp_files K &&
	"$PLUMB" archive verify --archive-dir K >verify.out 2>&1 ||
		{ echo "after a kill at $1 #$2:" >&2; cat verify.out >&2; return 1; }
	echo killed
}

for sc in fsync fdatasync linkat,rename; do
	test_expect_success STRACE,SQLITE3 "a push killed at each $sc, run again, completes with no duplicate and no loss" '
		n=1 kills=0 &&
		while :; do
			r=$(kill_at '"$sc"' $n) || return 1
			test "$r" = done && break
			kills=$((kills + 1)) n=$((n + 1))
			test $n -le 200 || { echo "'"$sc"': more than 200 calls?" >&2; return 1; }
		done &&
		test $kills -ge $((EACH + 1)) &&
		echo "'"$sc"': killed at $kills points" >&2
	'
done

test_done
