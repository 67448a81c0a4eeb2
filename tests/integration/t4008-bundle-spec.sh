#!/bin/sh
test_description='formats/bundle-v1.md carries every manifest field and the README commands'
. "$(dirname "$0")/test-lib.sh"

spec="$TEST_SRCDIR/formats/bundle-v1.md"
fields="$TEST_SRCDIR/formats/manifest-fields.md"

test_expect_success 'every row of manifest-fields.md is in the specification' '
	grep "^| \`" "$fields" >rows &&
	test $(wc -l <rows) -gt 50 &&
	while IFS= read -r row; do
		grep -qF -e "$row" "$spec" || { echo "missing: $row" >&2; return 1; }
	done <rows
'

test_expect_success 'the commands of README.txt are those of the specification' '
	plumb bundle pack "$FIXTURES/bundle/small" -o b.plumb >/dev/null &&
	mkdir x && (cd x && zstd -q -d <../b.plumb | tar -xf -) &&
	for c in "tar -xf -" "sha256sum -c SHA256SUMS" "sha256sum SHA256SUMS" \
		"minisign -Vm SHA256SUMS -x SHA256SUMS.sig -p KEY.pub"; do
		grep -qF -e "$c" x/README.txt && grep -qF -e "$c" "$spec" ||
			{ echo "not in both: $c" >&2; return 1; }
	done
'

# The unit test test_bundle_spec_limits_are_the_constants reads section 11
# of the specification under TEST_SRCDIR and compares every row with the
# limit compiled into the reader.
spec_limits() {
	TEST_SRCDIR=$1 "$TEST_BUILDDIR/tests/unit/unit" test_bundle_spec_limits_are_the_constants
}

test_expect_success 'every limit row of the specification is the compiled limit' '
	spec_limits "$TEST_SRCDIR" >out 2>&1 &&
	test_grep "^ok 1 - test_bundle_spec_limits_are_the_constants" out
'

test_expect_success 'a limit row that differs from the code fails' '
	mkdir -p fake/formats &&
	sed "s/^| \`README.txt\` | 64 KiB (65,536 bytes) |$/| \`README.txt\` | 128 KiB (131,072 bytes) |/" \
		"$spec" >fake/formats/bundle-v1.md &&
	! cmp -s "$spec" fake/formats/bundle-v1.md &&
	test_must_fail spec_limits "$PWD/fake" >out 2>&1 &&
	test_grep "README.txt.*the code.s limit is 65536" out
'

test_done
