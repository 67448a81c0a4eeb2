#!/bin/sh
test_description='change points that are not code: a host that drifts, one commit, and a code step on that host (docs/changes.md)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

# nightly DIR FIRST LAST ARGS...: night by night as cron meets them: the
# nights before FIRST at once, then each night from FIRST to LAST added
# alone, and after each `report --trend b0 --fail-on change` (and
# `--fail-on slower`) run on the archive as it stands; "night status"
# lines go to DIR.change and DIR.slower.
nightly() {
	d=$1 first=$2 last=$3
	shift 3
	: >"$d.change" && : >"$d.slower" &&
	archive_nights "$d" "$first" 1 "$@" &&
	t=$first &&
	while test $t -le $last; do
		archive_nights "$d" $((t + 1)) 1 -f $t "$@" &&
		{ plumb report --trend b0 --archive-dir "$d" --fail-on change >/dev/null 2>"$d.err.$t"
		  echo "$t $?" >>"$d.change"; } &&
		{ plumb report --trend b0 --archive-dir "$d" --fail-on slower >/dev/null 2>&1
		  echo "$t $?" >>"$d.slower"; } &&
		t=$((t + 1)) || return 1
	done
}

# One unchanged commit (-r 1000) for 90 nights, on a host whose speed
# wanders over 10% (four weeks from trough to trough) and steps up 10% at
# night 45 (a kernel), measured every night against the same base.
test_expect_success 'one commit, a host drifting by 10%, one base: nothing gates, night by night' '
	nightly same 30 89 -r 1000 -d 10 host@45:10 &&
	test $(wc -l <same.change) = 60 &&
	awk "\$2 != 0 { bad = 1 } END { exit bad }" same.change || { cat same.change >&2; return 1; } &&
	test_cmp same.change same.slower
'

test_expect_success PYTHON 'the within-night series: the base moves with the host, so no change point' '
	plumb report --trend b0 --archive-dir same --format json >same.json &&
	test_json same.json "j[\"series\"] == \"within-night\" and j[\"series_base\"].startswith(\"b0000\")" &&
	test_json same.json "j[\"changes\"] == []" &&
	# The candidate itself moved by the drift: 10% and more from first to highest night.
	test_json same.json "max(p[\"center\"] for p in j[\"points\"]) / j[\"points\"][0][\"center\"] > 1.15" &&
	plumb report --trend b0 --archive-dir same >same.txt &&
	test_grep "^Change points on the within-night ratio: each night.s candidate over its base b00000000000" same.txt &&
	test_grep "^0 change points$" same.txt &&
	plumb archive trend b0 --archive-dir same >at.txt &&
	test_grep "^change points on the within-night series: candidate / base b00000000000" at.txt
'

# The same host and commit, but every night against another base (-B):
# no within-night series; the candidate's level moves with the host.
test_expect_success 'against a moving base: the level series, its change points the host, never gated' '
	nightly moving 30 89 -r 1000 -d 10 host@45:10 -B &&
	awk "\$2 != 0 { bad = 1 } END { exit bad }" moving.change || { cat moving.change >&2; return 1; } &&
	test_cmp moving.change moving.slower
'

test_expect_success PYTHON 'the host change points: named as such, in JSON and text' '
	plumb report --trend b0 --archive-dir moving --format json >moving.json &&
	test_json moving.json "j[\"series\"] == \"level\" and j[\"series_base\"] is None" &&
	test_json moving.json "len(j[\"changes\"]) >= 1" &&
	test_json moving.json "all(c[\"cause\"] == \"host\" and c[\"series\"] == \"level\" for c in j[\"changes\"])" &&
	test_json moving.json "all(c[\"last_before\"][\"commit\"] == c[\"first_after\"][\"commit\"] for c in j[\"changes\"])" &&
	plumb report --trend b0 --archive-dir moving >moving.txt &&
	test_grep "^Change points on the candidate.s level" moving.txt &&
	test_grep "commits 000000c0ffee\.\.000000c0ffee; the host: the same commit on both nights, no code changed (never gated)$" moving.txt &&
	plumb report --trend b0 --archive-dir moving --format md >moving.md &&
	test_grep "^Change points on the candidate.s level" moving.md &&
	test_grep "; the host: the same commit on both nights, no code changed (never gated) |$" moving.md &&
	plumb report --trend b0 --archive-dir moving --format html -o moving.html &&
	test_grep "<text class=\"changelabel [a-z]*\"[^>]*>[^<]* host [-+][0-9.]*%</text>" moving.html &&
	test_grep "the host: the same commit on both nights" moving.html &&
	plumb archive changes --archive-dir moving >mc.txt &&
	test_grep "b0  .*  level  *host: the same commit either side" mc.txt &&
	plumb archive changes --archive-dir moving --json >mc.json &&
	test_json mc.json "all(c[\"cause\"] == \"host\" for c in j[\"changes\"])"
'

# A new commit every night on the same drifting host, and a +5% step of
# the code at night 60: found within 2 nights (the gate fires when the
# latest night is 60 or 61, not before), named by its commits.
test_expect_success 'a +5% step of the code on the drifting host is found within 2 nights' '
	nightly step 30 70 -r 1 -d 10 b0@60:5 &&
	first=$(awk "\$2 == 1 { print \$1; exit }" step.change) &&
	test -n "$first" && test "$first" -ge 60 && test "$first" -le 61 ||
		{ cat step.change >&2; return 1; } &&
	awk "\$2 != 0 && \$2 != 1 { bad = 1 } \$2 == 1 && \$1 < 60 { bad = 1 } END { exit bad }" step.change &&
	test_cmp step.change step.slower &&
	test_grep "the latest nights start a change point up.*--fail-on change" "step.err.$first"
'

test_expect_success PYTHON 'the step: one change point, on the within-night series, its cause the commits' '
	plumb report --trend b0 --archive-dir step --format json >step.json &&
	test_json step.json "j[\"series\"] == \"within-night\" and len(j[\"changes\"]) == 1" &&
	test_json step.json "j[\"changes\"][0][\"cause\"] == \"commits\" and j[\"changes\"][0][\"direction\"] == \"up\"" &&
	test_json step.json "j[\"changes\"][0][\"low\"] < 1.05 < j[\"changes\"][0][\"high\"]" &&
	test_json step.json "int(j[\"changes\"][0][\"first_after\"][\"commit\"][:6], 16) == 60"
'

test_done
