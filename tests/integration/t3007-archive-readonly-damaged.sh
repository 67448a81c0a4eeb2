#!/bin/sh
test_description='the archive read-only (another user, a read-only mount) and damaged (garbage, 0 bytes)'
. "$(dirname "$0")/test-lib.sh"
command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# A folder every user can read, outside the trash (whose parents may not be).
RO=$(mktemp -d "${TMPDIR:-/tmp}/plumb-t3007.XXXXXX") && chmod 755 "$RO"
A="$RO/archive"
trap 'umount "$A" 2>/dev/null; rm -rf "$RO"' EXIT

# NOBODY: run as an unprivileged user with setpriv, when this is root and
# that user can run this plumb at all.
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 &&
	as_nobody "$PLUMB" --version >/dev/null 2>&1 && test_set_prereq NOBODY

test_expect_success 'an archive with a bundle and a baseline' '
	plumb bundle pack "$FIXTURES/reports/inputs/slower" -o "$RO/s.plumb" >/dev/null &&
	plumb archive add "$RO/s.plumb" --archive-dir "$A" >added &&
	cut -c1-64 added >id &&
	plumb archive baseline set nightly "$(cat id)" --archive-dir "$A" >/dev/null &&
	chmod -R a+rX "$RO"
'

# reads DIR RUN...: every reading command works on the archive in DIR.
reads() {
	dir=$1
	shift
	"$@" "$PLUMB" archive list --archive-dir "$dir" >out &&
	test_grep "^$(cut -c1-12 id)" out &&
	"$@" "$PLUMB" archive show "$(cat id)" --archive-dir "$dir" >out &&
	test_grep "^signature " out &&
	"$@" "$PLUMB" archive verify --archive-dir "$dir" >/dev/null &&
	"$@" "$PLUMB" archive baseline list --archive-dir "$dir" >out &&
	test_grep "^nightly " out &&
	"$@" "$PLUMB" archive trend sort1m --archive-dir "$dir" >/dev/null &&
	"$@" "$PLUMB" report "$RO/s.plumb" --baseline nightly --archive-dir "$dir" >out &&
	test_grep "baseline nightly" out
}

test_expect_success NOBODY 'another user reads it: list, show, verify, baselines, trend, report --baseline' '
	reads "$A" as_nobody &&
	! test -e "$A/archive.db-shm.nobody"
'

test_expect_success NOBODY 'another user cannot write it, and is told why' '
	test_expect_code 74 as_nobody "$PLUMB" archive gc --archive-dir "$A" 2>err &&
	test_grep "$A: the archive folder is read-only" err &&
	test_expect_code 74 as_nobody "$PLUMB" archive baseline set other "$(cat id)" \
		--archive-dir "$A" 2>err &&
	test_grep "the archive folder is read-only" err
'

# ROMOUNT: a read-only bind mount of the archive in a mount namespace of its own.
if test "$(id -u)" = 0 && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c "mount --bind '$A' '$A' && mount -o remount,bind,ro '$A' && ! touch '$A/x'" 2>/dev/null; then
	test_set_prereq ROMOUNT
fi

in_ro_mount() {
	unshare -m sh -c "mount --bind '$A' '$A' && mount -o remount,bind,ro '$A' && exec \"\$@\"" sh "$@"
}

test_expect_success ROMOUNT 'on a read-only bind mount: reads work, writes say the folder is read-only' '
	reads "$A" in_ro_mount &&
	test_expect_code 74 in_ro_mount "$PLUMB" archive gc --archive-dir "$A" 2>err &&
	test_grep "the archive folder is read-only" err
'

test_expect_success SQLITE3 'garbage in archive.db: gc refuses it (exit 3) and writes nothing' '
	cp -R "$A" g &&
	page=$(sqlite3 g/archive.db "SELECT rootpage FROM sqlite_master WHERE name = \"benches_trend\"") &&
	size=$(sqlite3 g/archive.db "PRAGMA page_size") &&
	head -c 8192 /dev/urandom | dd of=g/archive.db bs=1 seek=$(( (page - 1) * size )) conv=notrunc 2>/dev/null &&
	cp g/archive.db before.db &&
	test_expect_code 3 plumb archive gc --archive-dir g 2>err &&
	test_grep "g/archive.db: .*the archive database is damaged" err &&
	test_grep "plumb archive verify" err &&
	cmp before.db g/archive.db
