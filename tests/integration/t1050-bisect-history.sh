#!/bin/sh
test_description='plumb bisect: a generated history of 128 commits, one planted 10% slowdown among code moves and comment changes'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-bisect.sh"

# Judged on instruction counts (hardware counters, else Valgrind's), which
# the load of a shared machine does not move: six pads per side decide a
# deterministic metric at the default confidence.  Commit 79 plants the
# slowdown; its parent, 78, adds a cold function before run() (the hot
# loop moves, unchanged), as do 72 and 96, which the bisect measures too.
if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq COUNTS
else
	say "valgrind is not installed (Debian package valgrind): the bisect tests skip"
fi

test_expect_success 'a history of 128 commits after the good end' '
	make_history repo 128 79 &&
	test "$(git -C repo rev-list --count good..main)" = 128 &&
	git -C repo log --format=%s -1 main~49 >planted &&
	test_grep "commit 79: the hot loop does more work" planted &&
	git -C repo log --format=%s -1 main~50 >parent &&
	test_grep "commit 78: a cold function before run()" parent &&
	bisect_conf plumb.conf repo.path=repo run.pads=6 run.rounds=3 run.warmupRuns=0 \
		bench.loop.metric=instructions "bench.loop.command={artifact} 1000000"
'

test_expect_success COUNTS 'bisect finds the planted commit within ceil(log2 N) + 2 comparisons' '
	plumb bisect --good good --bad main --workdir "$TRASH/wd" -o out --format json \
		>bisect.json 2>bisect.err &&
	test_cmp bisect.json out/bisect.json &&
	test_json bisect.json "j[\"result\"][\"outcome\"] == \"found\" and j[\"result\"][\"culprit\"] == 79" &&
	test_json bisect.json "j[\"commits\"][79][\"subject\"] == \"commit 79: the hot loop does more work\"" &&
	test_json bisect.json "j[\"result\"][\"limit\"] == 9 and j[\"result\"][\"comparisons\"] <= 9" &&
	test_json bisect.json "[s[\"kind\"] for s in j[\"steps\"]] == [\"check\"] + [\"step\"] * 7 + [\"confirm\"]" &&
	test_json bisect.json "j[\"steps\"][-1][\"base\"] == 78 and j[\"steps\"][-1][\"candidate\"] == 79 and j[\"steps\"][-1][\"call\"] == \"slower\"" &&
	test_grep "comparison 9 (confirm): slower" bisect.err
'

test_expect_success COUNTS 'no code-moving or comment commit is ever called slower than the good end' '
	test_json bisect.json "all(s[\"call\"] == \"not slower\" for s in j[\"steps\"] if s[\"kind\"] == \"step\" and s[\"candidate\"] < 79)" &&
	test_json bisect.json "any(\"cold function\" in j[\"commits\"][s[\"candidate\"]][\"subject\"] and s[\"candidate\"] < 79 for s in j[\"steps\"])" &&
	test_json bisect.json "all(s[\"call\"] == \"slower\" for s in j[\"steps\"] if s[\"candidate\"] >= 79)"
'

test_expect_success COUNTS 'the build cache builds each commit once: every endpoint is restored after its first build' '
	test_json bisect.json "all(s[\"builds\"][\"cached\"] >= 6 for s in j[\"steps\"][1:])" &&
	test_json bisect.json "j[\"steps\"][-1][\"builds\"] == dict(j[\"steps\"][-1][\"builds\"], built=1, cached=12)" &&
	test_json bisect.json "j[\"result\"][\"builds\"][\"built\"] == sum(s[\"builds\"][\"built\"] for s in j[\"steps\"])"
'

test_expect_success COUNTS 'the control is built once per base commit and reused at the later comparisons with that base' '
	test_json bisect.json "j[\"result\"][\"builds\"][\"controls\"] == len(set(s[\"base\"] for s in j[\"steps\"])) == 2" &&
	test_json bisect.json "j[\"result\"][\"builds\"][\"controlsReused\"] == len(j[\"steps\"]) - 2" &&
	id=$(python3 -c "import json; print(json.load(open(\"bisect.json\"))[\"id\"])") &&
	first= && n=0 &&
	for b in out/*.plumb; do
		n=$((n + 1)) &&
		rm -rf k && plumb bundle extract "$b" k >/dev/null &&
		base=$(python3 -c "import json; print(json.load(open(\"k/manifest.json\"))[\"repo\"][\"base\"][\"commit\"])") &&
		case " $first " in
		*" $base="*)
			# Reused: the comparison that built it, this bisect, no build time here.
			at=$(echo " $first " | sed -e "s/.* $base=\([0-9]*\) .*/\1/") &&
			test_json k/manifest.json "[v for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"control\"][0][\"reused\"] == {\"bisect\": \"$id\", \"comparison\": $at}" &&
			test_json k/manifest.json "[v[\"buildNs\"] for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"control\"] == [0]" &&
			test_grep "^plumb: restored from the control built at comparison $at of this bisect" k/logs/build-k00.log ;;
		*)
			# The first comparison with this base built its control fresh.
			test_json k/manifest.json "[\"reused\" in v or v.get(\"cached\", False) or v[\"buildNs\"] == 0 for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"control\"] == [False]" &&
			! grep -q "restored from" k/logs/build-k00.log &&
			first="$first $base=$n" ;;
		esac || return 1
	done &&
	test "$(echo $first | wc -w)" = 2 &&
	! ls "$TRASH/wd" | grep "^controls-"
'

test_expect_success COUNTS 'every comparison wrote its bundle into the folder, labelled bisect=ID' '
	ls out/*.plumb >bundles &&
	test "$(wc -l <bundles)" = 9 &&
	id=$(python3 -c "import json; print(json.load(open(\"bisect.json\"))[\"id\"])") &&
	for b in $(cat bundles); do
		plumb bundle verify "$b" >/dev/null || return 1
	done &&
	rm -rf m && plumb bundle extract "$(sed -n 9p bundles)" m >/dev/null &&
	test_json m/manifest.json "j[\"run\"][\"labels\"][\"bisect\"] == \"$id\"" &&
	test_json m/manifest.json "j[\"repo\"][\"candidate\"][\"subject\"] == \"commit 79: the hot loop does more work\""
'

test_expect_success COUNTS 'the text report names the culprit and the builds' '
	plumb bisect --show out >show.txt &&
	test_grep "^found: .* (commit 79: the hot loop does more work) is the first commit slower than its parent" show.txt &&
	test_grep "^9 comparisons (at most 9 for 128 commits); builds: " show.txt
'

test_done
