#!/bin/sh
test_description='plumb report: exit statuses for cron (--fail-on, withheld comparisons, errors)'
. "$(dirname "$0")/test-lib.sh"

in="$FIXTURES/reports/inputs"

# report_status ARGS...: the exit status of plumb report, output discarded.
report_status() {
	"$PLUMB" report "$@" >/dev/null 2>&1
	echo $?
}

test_expect_success 'without --fail-on every verdict exits 0' '
	for c in slower faster placement unswept insufficient noisy hot-identical \
		 behaviour-changed host-warnings; do
		test "$(report_status "$in/$c")" = 0 || { echo "$c" >&2; return 1; }
	done
'

test_expect_success '--fail-on slower: 1 for a swept slower, 0 for anything else' '
	test "$(report_status "$in/slower" --fail-on slower)" = 1 &&
	test "$(report_status "$in/noisy" --fail-on slower)" = 1 &&
	test "$(report_status "$in/hot-identical" --fail-on slower)" = 1 &&
	test "$(report_status "$in/faster" --fail-on slower)" = 0 &&
	test "$(report_status "$in/placement" --fail-on slower)" = 0 &&
	test "$(report_status "$in/unswept" --fail-on slower)" = 0 &&
	test "$(report_status "$in/insufficient" --fail-on slower)" = 0 &&
	test "$(report_status "$in/host-warnings" --fail-on slower)" = 0
'

test_expect_success '--fail-on any: 1 for a swept slower or faster, 0 otherwise' '
	test "$(report_status "$in/slower" --fail-on any)" = 1 &&
	test "$(report_status "$in/faster" --fail-on any)" = 1 &&
	test "$(report_status "$in/behaviour-changed" --fail-on any)" = 1 &&
	test "$(report_status "$in/placement" --fail-on any)" = 0 &&
	test "$(report_status "$in/unswept" --fail-on any)" = 0 &&
	test "$(report_status "$in/insufficient" --fail-on any)" = 0
'

test_expect_success '--fail-on names the benchmarks on stderr and still prints the report' '
	test_expect_code 1 plumb report "$in/slower" --fail-on slower >out 2>err &&
	test_grep "^plumb: 1 benchmark slower (--fail-on slower): sort1m$" err &&
	test_grep "^sort1m .* slower$" out &&
	test_expect_code 1 plumb report "$in/faster" --fail-on any --format json >out.json 2>err &&
	test_grep "slower or faster (--fail-on any): alloc" err &&
	test_json out.json "j[\"failOn\"] == \"any\" and j[\"failing\"] == [\"alloc\"]"
'

test_expect_success 'against a baseline, the baseline verdicts decide' '
	# bl-bundle holds a benchmark that failed (crash): 5 before any verdict.
	test "$(report_status "$in/bl-bundle" --baseline "$in/bl-baseline" --fail-on slower)" = 5 &&
	test "$(report_status "$in/bl-bundle" --baseline "$in/bl-baseline" --fail-on any)" = 5 &&
	test "$(report_status "$in/bl-bundle" --baseline "$in/bl-baseline")" = 0 &&
	test "$(report_status "$in/bl-baseline" --baseline "$in/bl-bundle" --fail-on any)" = 1 &&
	test "$(report_status "$in/faster" --baseline "$in/faster")" = 0 &&
	test "$(report_status "$in/faster" --baseline "$in/faster" --fail-on any)" = 0
'

test_expect_success 'a withheld comparison exits 3 whatever --fail-on says, and prints the report' '
	test_expect_code 3 plumb report "$in/nc-bundle" --baseline "$in/nc-baseline" >out 2>err &&
	test_grep "withheld" out &&
	test_grep "^plumb: hosts not comparable: CPU model differs" err &&
	test_expect_code 3 plumb report "$in/nc-bundle" --baseline "$in/nc-baseline" \
		--fail-on slower >/dev/null 2>&1 &&
	test_expect_code 3 plumb report "$in/nc-bundle" --baseline "$in/nc-baseline" \
		--fail-on any --format json >out.json 2>/dev/null &&
	test_json out.json "j[\"host\"][\"withheld\"] and j[\"failing\"] == []"
'

test_expect_success '--force compares anyway: then --fail-on decides' '
	test "$(report_status "$in/nc-bundle" --baseline "$in/nc-baseline" --force)" = 0 &&
	test "$(report_status "$in/nc-bundle" --baseline "$in/nc-baseline" --force --fail-on slower)" = 1
'

test_expect_success '-o writes the report atomically, also when the comparison is withheld' '
	plumb report "$in/slower" -o report.txt >stdout &&
	! test -s stdout &&
	plumb report "$in/slower" >want.txt &&
	test_cmp want.txt report.txt &&
	test_expect_code 3 plumb report "$in/nc-bundle" --baseline "$in/nc-baseline" \
		--format html -o nc.html 2>/dev/null &&
	test_grep "withheld" nc.html &&
	ls -a >files &&
	test_grep_not "\.tmp\." files
'

test_expect_success 'errors never exit 0 or 1' '
	test_expect_code 3 plumb report no-such-bundle 2>err &&
	test_grep "no-such-bundle" err &&
	test_expect_code 3 plumb report "$in/slower" --baseline no-such-baseline --fail-on slower 2>err &&
	test_grep "no-such-baseline" err &&
	mkdir bad && echo "{\"format\": \"plumb-bundle\", \"version\": 2}" >bad/manifest.json &&
	test_expect_code 3 plumb report bad --fail-on any 2>err &&
	test_grep "bad/manifest.json: version" err &&
	echo "not a bundle" >junk.plumb &&
	test_expect_code 3 plumb report junk.plumb --fail-on slower 2>err &&
	test_expect_code 74 plumb report "$in/slower" -o no/such/folder/r.txt 2>err &&
	test_grep "no/such/folder/" err &&
	! test -e no
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 plumb report 2>err &&
	test_expect_code 2 plumb report a b 2>err &&
	test_expect_code 2 plumb report "$in/slower" --format pdf 2>err &&
	test_grep "format" err &&
	test_expect_code 2 plumb report "$in/slower" --fail-on faster 2>err &&
	test_expect_code 2 plumb report "$in/slower" --last 3 2>err &&
	test_expect_code 2 plumb report --trend x "$in/slower" 2>err &&
	test_expect_code 2 plumb report --trend x --force 2>err
'

test_expect_success 'colour only on a terminal, never with NO_COLOR' '
	plumb report "$in/slower" >plain.txt &&
	! grep -q "$(printf "\033")" plain.txt &&
	if command -v script >/dev/null 2>&1; then
		NO_COLOR= script -qec "$PLUMB report $in/slower" /dev/null >tty.txt &&
		grep -q "$(printf "\033")\[31mslower" tty.txt &&
		NO_COLOR=1 script -qec "$PLUMB report $in/slower" /dev/null >tty2.txt &&
		! grep -q "$(printf "\033")\[" tty2.txt
	fi
'

test_expect_success 'report --json is --format json, as plumb(1) says machine output is spelt' '
	plumb report "$in/slower" --json >a.json &&
	plumb report "$in/slower" --format json >b.json &&
	test_cmp a.json b.json &&
	test_json a.json "j[\"format\"] == \"plumb-report\"" &&
	plumb report "$in/slower" --json --format json >c.json &&
	test_cmp a.json c.json &&
	test_expect_code 2 plumb report "$in/slower" --json --format md 2>err &&
	test_grep "json is --format json" err
'

test_done
