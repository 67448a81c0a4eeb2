#!/bin/sh
test_description='fast start: libgit2, libarchive, capstone, libcrypto and libpq are loaded only by the commands that need them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

# plumb demo finds the example sources next to the program or installed; in
# a VPATH build they are in the source tree only.
PLUMB_EXAMPLES="$TEST_SRCDIR/examples"
export PLUMB_EXAMPLES

# loads OUT: the heavy libraries the dynamic linker loaded, by LD_DEBUG=files
# output on stderr (one "file=libgit2.so.1.5 ..." line per object it opens).
heavy() {
	sed -n 's/.*file=\(lib\(git2\|archive\|capstone\|crypto\|pq\)\.so[^ ]*\).*/\1/p' "$1" | sort -u
}

test_expect_success 'plumb links none of them' '
	LD_DEBUG=files plumb --version >out 2>ld &&
	test_grep "file=libsqlite3" ld &&
	heavy ld >loaded &&
	! test -s loaded
'

test_expect_success '--version names the four with the versions plumb was built with' '
	plumb --version >out &&
	test_grep "^libgit2 [0-9.]* (built with; loaded when needed)$" out &&
	test_grep "^libarchive [0-9.]* (built with; loaded when needed)$" out &&
	test_grep "^capstone [0-9.]* (built with; loaded when needed)$" out &&
	test_grep "^libpq [0-9.]* (built with; loaded when needed)$" out
'

test_expect_success 'help, analyze and an archive baseline lookup load none of them' '
	make_bundle 1 one.plumb &&
	id=$(plumb archive add one.plumb --archive-dir A | cut -c1-64) &&
	plumb archive baseline set nightly "$id" --archive-dir A >/dev/null &&
	LD_DEBUG=files plumb archive baseline show nightly --archive-dir A >bl 2>ld &&
	test_grep "$id" bl &&
	heavy ld >loaded &&
	! test -s loaded &&
	LD_DEBUG=files plumb help run >/dev/null 2>ld &&
	heavy ld >loaded &&
	! test -s loaded &&
	LD_DEBUG=files plumb analyze "$FIXTURES/analyze/alloc.tsv" >/dev/null 2>ld &&
	heavy ld >loaded &&
	! test -s loaded
'

test_expect_success 'a bundle reader loads libarchive and libcrypto (SHA-256), and only them' '
	LD_DEBUG=files plumb bundle verify one.plumb >/dev/null 2>ld &&
	heavy ld >loaded &&
	grep "^libarchive\.so" loaded &&
	grep "^libcrypto\.so" loaded &&
	test_grep_not "libgit2" loaded &&
	test_grep_not "libcapstone" loaded
'

test_expect_success 'a command that opens a repository loads libgit2' '
	LD_DEBUG=files plumb demo repo >/dev/null 2>ld &&
	heavy ld >loaded &&
	grep "^libgit2\.so" loaded &&
	test -d repo/.git
'

test_done
