#!/bin/sh
test_description='plumb run --range A..B [--step N]: every commit against A in one job, the range report'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq VALGRIND
else
	say "valgrind is not installed (Debian package valgrind): the measuring tests skip"
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
test -n "$chromium" && test_set_prereq CHROMIUM

# A generated history of 8 commits: v1, then comments only, code moved
# (functions added before the hot loop: run() moves, its instructions do
# not change), one commit that doubles the hot loop, and more of both.
# Verdicts are judged on the Valgrind-counted instructions, exact at every
# pad, so the planted slowdown is told apart from placement on any host: at
# 6 pads a side (4+4 cannot reach the default rule's 99%) equal counts are
# unchanged and the doubled loop is slower.
test_expect_success 'set up a generated history with one planted slowdown' '
	mkdir proj &&
	(
		cd proj &&
		git init -q -b main . &&
		printf "%s\n" "CFLAGS = -O2 -g" "bench: main.o work.o" \
			"	\$(CC) \$(LDFLAGS) -o \$@ main.o work.o" >Makefile &&
		cat >main.c <<-\EOF &&
		#include <stdio.h>
		#include <stdlib.h>
		long run(long n);
		long acc = 1;
		__attribute__((noinline)) long step(long s) { return s + acc; }
		int main(int argc, char **argv)
		{
			printf("%ld\n", run(argc > 1 ? strtol(argv[1], 0, 10) : 1000));
			return 0;
		}
		EOF
		cat >work.c <<-\EOF &&
		long step(long s);
		extern long acc;
		/* moved code goes below */
		__attribute__((noinline)) long run(long n)
		{
			long s = 0;
			for (long i = 0; i < n; i++)
				s = step(s) ^ (i * acc);
			return s;
		}
		EOF
		printf "bench\n*.o\n" >.gitignore &&
		git add -A && git commit -q -m "first version" && git tag v1 &&
		c() { git commit -q -a -m "$1" && git rev-parse HEAD >>../commits; } &&
		moved() {
			sed -e "s|^/\* moved code goes below.*|&\n__attribute__((noinline, used)) long $1(long x) { return x * $2 + 1; }|" work.c >x &&
			mv x work.c
		} &&
		sed -e "s|moved code goes below|moved code goes below (a comment)|" work.c >x && mv x work.c &&
		c "comment only" &&
		moved moved1 3 && c "move code: moved1 before run" &&
		moved moved2 5 && c "move code: moved2 before run" &&
		sed -e "s|i < n; i++|i < 2 * n; i++|" work.c >x && mv x work.c && grep -q "2 \* n" work.c &&
		c "slow: the loop runs twice as long" &&
		sed -e "s|(a comment)|(another comment)|" work.c >x && mv x work.c &&
		c "comment only again" &&
		moved moved3 7 && c "move code: moved3 before run" &&
		sed -e "s|another comment|third comment|" work.c >x && mv x work.c &&
		c "comment three"
	) &&
	test "$(wc -l <commits)" = 7 &&
	run_conf proj/plumb.conf run.pads=6 bench.b.command="{artifact} 20000" \
		bench.b.counter=valgrind bench.b.metric=vg-instructions &&
	git config -f proj/plumb.conf repo.path "$TRASH/proj"
'

test_expect_success '--range with --base or --candidate, --step alone, or no A..B: usage errors (2)' '
	test_expect_code 2 run_plumb -c proj/plumb.conf --range v1..main --base v1 2>err &&
	test_grep "takes no --base" err &&
	test_expect_code 2 run_plumb -c proj/plumb.conf --range v1..main --candidate main 2>err &&
	test_grep "takes no --candidate" err &&
	test_expect_code 2 run_plumb -c proj/plumb.conf --step 3 2>err &&
	test_grep "step goes with --range" err &&
	test_expect_code 2 run_plumb -c proj/plumb.conf --range v1 2>err &&
	test_grep "is not A..B" err &&
	test_expect_code 2 run_plumb -c proj/plumb.conf --range v1..main --label range=x 2>err &&
	test_grep "range job" err
'

