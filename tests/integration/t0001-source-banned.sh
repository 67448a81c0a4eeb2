#!/bin/sh
test_description='no banned function calls, and banned.h included last (STYLE 9)'
. "$(dirname "$0")/test-lib.sh"

srcs() {
	for d in cli common runner stats formats archive reports views; do
		if test -d "$TEST_SRCDIR/$d"; then
			find "$TEST_SRCDIR/$d" -name "*.c"
		fi
	done
	return 0
}

test_expect_success 'no call to a banned function' '
	srcs >files &&
	test -s files &&
	! xargs grep -nE "(^|[^_a-zA-Z0-9.>])(strcpy|strcat|strncpy|strncat|sprintf|vsprintf|strtok|gmtime|localtime|atoi|atol|gets) *\(" <files >hits &&
	! test -s hits
'

test_expect_success 'every source file includes common/banned.h after the others' '
	srcs >files &&
	while read f; do
		last=$(grep "^#include" "$f" | tail -n 1) &&
		if test "$last" != "#include \"common/banned.h\""; then
			echo "$f: last include is $last" >&2
			return 1
		fi
	done <files
'

test_done
