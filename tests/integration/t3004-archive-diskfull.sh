#!/bin/sh
test_description='archive add on a full disk: exit 74 naming the path, nothing half-written, earlier contents intact'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

# A real full disk: a small tmpfs in a private mount namespace (unshare -rm
# maps us to root there, so this works unprivileged where user namespaces
# are allowed).  Otherwise, and in addition, ENOSPC is injected with strace.
if unshare -rm sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; rmdir "$d"' 2>/dev/null; then
	test_set_prereq TMPFS
fi
if command -v strace >/dev/null 2>&1 &&
   strace -f -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2>/dev/null; then
	test_set_prereq STRACE
fi

test_expect_success BUNDLE 'bundles: two earlier ones and a new one' '
	make_bundle 1 one.plumb &&
	make_bundle 2 two.plumb &&
	make_bundle 3 new.plumb &&
	NEW=$(bundle_id new.plumb) && echo "$NEW" >new.id
'
NEW=$(cat new.id 2>/dev/null)

# In the namespace: an archive on a small tmpfs with the earlier bundles,
# then the disk filled to the last block, then the add.
cat >full.sh <<'EOS'
set -u
mnt=$1
mount -t tmpfs -o size=512k tmpfs "$mnt" || exit 90
"$PLUMB" archive add one.plumb two.plumb --archive-dir "$mnt/A" >/dev/null || exit 91
cp -a "$mnt/A" before
# Fill every free block.
dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
dd if=/dev/zero of="$mnt/fill2" bs=1 2>/dev/null
"$PLUMB" archive add new.plumb --archive-dir "$mnt/A" >add.out 2>add.err
echo $? >add.status
find "$mnt/A" -name ".*.tmp.*" >temps
ls -R "$mnt/A/bundles" >listing
"$PLUMB" archive list --json --archive-dir "$mnt/A" >list.json 2>list.err
"$PLUMB" archive verify --archive-dir "$mnt/A" >verify.out 2>&1
echo $? >verify.status
# Room again: the same add now works.
rm -f "$mnt/fill" "$mnt/fill2"
"$PLUMB" archive add new.plumb --archive-dir "$mnt/A" >add2.out 2>&1
echo $? >add2.status
"$PLUMB" archive verify --archive-dir "$mnt/A" >verify2.out 2>&1
echo $? >verify2.status
umount "$mnt"
EOS

test_expect_success BUNDLE,TMPFS 'a full tmpfs: exit 74 naming the path, no temporary file, earlier contents intact' '
	mkdir mnt &&
	unshare -rm sh full.sh "$TRASH/mnt" &&
	test "$(cat add.status)" = 74 &&
	test_grep "mnt/A/bundles/.*No space left on device" add.err &&
	test_must_fail test -s temps &&
	test_must_fail grep -q "$NEW" listing &&
	test_json list.json "len(j) == 2 and \"$NEW\" not in [b[\"id\"] for b in j]" &&
	test "$(cat verify.status)" = 0 &&
	test "$(cat add2.status)" = 0 &&
	test_grep "^$NEW  added" add2.out &&
	test "$(cat verify2.status)" = 0
'

# The same failure at any write, the database's included, by injection.
inject_enospc() {
	rm -rf W && cp -a pristine W &&
	strace -f -o /dev/null -e trace="$1" -e inject="$1":error=ENOSPC:when="$2" \
		"$PLUMB" archive add new.plumb --archive-dir W >inj.out 2>inj.err
	st=$?
	if test $st = 0; then
		echo done
		return 0
	fi
	test $st = 74 || { echo "$1 #$2: exited $st, not 74" >&2; cat inj.err >&2; return 1; }
	# The last write is the report on stdout: the add itself went through.
	if grep -q "standard output: write error" inj.err; then
		echo done
		return 0
	fi
	grep -q "No space left on device" inj.err &&
	grep -q "W/" inj.err || { echo "$1 #$2: message does not name the path:" >&2; cat inj.err >&2; return 1; }
	# Nothing half-written: no temporary file, no new row, no new file.
	no_temp_files W && rows_have_files W && db_ok W &&
	test "$(sqlite3 W/archive.db "SELECT count(*) FROM bundles")" = 2 &&
	test "$(find W/bundles -name "*.plumb" | wc -l)" = 2 &&
	"$PLUMB" archive verify --archive-dir W >/dev/null ||
		{ echo "after ENOSPC at $1 #$2" >&2; return 1; }
	echo failed
}

test_expect_success BUNDLE 'an archive to inject into' '
	plumb archive add one.plumb two.plumb --archive-dir pristine >/dev/null
'

for sc in write pwrite64; do
	test_expect_success BUNDLE,STRACE,SQLITE3 "ENOSPC at each $sc: exit 74, nothing half-written" '
		n=1 fails=0 &&
		while :; do
			r=$(inject_enospc '"$sc"' $n) || return 1
			test "$r" = done && break
			fails=$((fails + 1))
			n=$((n + 1))
			test $n -le 400 || return 1
		done &&
		test $fails -ge 1 &&
		say "'"$sc"': ENOSPC at $fails point(s), each exit 74 and clean"
	'
done

test_done
