#!/bin/sh
test_description='archive add killed (SIGKILL) at every system call of many kinds: never a row without its file, and a rerun succeeds'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

# strace (prerequisite STRACE, from test-lib.sh) injects the kill:
# -e inject=SYSCALL:signal=KILL:when=N.

# The system calls where an add can be cut: opening and creating files,
# writing the copy and the database, syncing, linking (the copy is an
# O_TMPFILE file where the file system has them) or renaming, closing.
SYSCALLS="openat write pwrite64 fsync fdatasync linkat rename close fcntl unlink ftruncate mkdir"
# On PostgreSQL the index is the server's: what is left to cut is the file
# being stored and each statement sent to the server (sendto), mid-transaction.
test "$ARCHIVE_BACKEND" = postgresql && SYSCALLS="write fsync linkat rename sendto"

test_expect_success 'an archive with earlier contents, and a bundle to add' '
	make_bundle 1 one.plumb &&
	make_bundle 2 two.plumb &&
	make_bundle 3 new.plumb &&
	plumb archive add one.plumb two.plumb --archive-dir pristine >/dev/null &&
	plumb archive baseline set keep one.plumb --archive-dir pristine >/dev/null &&
	NEW=$(bundle_id new.plumb) && echo "$NEW" >new.id
'
NEW=$(cat new.id 2>/dev/null)

# One kill: copy the pristine archive, add with a kill at call N of SC,
# check the invariants, rerun.  Prints "done" when the add was not killed
# (N is past the last such call).
kill_at() {
	archive_copy pristine W &&
	under_strace -f -o /dev/null -e trace="$1" -e inject="$1":signal=KILL:when="$2" \
		"$PLUMB" archive add new.plumb --archive-dir W >/dev/null 2>kill.err
	st=$?
	if test $st = 0; then
		echo done
		return 0
	fi
	if test $st != 137; then
		echo "$1 #$2: exited $st, not killed" >&2
		cat kill.err >&2
		return 1
	fi
	# Killed before it touched the archive (loading libraries, reading
	# the bundle): nothing to recover from, and the rerun would be a
	# plain add, which the other points cover.
	if archive_same pristine W; then
		echo untouched
		return 0
	fi
	# The invariant, earlier contents, and a database that opens.
	rows_have_files W && db_ok W || { echo "after a kill at $1 #$2" >&2; return 1; }
	test "$(index_sql W "SELECT count(*) FROM bundles WHERE id <> '$NEW'")" = 2 ||
		{ echo "after a kill at $1 #$2: earlier bundles lost" >&2; return 1; }
	# A rerun succeeds, gc cleans what the kill left, and all verifies.
	"$PLUMB" archive add new.plumb --archive-dir W >rerun.out 2>&1 ||
		{ echo "after a kill at $1 #$2: rerun failed" >&2; cat rerun.out >&2; return 1; }
	grep -q "^$NEW  " rerun.out &&
	"$PLUMB" archive gc --archive-dir W >gc.out 2>&1 &&
	"$PLUMB" archive verify --archive-dir W >verify.out 2>&1 ||
		{ echo "after a kill at $1 #$2:" >&2; cat gc.out verify.out >&2; return 1; }
	echo killed
}

for sc in $SYSCALLS; do
	test_expect_success STRACE,SQLITE3 "killed at each $sc" '
		n=1 kills=0 untouched=0 &&
		while :; do
			r=$(kill_at '"$sc"' $n) || return 1
			test "$r" = done && break
			if test "$r" = untouched; then
				untouched=$((untouched + 1))
			else
				kills=$((kills + 1))
			fi
			n=$((n + 1))
			test $n -le 400 || { echo "'"$sc"': more than 400 calls?" >&2; return 1; }
		done &&
		echo "'"$sc"': killed at $kills point(s) after the archive was opened, recovered from each; $untouched before" >>kills.txt
	'
done

# rm killed: rows go first, so at worst a file without rows remains.
kill_rm_at() {
	archive_copy pristine W &&
	"$PLUMB" archive add new.plumb --archive-dir W >/dev/null &&
	cp -a W W0 &&
	under_strace -f -o /dev/null -e trace="$1" -e inject="$1":signal=KILL:when="$2" \
		"$PLUMB" archive rm "$NEW" --archive-dir W >/dev/null 2>kill.err
	st=$?
	rm -rf W0
	test $st = 0 && { echo done; return 0; }
	test $st = 137 || { echo "rm: $1 #$2: exited $st" >&2; cat kill.err >&2; return 1; }
	rows_have_files W && db_ok W || { echo "after killing rm at $1 #$2" >&2; return 1; }
	if test "$(index_sql W "SELECT count(*) FROM bundles WHERE id = '$NEW'")" = 1; then
		"$PLUMB" archive rm "$NEW" --archive-dir W >/dev/null || return 1
	fi
	"$PLUMB" archive gc --archive-dir W >/dev/null &&
	"$PLUMB" archive verify --archive-dir W >/dev/null || { echo "after killing rm at $1 #$2" >&2; return 1; }
	echo killed
}

RM_SYSCALLS="pwrite64 fdatasync unlink"
test "$ARCHIVE_BACKEND" = postgresql && RM_SYSCALLS="sendto unlink"
for sc in $RM_SYSCALLS; do
	test_expect_success STRACE,SQLITE3 "rm killed at each $sc" '
		n=1 &&
		while :; do
			r=$(kill_rm_at '"$sc"' $n) || return 1
			test "$r" = done && break
			n=$((n + 1))
			test $n -le 400 || return 1
		done &&
		echo "rm, '"$sc"': killed at $((n - 1)) point(s), no row without its file" >>kills.txt
	'
done

test_expect_success STRACE 'the kills did hit the add (openat and write at least once each)' '
	archive_copy pristine W &&
	under_strace -f -c -o counts -e trace=openat,write,fsync,linkat,rename "$PLUMB" archive add new.plumb --archive-dir W >/dev/null &&
	grep -q " linkat\| rename" counts && grep -q " fsync" counts && grep -q " write" counts
'

# The counts, as TAP comments.
test -f kills.txt && sed -e "s/^/# /" kills.txt
test_done
