#!/bin/sh
test_description='every command and option in --help is in docs/plumb.1 (STYLE 4)'
. "$(dirname "$0")/test-lib.sh"

man="$TEST_SRCDIR/docs/plumb.1"

# The command paths: "host", "bundle pack", ...
command_paths() {
	plumb --help | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p" | while read c; do
		echo "$c"
		plumb help "$c" | sed -n "/^subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" |
		while read s; do
			echo "$c $s"
		done
	done
}

test_expect_success 'every command has a section in plumb.1' '
	command_paths >paths &&
	test -s paths &&
	while read p; do
		# groff escapes the dash; accept "plumb host" and "plumb bundle pack".
		grep -q "^\.SS .*plumb $p\b" "$man" || { echo "no .SS for plumb $p" >&2; return 1; }
	done <paths
'

test_expect_success 'every option of every command is documented in plumb.1' '
	while read p; do
		plumb help $p | sed -n "s/^  .*--\([a-z][a-z-]*\).*/\1/p" | sort -u >opts &&
		while read o; do
			test "$o" = help && continue
			grep -q -e "\\\\-\\\\-$o\b" -e "--$o\b" "$man" ||
				{ echo "plumb $p: --$o not in plumb.1" >&2; return 1; }
		done <opts || return 1
	done <paths
'

test_done
