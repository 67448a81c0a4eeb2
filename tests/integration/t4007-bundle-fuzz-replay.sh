#!/bin/sh
test_description='the bundle fuzzer corpus and saved crash inputs replay cleanly'
. "$(dirname "$0")/test-lib.sh"

replay="$TEST_BUILDDIR/tests/fuzz/replay-bundle"
corpus="$TEST_SRCDIR/tests/fuzz/corpus/bundle"
crashes="$TEST_SRCDIR/tests/fuzz/crashes/bundle"

test_expect_success 'the seed corpus replays through the reader' '
	"$replay" "$corpus" >out &&
	test_grep "^[1-9][0-9]* inputs replayed$" out
'

test_expect_success 'every saved crash input replays without a crash' '
	if test -d "$crashes"; then
		"$replay" "$crashes" >out &&
		test_grep "inputs replayed$" out
	fi
'

test_expect_success 'the seeds are still good bundles or refused ones, as made' '
	plumb bundle verify "$corpus/small.plumb" >/dev/null &&
	plumb bundle verify "$corpus/run.plumb" >/dev/null &&
	test_expect_code 3 plumb bundle verify "$corpus/symlink.plumb" 2>/dev/null
'

test_done
