#!/bin/sh
test_description='an archive whose bundle files are on an rclone remote (archive.conf store = rclone:REMOTE:PATH): push, pull, verify, gc, rm, and interrupted uploads that leave nothing verify takes for whole'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

command -v rclone >/dev/null 2>&1 && test_set_prereq RCLONE
test_have_prereq RCLONE,SQLITE3 || say "skipped: needs rclone (Debian package rclone) and sqlite3"

# A remote of type local in an rclone.conf of the test's own.
printf '[fleet]\ntype = local\n' >rclone.conf
RCLONE_CONFIG="$TRASH/rclone.conf"
export RCLONE_CONFIG
R="$TRASH/remote"

# remote_path ID: where the remote keeps a bundle.
remote_path() {
	echo "$R/$(printf %.2s "$1")/$1.plumb"
}

count() {
	sqlite3 "$1/archive.db" "SELECT count(*) || ' ' || count(DISTINCT id) FROM bundles"
}

test_expect_success RCLONE,SQLITE3 'a host with three bundles, a shared archive whose store is the remote' '
	make_bundle 1 b1.plumb && make_bundle 2 b2.plumb && make_bundle 3 b3.plumb &&
	plumb archive add b1.plumb b2.plumb b3.plumb --archive-dir L >added.txt &&
	cut -c1-64 added.txt | sort >ids.txt &&
	mkdir S && printf "# the bundle files of this archive\nstore = rclone:fleet:%s/\n" "$R" >S/archive.conf
'

test_expect_success RCLONE,SQLITE3 'push uploads each bundle under its id before its row; nothing is kept in the folder' '
	plumb archive push --archive-dir L --to S >out 2>err &&
	test_grep "3 sent, 0 already there, 0 refused" out &&
	test "$(count S)" = "3 3" &&
	while read id; do
		cmp "$(remote_path "$id")" "$(stored_path L "$id")" || return 1
	done <ids.txt &&
	test "$(find S -name "*.plumb" | wc -l)" = 0 &&
	! find "$R" -name ".*" | grep . &&
	plumb archive verify --archive-dir S >out &&
	test_grep "3 bundles and 3 files" out &&
	plumb archive push --archive-dir L --to S --json >out.json &&
	test_json out.json "len(j[\"present\"]) == 3 and j[\"sent\"] == []"
'

test_expect_success RCLONE,SQLITE3 'pull downloads from the remote store, verified' '
	plumb archive pull --archive-dir P --from S >out &&
	test_grep "3 sent" out &&
	plumb archive verify --archive-dir P >/dev/null &&
	test "$(count P)" = "3 3"
'

test_expect_success RCLONE,SQLITE3 'a report against a baseline of the remote store reads it from there' '
	id=$(head -n 1 ids.txt) &&
	plumb archive baseline set nightly "$id" --archive-dir S >/dev/null &&
	PLUMB_ARCHIVE="$TRASH/S" plumb report b2.plumb --baseline nightly >out &&
	test_grep "baseline from $id" out &&
	TMPDIR="$TRASH/tmp" && mkdir "$TMPDIR" && export TMPDIR &&
	PLUMB_ARCHIVE="$TRASH/S" plumb report b2.plumb --baseline nightly >/dev/null &&
	unset TMPDIR &&
	test "$(ls tmp | wc -l)" = 0 &&
	plumb archive baseline rm nightly --archive-dir S >/dev/null
'

test_expect_success RCLONE,SQLITE3 'verify hashes the remote files: a changed byte, a stray file, a leftover temporary name' '
	id=$(head -n 1 ids.txt) && f=$(remote_path "$id") &&
	cp "$f" saved.plumb && chmod u+w "$f" &&
	printf "X" | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null &&
	echo junk >"$R/stray.txt" &&
	cp b2.plumb "$R/$(printf %.2s "$id")/.$id.plumb.tmp.99" &&
	test_expect_code 3 plumb archive verify --archive-dir S >out &&
	test_grep "$id.plumb: wrong SHA-256" out &&
	test_grep "stray.txt: stray file" out &&
	test_grep "\.$id.plumb.tmp.99: leftover temporary file" out &&
	cp saved.plumb "$f" && rm "$R/stray.txt" &&
	test_expect_code 3 plumb archive verify --archive-dir S >out &&
	test_grep_not "wrong SHA-256" out &&
	plumb archive gc --archive-dir S >out &&
	test_grep "removed leftover temporary file" out &&
	! test -e "$R/$(printf %.2s "$id")/.$id.plumb.tmp.99" &&
	plumb archive verify --archive-dir S >/dev/null
