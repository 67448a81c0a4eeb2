#!/bin/sh
test_description='plumb report and plumb run under GitHub Actions: the step summary and ::error/::warning annotations, escaped'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

in="$FIXTURES/reports/inputs"

# gh ARGS...: plumb under GitHub Actions, the summary in summary.md.
gh() {
	GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$TRASH/summary.md" "$PLUMB" "$@"
}

test_expect_success 'report appends the Markdown report to the step summary and annotates slower' '
	gh report "$in/slower" >out 2>err &&
	test_grep "^::error title=plumb%3A sort1m slower::sort1m is slower: +11.8%25 wall (ratio 1.118 of the base.s), 4 pads a side; bundle $in/slower$" out &&
	test "$(grep -c "^::" out)" = 1 &&
	test_grep "^| sort1m | wall | .* | \*\*slower\*\* |$" summary.md &&
	test_grep "^sort1m .* slower$" out &&
	gh report "$in/slower" --fail-on slower >/dev/null 2>&1;
	test "$(grep -c "^| sort1m | wall" summary.md)" = 2
'

# Shift v3: the annotation says the effect; Holm over the 4 benchmarks holds
# two of the three slower ones back from the gate: warnings, not errors.
test_expect_success 'shift: the effect in the annotation; the ones Holm holds back are warnings' '
	rm -f summary.md &&
	test_expect_code 1 gh report "$in/shift-gate" --fail-on slower >out 2>err &&
	test_grep "^::error title=plumb%3A json slower::json is slower: +20.0%25 slower, 99%25 interval +18.1%25 to +21.9%25, 6 pads a side; bundle $in/shift-gate$" out &&
	test_grep "^::warning title=plumb%3A regex slower::regex is slower: +16.5%25 slower, 99%25 interval +2.67%25 to +18.8%25, 6 pads a side; held back from the gate by Holm.s adjustment over 4 benchmarks (adjusted p 0.013); bundle $in/shift-gate$" out &&
	test_grep "^::warning title=plumb%3A utf8 slower::" out &&
	test "$(grep -c "^::" out)" = 3 &&
	test_grep "^--fail-on slower: Holm over 4 benchmarks at 1%: 1 fails the gate; held back by the adjustment: regex (adjusted p 0.013), utf8 (adjusted p 0.017)$" summary.md
'

test_expect_success 'without GITHUB_ACTIONS=true nothing of it' '
	rm -f summary.md &&
	GITHUB_STEP_SUMMARY="$TRASH/summary.md" plumb report "$in/slower" >out &&
	GITHUB_ACTIONS=false GITHUB_STEP_SUMMARY="$TRASH/summary.md" plumb report "$in/slower" >>out &&
	test_grep_not "^::" out &&
	! test -e summary.md
'

test_expect_success 'a failed benchmark is an ::error; with JSON on stdout the annotations go to stderr' '
	rm -f summary.md &&
	gh report "$in/bl-bundle" --format json >out.json 2>err &&
	test_json out.json "j[\"format\"] == \"plumb-report\"" &&
	test_grep "^::error title=plumb%3A crash failed::crash failed: candidate/2 round 1: killed by signal 11 (SIGSEGV); bundle $in/bl-bundle$" err &&
	test -s summary.md
'

test_expect_success PYTHON 'names from the bundle are escaped: %, :, , in the title, % in the message, bidi controls never raw' '
	cp -R "$in/slower" evil &&
	python3 - <<-\PY &&
	import json
	m = json.load(open("evil/manifest.json"))
	m["benches"][0]["name"] = "a%b:c,d\u202eevil"
	json.dump(m, open("evil/manifest.json", "w"))
	t = open("evil/samples.tsv").read().replace("sort1m\t", "a%b:c,d\u202eevil\t")
	open("evil/samples.tsv", "w").write(t)
	PY
	gh report evil >out 2>err &&
	test_grep "^::error title=plumb%3A a%25b%3Ac%2Cd?evil slower::a%25b:c,d?evil is slower" out &&
	! grep -q "$(printf "\342\200\256")" out
'

test_expect_success 'an unwritable step summary is an I/O error, the report still printed' '
	GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$TRASH/no/such/dir/s.md" "$PLUMB" report "$in/slower" >out 2>err;
	test $? = 74 &&
	test_grep "no/such/dir/s.md" err &&
	test_grep "^sort1m .* slower$" out
'

test_expect_success 'run under GitHub Actions: the summary of the bundle and the annotation' '
	make_project proj &&
	run_conf proj/slow.conf \
		"bench.b.command=case {artifact} in */v/c*) sleep 0.2;; esac; {artifact}" \
		verdict.rule=overlap &&
	git config -f proj/slow.conf --unset bench.b.hot &&
	rm -f summary.md &&
	test_expect_code 1 gh run --workdir "$TRASH/wd" -c proj/slow.conf -o s.plumb --quiet --fail-on slower >out 2>err &&
	test_grep "^::error title=plumb%3A b slower::b is slower: +[0-9.]*%25 wall, interval +[0-9.]*%25 to +[0-9.]*%25 (ratio [0-9.]* of the base.s), 2 pads a side; bundle s.plumb$" out &&
	test_grep "^plumb: 1 benchmark: 1 slower$" out &&
	test_grep "^| b | wall | .* | \*\*slower\*\* |$" summary.md
'

test_expect_success 'run --archive without -o: the annotation names the bundle by its id in the archive' '
	test_expect_code 1 env PLUMB_ARCHIVE="$TRASH/arch" GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$TRASH/summary.md" \
		"$PLUMB" run --workdir "$TRASH/wd" -c proj/slow.conf --archive --quiet --fail-on slower >out 2>err &&
	id=$(plumb archive list --archive-dir "$TRASH/arch" --json | sed -n "s/.*\"id\": \"\([0-9a-f]*\)\".*/\1/p") &&
	test -n "$id" &&
	test_grep "^::error title=plumb%3A b slower::b is slower: .*; bundle $id in the archive$" out &&
	test_grep_not "$TRASH/wd" out
'

test_done
