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

test_expect_success 'bundles: two earlier ones, a new one, and a big one' '
	make_bundle 1 one.plumb &&
	make_bundle 2 two.plumb &&
	make_bundle 3 new.plumb &&
	make_bundle 4 big.plumb 500000 &&
	test $(wc -c <big.plumb) -gt 300000 &&
	NEW=$(bundle_id new.plumb) && echo "$NEW" >new.id &&
	BIG=$(bundle_id big.plumb) && echo "$BIG" >big.id
'
NEW=$(cat new.id 2>/dev/null)
BIG=$(cat big.id 2>/dev/null)

# In the namespace: an archive on a 2 MiB tmpfs with the earlier bundles;
# then (1) the disk full to the last byte, (2) room for the database to
# open but not for the big bundle.  Results go to files in the trash.
cat >full.sh <<'EOS'
set -u
mnt=$1
mount -t tmpfs -o size=2m tmpfs "$mnt" || exit 90
"$PLUMB" archive add one.plumb two.plumb --archive-dir "$mnt/A" >/dev/null || exit 91
fill() {
	dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
	dd if=/dev/zero of="$mnt/fill2" bs=1 2>/dev/null
}
after() {
	find "$mnt/A" -name ".*.tmp.*" >temps.$1
	rm -f "$mnt/fill" "$mnt/fill2"
	find "$mnt/A/bundles" -name "*.plumb" | wc -l >files.$1
	"$PLUMB" archive list --json --archive-dir "$mnt/A" >list.$1 2>&1
	"$PLUMB" archive verify --archive-dir "$mnt/A" >verify.$1 2>&1
	echo $? >verify.status.$1
}
# (1) Not a byte free.
fill
"$PLUMB" archive add new.plumb --archive-dir "$mnt/A" >add.out.1 2>add.err.1
echo $? >add.status.1
after 1
# (2) 192 KiB free: the database opens, the 300+ KiB bundle does not fit.
dd if=/dev/zero of="$mnt/reserve" bs=4096 count=48 2>/dev/null
fill
rm -f "$mnt/reserve"
"$PLUMB" archive add big.plumb --archive-dir "$mnt/A" >add.out.2 2>add.err.2
echo $? >add.status.2
after 2
# Room again: the same adds now work.
"$PLUMB" archive add new.plumb big.plumb --archive-dir "$mnt/A" >add.out.3 2>&1
echo $? >add.status.3
"$PLUMB" archive verify --archive-dir "$mnt/A" >verify.3 2>&1
echo $? >verify.status.3
umount "$mnt"
EOS

test_expect_success TMPFS 'a full tmpfs: exit 74 naming the path, nothing half-written, earlier contents intact' '
	mkdir mnt &&
	unshare -rm sh full.sh "$TRASH/mnt" &&
	for i in 1 2; do
		test "$(cat add.status.$i)" = 74 &&
		test_grep "mnt/A/.*No space left on device" add.err.$i &&
		test_must_fail test -s temps.$i &&
		test "$(cat files.$i)" = 2 &&
		test_json list.$i "len(j) == 2" &&
		test "$(cat verify.status.$i)" = 0 || return 1
	done &&
	test_grep "mnt/A/bundles/.*\.plumb\(\.tmp\..*\)\{0,1\}: write: No space left on device" add.err.2 &&
	test "$(cat add.status.3)" = 0 &&
	test_grep "^$NEW  added" add.out.3 &&
	test_grep "^$BIG  added" add.out.3 &&
	test "$(cat verify.status.3)" = 0
'

# The same failure at any write, the database's included, by injection.
inject_enospc() {
	rm -rf W && cp -a pristine W &&
	under_strace -f -o /dev/null -e trace="$1" -e inject="$1":error=ENOSPC:when="$2" \
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

test_expect_success 'an archive to inject into' '
	plumb archive add one.plumb two.plumb --archive-dir pristine >/dev/null
'

for sc in write pwrite64; do
	test_expect_success STRACE,SQLITE3 "ENOSPC at each $sc: exit 74, nothing half-written" '
		n=1 fails=0 &&
		while :; do
			r=$(inject_enospc '"$sc"' $n) || return 1
			test "$r" = done && break
			fails=$((fails + 1))
			n=$((n + 1))
			test $n -le 400 || return 1
		done &&
		test $fails -ge 1 &&
		echo "'"$sc"': ENOSPC at $fails point(s), each exit 74 and clean" >>fails.txt
	'
done

test -f fails.txt && sed -e "s/^/# /" fails.txt
test_done