'

test_expect_success RCLONE,SQLITE3 'gc adopts a file on the remote that has no rows, after verifying it' '
	make_bundle 4 b4.plumb &&
	id4=$(plumb archive add b4.plumb --archive-dir other | cut -c1-64) &&
	mkdir -p "$R/$(printf %.2s "$id4")" && cp b4.plumb "$(remote_path "$id4")" &&
	test_expect_code 3 plumb archive verify --archive-dir S >out &&
	test_grep "file without rows" out &&
	plumb archive gc --archive-dir S >out &&
	test_grep "adopted bundle $id4" out &&
	test "$(count S)" = "4 4" &&
	plumb archive verify --archive-dir S >/dev/null &&
	plumb archive rm "$id4" --archive-dir S >/dev/null &&
	! test -e "$(remote_path "$id4")" &&
	test "$(count S)" = "3 3" &&
	# A row whose remote file is gone: reported with where it should be.
	id=$(head -n 1 ids.txt) && mv "$(remote_path "$id")" gone.plumb &&
	test_expect_code 3 plumb archive gc --archive-dir S >out &&
	test_grep "^$id: row without file (rclone:fleet:$R/$(printf %.2s "$id")/$id.plumb is missing)" out &&
	mv gone.plumb "$(remote_path "$id")" &&
	plumb archive verify --archive-dir S >/dev/null
'

# (strace counts the calls of each process: every rclone moveto is killed
# at its rename, so the first upload is the one that fails.)
test_expect_success RCLONE,STRACE,SQLITE3 'rclone killed while renaming its upload: the push fails, no row, nothing left; a rerun completes' '
	rm -rf S2 R2 && mkdir S2 &&
	printf "store = rclone:fleet:%s\n" "$TRASH/R2" >S2/archive.conf &&
	test_expect_code 74 under_strace -f -o /dev/null -e trace=renameat,rename \
		-e inject=renameat,rename:signal=KILL:when=1 \
		"$PLUMB" archive push --archive-dir L --to S2 --quiet 2>err &&
	test_grep "rclone moveto: killed by signal 9" err &&
	test "$(count S2)" = "0 0" &&
	test "$(find "$TRASH/R2" -type f | wc -l)" = 0 &&
	plumb archive verify --archive-dir S2 >/dev/null &&
	plumb archive push --archive-dir L --to S2 --json >out.json &&
	test_json out.json "len(j[\"sent\"]) == 3" &&
	test "$(count S2)" = "3 3" &&
	plumb archive verify --archive-dir S2 >/dev/null
'

# plumb itself killed (SIGKILL) at each of its waits on rclone: rclone dies
# with it (PR_SET_PDEATHSIG) wherever it was in its upload.
test_expect_success RCLONE,STRACE,SQLITE3 'a push killed at every wait on rclone leaves nothing verify accepts as whole; a rerun and gc complete it' '
	rm -rf one && plumb archive add b1.plumb --archive-dir one >/dev/null &&
	n=1 kills=0 &&
	while :; do
		rm -rf S3 R3 && mkdir S3 &&
		printf "store = rclone:fleet:%s\n" "$TRASH/R3" >S3/archive.conf &&
		under_strace -o /dev/null -e trace=poll -e inject=poll:signal=KILL:when=$n \
			"$PLUMB" archive push --archive-dir one --to S3 --quiet >/dev/null 2>kill.err
		st=$?
		test $st = 0 && break
		test $st = 137 || { echo "poll #$n: exited $st" >&2; cat kill.err >&2; return 1; }
		kills=$((kills + 1))
		# Whatever is there: under the bundle name only the whole bundle, a
		# row only with that file; else a temporary name, or a file gc adopts.
		for f in $(find "$TRASH/R3" -type f -name "[0-9a-f]*.plumb" 2>/dev/null); do
			cmp "$f" b1.plumb || { echo "poll #$n: $f is not the bundle" >&2; return 1; }
		done
		if test -e S3/archive.db; then
			plumb archive verify --archive-dir S3 >v.out 2>&1
			grep -v "leftover temporary file\|file without rows\|^ok\|problem" v.out >bad.txt
			! test -s bad.txt || { echo "poll #$n:" >&2; cat v.out >&2; return 1; }
		fi
		plumb archive push --archive-dir one --to S3 --quiet &&
		plumb archive gc --archive-dir S3 >/dev/null &&
		plumb archive verify --archive-dir S3 >/dev/null &&
		test "$(count S3)" = "1 1" || { echo "after a kill at poll #$n" >&2; return 1; }
		n=$((n + 1))
		test $n -le 100 || { echo "more than 100 polls?" >&2; return 1; }
	done &&
	test $kills -ge 3
