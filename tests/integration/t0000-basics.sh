#!/bin/sh
test_description='global options, help, unknown commands and exit statuses'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'plumb --version names plumb and the version of each library' '
	plumb --version >out &&
	test_grep "^plumb [0-9]" out &&
	for lib in libgit2 libarchive capstone libpq libcrypto sqlite zstd zlib jansson libsodium libelf; do
		test_grep "^$lib [0-9][0-9.]*$" out || return 1
	done
'

command -v ldd >/dev/null 2>&1 && test_set_prereq LDD

test_expect_success LDD 'plumb links its libraries: ldd lists every one' '
	ldd "$PLUMB" >libs &&
	for lib in libgit2 libarchive libcapstone libpq libcrypto libsqlite3 libzstd libz libjansson libsodium libelf; do
		test_grep "^[[:space:]]*$lib\.so" libs || return 1
	done
'

test_expect_success 'plumb --help lists every command' '
	plumb --help >out &&
	test_grep "^usage: plumb" out &&
	test_grep "^  help " out
'

test_expect_success 'no command is a usage error' '
	test_expect_code 2 plumb 2>err &&
	test_grep "usage: plumb" err
'

test_expect_success 'an unknown command exits 2 and names it' '
	test_expect_code 2 plumb frobnicate 2>err &&
	test_grep "frobnicate. is not a plumb command" err
'

test_expect_success 'an unknown global option exits 2' '
	test_expect_code 2 plumb --frob 2>err &&
	test_grep "unknown option .--frob" err
'

test_expect_success 'an unknown command option exits 2 with the usage' '
	test_expect_code 2 plumb help --frob 2>err &&
	test_grep "unknown option .--frob" err &&
	test_grep "usage: plumb help" err
'

test_expect_success 'plumb help CMD and plumb CMD --help say the same' '
	plumb help help >a &&
	plumb help --help >b &&
	test_cmp a b
'

test_expect_success 'plumb help of an unknown command exits 2' '
	test_expect_code 2 plumb help nosuch 2>err &&
	test_grep "nosuch" err
'

test -c /dev/full && test -w /dev/full && test_set_prereq DEVFULL

test_expect_success DEVFULL 'a write error on standard output is not success' '
	test_expect_code 74 plumb --help >/dev/full 2>err ||
	test_expect_code 74 plumb help >/dev/full 2>err
'

test_done