test_expect_success 'an unknown ref or an empty range exits 3 naming it; nothing is built' '
	test_expect_code 3 run_plumb -c proj/plumb.conf --range v1..nosuchref -o "$TRASH" 2>err &&
	test_grep "end .nosuchref. is not a revision" err &&
	test_expect_code 3 run_plumb -c proj/plumb.conf --range nosuchbase..main 2>err &&
	test_grep "start .nosuchbase. is not a revision" err &&
	test_expect_code 3 run_plumb -c proj/plumb.conf --range main..v1 2>err &&
	test_grep "main..v1 is empty" err &&
	test_expect_code 3 run_plumb -c proj/plumb.conf --range main..main 2>err &&
	test_grep "main..main is empty" err &&
	no_bundle . &&
	! test -d wd/range
'

test_expect_success '--dry-run lists the commits oldest first and the builds; --step 3 every third and B' '
	run_plumb -c proj/plumb.conf --range v1..main --dry-run >dry 2>err &&
	test_grep "7 of 7 commits measured against A = $(git -C proj rev-parse v1 | cut -c1-12)" dry &&
	sed -n "s/^;  *[0-9][0-9]*  \([0-9a-f]\{12\}\)  .*/\1/p" dry >listed &&
	cut -c1-12 commits >expect &&
	test_cmp expect listed &&
	test_grep "builds: 7 pairs, each A at 6 pads plus the control and its commit at 6 pads: 91 variants" dry &&
	run_plumb -c proj/plumb.conf --range v1..main --step 3 --dry-run >dry3 2>err &&
	sed -n "s/^;  *[0-9][0-9]*  \([0-9a-f]\{12\}\)  .*/\1/p" dry3 >listed3 &&
	sed -n "3p;6p;7p" commits | cut -c1-12 >expect3 &&
	test_cmp expect3 listed3 &&
	run_plumb -c proj/plumb.conf --range v1..main --step 2 --dry-run >dry2 2>err &&
	sed -n "s/^;  *[0-9][0-9]*  \([0-9a-f]\{12\}\)  .*/\1/p" dry2 >listed2 &&
	sed -n "2p;4p;6p;7p" commits | cut -c1-12 >expect2 &&
	test_cmp expect2 listed2 &&
	! test -d wd/range
'