'

test_expect_success RCLONE 'archive.conf errors name the file and line; a missing rclone says so' '
	mkdir B && printf "store = rclone:fleet:%s\nurl = x\n" "$R" >B/archive.conf &&
	test_expect_code 3 plumb archive push --archive-dir L --to B 2>err &&
	test_grep "B/archive.conf:2: unknown key .url." err &&
	printf "store = /srv/folder\n" >B/archive.conf &&
	test_expect_code 3 plumb archive list --archive-dir B 2>err &&
	test_grep "B/archive.conf:1: store: ./srv/folder. is not rclone:REMOTE:PATH" err &&
	printf "store = rclone:-x:y\n" >B/archive.conf &&
	test_expect_code 3 plumb archive list --archive-dir B 2>err &&
	test_grep "cannot start with" err &&
	mkdir nobin && ln -s "$(command -v sqlite3)" nobin/ &&
	make_bundle 5 b5.plumb && plumb archive add b5.plumb --archive-dir L >/dev/null &&
	test_expect_code 74 env PATH="$TRASH/nobin" "$PLUMB" archive push --archive-dir L --to S 2>err &&
	test_grep "is rclone installed" err
'

# One bad object on the remote is a refusal of that bundle, named by its
# place on the remote (never the temporary copy of the download), and the
# pull goes on, as it does for the folder store (t3020).
test_expect_success RCLONE,SQLITE3 'pull with one object missing, one a symbolic link, one cut short: those refused by their remote path, the rest comes' '
	rm -rf S4 P4 "$TRASH/R4" && mkdir S4 &&
	printf "store = rclone:fleet:%s\n" "$TRASH/R4" >S4/archive.conf &&
	plumb archive push --archive-dir L --to S4 --quiet &&
	sqlite3 S4/archive.db "SELECT id FROM bundles ORDER BY id" >s4.txt &&
	test "$(wc -l <s4.txt)" = 4 &&
	R4="$TRASH/R4" && gone=$(sed -n 1p s4.txt) && link=$(sed -n 2p s4.txt) && cut=$(sed -n 3p s4.txt) &&
	place() { echo "$R4/$(printf %.2s "$1")/$1.plumb"; } &&
	rm "$(place "$gone")" &&
	mv "$(place "$link")" linked.plumb && ln -s "$TRASH/linked.plumb" "$(place "$link")" &&
	f=$(place "$cut") && chmod u+w "$f" && head -c 300 "$f" >cut.part && cat cut.part >"$f" &&
	test_expect_code 3 plumb archive pull --archive-dir P4 --from S4 --json >out.json 2>err &&
	test_json out.json "len(j[\"sent\"]) == 1 and sorted(r[\"id\"] for r in j[\"refused\"]) == sorted([\"$gone\", \"$link\", \"$cut\"]) and not j[\"stopped\"]" &&
	for id in $gone $link $cut; do
		test_grep "$id refused: rclone:fleet:$(place "$id"): " err || return 1
	done &&
	test_grep_not "plumb-pull" err &&
	test "$(count P4)" = "1 1" &&
	plumb archive verify --archive-dir P4 >/dev/null
'

test_done
