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

test_expect_success 'the limits of formats/bundle.h are the specification'"'"'s' '
	for v in "4,294,967,296" "2,147,483,648" "65,536" "1,048,576" "8,388,608" \
		"16,384" "67,108,864" "| 1024 |" "| 4096 bytes |" "| 255 bytes |" \
		"8 MiB (2^23 bytes)" "100,000"; do
		grep -qF -e "$v" "$spec" || { echo "not in the spec: $v" >&2; return 1; }
	done &&
	h="$TEST_SRCDIR/formats/bundle.h" &&
	grep -q "BUNDLE_MAX_FILE  *((uint64_t)4 << 30)" "$h" &&
	grep -q "BUNDLE_MAX_TOTAL  *((uint64_t)4 << 30)" "$h" &&
	grep -q "BUNDLE_MAX_MEMBER  *((uint64_t)2 << 30)" "$h" &&
	grep -q "BUNDLE_MAX_MEMBERS  *1024u" "$h" &&
	grep -q "BUNDLE_MAX_NAME  *4096u" "$h" &&
	grep -q "BUNDLE_MAX_COMPONENT  *255u" "$h" &&
	grep -q "BUNDLE_WINDOW_LOG_MAX  *23" "$h" &&
	grep -q "BUNDLE_MAX_README  *((uint64_t)64 << 10)" "$h" &&
	grep -q "BUNDLE_MAX_SUMS  *((uint64_t)8 << 20)" "$h" &&
	grep -q "BUNDLE_MAX_MANIFEST  *((uint64_t)1 << 20)" "$h" &&
	grep -q "BUNDLE_MAX_LOG  *((uint64_t)64 << 20)" "$h" &&
	grep -q "BUNDLE_MAX_JSON_VALUES  *100000u" "$h"
'

test_done