test_expect_success VALGRIND 'one job measures every commit: the slowdown is slower against A and its parent, the rest is not' '
	mkdir out &&
	run_plumb -c proj/plumb.conf --range v1..main -o out --json >range.json 2>err &&
	ls out/*.plumb >bundles &&
	test "$(wc -l <bundles)" = 7 &&
	python3 - range.json commits <<-\PY
	import json, sys
	j = json.load(open(sys.argv[1]))
	want = [l.strip() for l in open(sys.argv[2])]
	assert j["rangeReport"] == 1 and j["count"] == 7 and j["total"] == 7 and j["step"] == 1, j
	b = j["benches"][0]
	assert b["name"] == "b" and b["metric"] == "vg-instructions", b["name"]
	rows = b["commits"]
	assert [r["commit"] for r in rows] == want, [r["commit"] for r in rows]
	slow = 3
	for k, r in enumerate(rows):
	    vb, vp = r["vsBase"]["verdict"], r["vsParent"]["verdict"]
	    if k < slow:
	        assert vb == "unchanged" and vp == "unchanged", (k, r)
	    elif k == slow:
	        assert vb == "slower" and vp == "slower", (k, r)
	        assert r["vsParent"]["ratio"] > 1.5, r
	    else:
	        assert vb == "slower" and vp == "unchanged", (k, r)
	    assert r["vsParent"]["commit"] == (want[k - 1] if k else j["base"]["commit"]), r
	    assert r["side"]["min"] <= r["side"]["center"] <= r["side"]["max"], r
	# Comment-only commits: the hot code is byte for byte their parents;
	# moved code is the same code at another address; the slowdown changed it.
	for k in (0, 4, 6):
	    assert rows[k]["hotVsParent"] == "identical", rows[k]
	for k in (1, 2, 5):
	    assert rows[k]["hotVsParent"] == "same code", rows[k]
	assert rows[slow]["hotVsParent"] == "changed", rows[slow]
	print("ok")
	PY
'

test_expect_success VALGRIND 'the progress and the end say which commit is measured' '
	test_grep "warmup pass\|round 1/3 done (last run: commit [0-9a-f]\{12\})" err &&
	for c in $(cut -c1-12 commits); do
		test_grep "^plumb: commit $c: out/plumb-range-[0-9a-z]*-[0-9][0-9]-$c.plumb$" err || return 1
		test_grep "^plumb: [0-9:]* $c: " err || return 1
	done
'

test_expect_success VALGRIND 'each bundle is an ordinary pair with the member range; the job is one label' '
	id=$(python3 -c "import json; print(json.load(open(\"range.json\"))[\"id\"])") &&
	k=0 &&
	for f in $(cat bundles); do
		manifest "$f" m$k &&
		test_json m$k/manifest.json "j[\"range\"][\"id\"] == \"$id\" and j[\"range\"][\"index\"] == $k and j[\"range\"][\"count\"] == 7" &&
		test_json m$k/manifest.json "j[\"range\"][\"spec\"] == \"v1..main\" and j[\"range\"][\"step\"] == 1 and j[\"range\"][\"total\"] == 7" &&
		test_json m$k/manifest.json "j[\"repo\"][\"candidate\"][\"commit\"] == open(\"commits\").read().split()[$k]" &&
		test_json m$k/manifest.json "j[\"run\"][\"labels\"][\"range\"] == \"$id\"" &&
		test_json m$k/manifest.json "(\"hot\" in j[\"range\"]) == ($k > 0)" &&
		k=$((k + 1)) || return 1
	done &&
	# Same rounds: every pair ran every round, at the same moments.
	python3 - m0/manifest.json m6/manifest.json <<-\PY &&
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:])
	assert len(a["run"]["order"]) == len(b["run"]["order"]) == 3
	assert [c["atNs"] for c in a["run"]["conditions"]] == [c["atNs"] for c in b["run"]["conditions"]]
	assert a["run"]["seed"] == b["run"]["seed"]
	PY
	# The hot code against the parent, as the runner compared it.
	test_json m2/manifest.json "j[\"range\"][\"hot\"] == [{\"bench\": \"b\", \"identical\": False, \"symbols\": [{\"name\": \"run\", \"identical\": False, \"verdict\": \"identical except addresses\"}]}]" &&
	test_json m4/manifest.json "j[\"range\"][\"hot\"][0][\"identical\"] is True" &&
	test_json m3/manifest.json "j[\"range\"][\"hot\"][0][\"symbols\"][0][\"verdict\"] == \"changed\""
'

test_expect_success VALGRIND 'every bundle verifies, reports, audits clean and archives with its range= label' '
	id=$(python3 -c "import json; print(json.load(open(\"range.json\"))[\"id\"])") &&
	PLUMB_ARCHIVE="$TRASH/archive" &&
	export PLUMB_ARCHIVE &&
	for f in $(cat bundles); do
		plumb bundle verify "$f" >/dev/null &&
		plumb report "$f" >pair.txt &&
		test_grep "^plumb report: candidate against base" pair.txt &&
		plumb audit "$f" >audit.txt &&
		test_grep_not FAIL audit.txt || return 1
	done &&
	plumb archive add $(cat bundles) >/dev/null 2>&1 &&
	plumb archive list --label range=$id --json >listed.json &&
	test_json listed.json "len(j) == 7 and all(b[\"labels\"][\"range\"] == \"$id\" for b in j)" &&
	plumb archive list --label range=nosuchjob --json >none.json &&
	test_json none.json "len(j) == 0"
'

test_expect_success VALGRIND 'plumb report --range: the same report from the bundles in any order, in four formats' '
	plumb report --range $(sort -r bundles) --json >again.json &&
	test_cmp range.json again.json &&
	plumb report --range $(cat bundles) >range.txt &&
	test_grep "^range v1..main: 7 commits measured of 7 (step 1)" range.txt &&
	test_grep "slow: the loop runs twice as long" range.txt &&
	plumb report --range $(cat bundles) --format md >range.md &&
	test_grep "^| 4 | \`$(sed -n 4p commits | cut -c1-12)\` |.*slower.*slower" range.md &&
	plumb report --range $(cat bundles) --format html -o range.html &&
	python3 - range.html <<-\PY
	import sys, xml.etree.ElementTree as ET
	text = open(sys.argv[1]).read()
	ET.fromstring(text)
	low = text.lower()
	for bad in ("<script", "<iframe", "<img", "<link", "http://", "https://", "onload", "onclick"):
	    assert bad not in low, bad
	assert low.count("<svg") == 1 and low.count("<circle") == 8, low.count("<circle")
	assert low.count("<tr>") == 1 + 8, low.count("<tr>")
	print("ok")
	PY
'

test_expect_success VALGRIND,CHROMIUM 'the HTML range report in real Chromium: drawn at desktop and phone widths and printed, nothing loaded' '
	python3 "$TEST_SRCDIR/tests/integration/report-browser.py" "$chromium" "$TRASH" range.html >measured.json &&
	python3 - measured.json <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))["range.html"]
	assert m["print"]["pdf_bytes"] > 1000, m["print"]
	for view, width in (("desktop", 1280), ("phone", 390), ("print", 680)):
	    v = m[view]
	    assert v["vw"] == width, (view, v["vw"])
	    assert len(v["requests"]) == 1 and v["requests"][0].startswith("file://"), v["requests"]
	    assert v["console"] == [], v["console"]
	    # No sideways scrolling of the page: the wide table scrolls in its box.
	    assert v["sw"] <= v["vw"], (view, v["sw"], v["vw"])
	    assert len(v["benches"]) == 1, v["benches"]
	    b = v["benches"][0]
	    assert b["name"] == "b", b
	    assert b["badge"]["visible"] and b["badge"]["text"] == "slower", (view, b["badge"])
	    ch, lab = b["chart"], b["label"]
	    assert ch and ch["w"] > 100 and ch["h"] > 40 and ch["right"] <= v["vw"] + 0.5, (view, ch)
	    assert lab["visible"] and lab["text"] == "slower", (view, lab)
	    if view != "print":
	        # Both verdicts of every commit on the screen (the badges and the
	        # vs A and vs parent columns); commits by 12 digits, the whole on hover.
	        assert v["verdicts"] > 14, (view, v["verdicts"])
	        assert v["offscreen"] == [], (view, v["offscreen"])
	        assert v["longhex"] == [], (view, v["longhex"])
	        assert v["ids"] and all(i["text"] == i["title"][:12] and len(i["title"]) == 40
	                                for i in v["ids"]), (view, v["ids"])
	print("ok")
	PY
'

test_expect_success VALGRIND 'a range report of part of a job, or of an ordinary bundle, exits 3 naming it' '
	test_expect_code 3 plumb report --range $(sed 1d bundles) 2>err &&
	test_grep "its job measured 7 commits, 6 bundles named" err &&
	test_expect_code 3 plumb report --range $(head -1 bundles) $(head -1 bundles) $(sed -n "3,7p" bundles) 2>err &&
	test_grep "range.index 0 also in" err &&
	test_expect_code 2 plumb report --range $(cat bundles) --baseline $(head -1 bundles) 2>err &&
	run_plumb -c proj/plumb.conf --base v1 --candidate main -o pair.plumb >/dev/null 2>&1 &&
	test_expect_code 3 plumb report --range pair.plumb 2>err &&
	test_grep "pair.plumb: not a bundle of a range job" err
'

test_expect_success VALGRIND 'docs/range-json.md names every key of the JSON range report, and no other' '
	sed -n "s/^| \`\([][A-Za-z.]*\)\` |.*/\1/p" "$TEST_SRCDIR/docs/range-json.md" | sort >documented &&
	test "$(wc -l <documented)" -gt 20 &&
	python3 - range.json <<-\PY | sort -u >emitted &&
	import json, sys
	def walk(v, path):
	    if isinstance(v, dict):
	        for k, x in v.items():
	            p = path + "." + k if path else k
	            print(p)
	            walk(x, p)
	    elif isinstance(v, list):
	        for x in v:
	            walk(x, path + "[]")
	walk(json.load(open(sys.argv[1])), "")
	PY
	test_cmp documented emitted
'

test_expect_success VALGRIND '--step 3 measures the third, the sixth and B, each against A and its measured parent' '
	mkdir out3 &&
	run_plumb -c proj/plumb.conf --range v1..main --step 3 -o out3 --json >step.json 2>err &&
	test "$(ls out3/*.plumb | wc -l)" = 3 &&
	python3 - step.json commits <<-\PY
	import json, sys
	j = json.load(open(sys.argv[1]))
	c = [l.strip() for l in open(sys.argv[2])]
	rows = j["benches"][0]["commits"]
	assert [r["commit"] for r in rows] == [c[2], c[5], c[6]], rows
	assert j["step"] == 3 and j["total"] == 7 and j["count"] == 3, j
	assert [r["vsParent"]["commit"] for r in rows] == [j["base"]["commit"], c[2], c[5]], rows
	# The third is before the slowdown, the sixth after it: slower against its measured parent.
	assert rows[0]["vsBase"]["verdict"] == "unchanged" and rows[1]["vsParent"]["verdict"] == "slower", rows
	assert rows[2]["vsParent"]["verdict"] == "unchanged", rows
	print("ok")
	PY
'

test_done