'

# damaged DIR INDEX: a copy of the archive in DIR whose index INDEX has a
# damaged page (the tables still read: only a check finds it).
damaged() {
	rm -rf "$1" && cp -R "$A" "$1" &&
	python3 "$TEST_SRCDIR/tests/integration/damage-index.py" "$1/archive.db" "$2" &&
	cp "$1/archive.db" "$1.before"
}

# refused_damaged DIR COMMAND...: exit 3, saying the database is damaged
# and what recovers it, and archive.db unchanged.
refused_damaged() {
	d=$1
	shift
	test_expect_code 3 "$@" >out 2>err &&
	test_grep "$d/archive.db: .*the archive database is damaged" err &&
	test_grep "plumb archive verify" err && test_grep "plumb archive reindex" err &&
	cmp "$d.before" "$d/archive.db"
}

test_expect_success PYTHON,SQLITE3 'a damaged index: every writer checks before it writes (add, baseline set, rm, gc): exit 3, nothing written' '
	damaged d1 benches_trend &&
	plumb bundle pack "$FIXTURES/reports/inputs/faster" -o f.plumb >/dev/null &&
	refused_damaged d1 plumb archive add f.plumb --archive-dir d1 &&
	refused_damaged d1 plumb archive baseline set other "$(cat id)" --archive-dir d1 &&
	refused_damaged d1 plumb archive rm "$(cat id)" --archive-dir d1 &&
	refused_damaged d1 plumb archive gc --archive-dir d1 &&
	test_grep "quick_check" err
'

test_expect_success PYTHON,SQLITE3 'a damaged index: readers refuse the first damaged page they meet (list, baseline show, report)' '
	damaged d2 bundles_created &&
	refused_damaged d2 plumb archive list --archive-dir d2 &&
	damaged d3 sqlite_autoindex_baselines_1 &&
	refused_damaged d3 plumb archive baseline show nightly --archive-dir d3 &&
	test_grep_not "no baseline" err &&
	refused_damaged d3 plumb report "$RO/s.plumb" --baseline nightly --archive-dir d3 &&
	test_grep_not "no such file" err &&
	plumb archive baseline show nightly --archive-dir "$A" >/dev/null
'

test_expect_success 'a 0-byte archive.db is refused (exit 3), not taken for a new archive' '
	cp -R "$A" z && : >z/archive.db &&
	test_expect_code 3 plumb archive list --archive-dir z 2>err &&
	test_grep "z/archive.db: empty (0 bytes), not an archive database" err &&
	test_expect_code 3 plumb archive add "$RO/s.plumb" --archive-dir z 2>err &&
	test_grep "empty (0 bytes)" err &&
	test_expect_code 3 plumb archive baseline list --archive-dir z 2>err &&
	! test -s z/archive.db
'

test_expect_success SQLITE3 'archive reindex restores list, trend and baselines from the files' '
	for d in g z; do
		plumb archive reindex --archive-dir $d >out &&
		test_grep "^reindex: 1 bundle indexed again, 1 baseline restored" out &&
		test -f $d/archive.db.damaged &&
		plumb archive list --archive-dir $d >list &&
		test_grep "^$(cut -c1-12 id)" list &&
		plumb archive trend sort1m --archive-dir $d >trend &&
		test_grep "1 point" trend &&
		plumb archive baseline list --archive-dir $d >bl &&
		test_grep "^nightly " bl &&
		plumb archive gc --archive-dir $d >/dev/null &&
		test "$(sqlite3 $d/archive.db "PRAGMA quick_check")" = ok || return 1
	done &&
	test_grep "^nightly	$(cat id)	candidate	" "$A/baselines.tsv"
'

test_expect_success 'a baseline removed is gone from baselines.tsv too' '
	plumb archive baseline set other "$(cat id)" --side base --note "a	tab" --archive-dir z >/dev/null &&
	test_grep "^other	$(cat id)	base	a\\\\ttab$" z/baselines.tsv &&
	plumb archive baseline rm other --archive-dir z >/dev/null &&
	test_grep_not "^other	" z/baselines.tsv
'

test_expect_success 'archive reindex of a folder that does not exist: exit 3, said so' '
	test_expect_code 3 plumb archive reindex --archive-dir "$TRASH/none" 2>err &&
	test_grep "none: no such archive folder" err &&
	test_grep_not "read-only" err &&
	! test -e none
'

test_done
