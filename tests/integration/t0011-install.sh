#!/bin/sh
test_description='make install: the docs it installs (bench-h.md among them) cite only what is installed; plumb-bundle(5) names the installed spec'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'make install DESTDIR=...' '
	make -s -C "$TEST_BUILDDIR" install DESTDIR="$TRASH/inst" >out 2>err &&
	find inst -name plumb-bundle.5 >man5 &&
	test "$(wc -l <man5)" = 1
'

test_expect_success 'docs/bench-h.md and the recipes are installed beside bundle-v1.md' '
	spec=$(find inst -name bundle-v1.md) &&
	test -n "$spec" &&
	doc=${spec%/bundle-v1.md} &&
	for f in bench-h.md cron.md verdict.md host-facts.md plumb-nightly.service plumb-nightly.timer plumb-github.yml; do
		test -f "$doc/$f" || { echo "not installed: $f" >&2; return 1; }
	done
'

test_expect_success 'plumb-bundle(5) names where bundle-v1.md is installed, for this prefix' '
	spec=$(find inst -name bundle-v1.md) &&
	where=${spec#inst} &&
	page=$(cat man5) &&
	test_grep "^\.IR $where );" "$page" &&
	test_grep_not "@docdir@" "$page"
'

test_expect_success 'no installed document cites the design notes or the seeds, which are not installed' '
	find inst -type f \( -name "*.md" -o -name "*.[0-9]" \) >docs &&
	test -s docs &&
	while read f; do
		# "DESIGN" (the design notes); "the seeds", "seeds'"'"'", "seed 000" (the
		# seed notes), not a random seed.
		if grep -n -e "DESIGN" -e "[Tt]he seeds\b" -e "seeds'"'"'" -e "s seeds\b" \
			-e "[Ss]eed [0-9][0-9][0-9]" "$f" >hits; then
			echo "$f:" >&2; cat hits >&2; return 1
		fi
	done <docs
'

test_done
