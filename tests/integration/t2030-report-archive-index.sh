#!/bin/sh
test_description='plumb report --archive-index: static pages over the archive, per host class, loading nothing (docs/archive-index.md)'
. "$(dirname "$0")/test-lib.sh"

NIGHTS="$TEST_BUILDDIR/tests/integration/archive-nights"
CHECK="$TEST_SRCDIR/tests/integration/site-check.py"
A="$TRASH/archive"
HOSTILE='<script>alert(1)</script>/../../x"&'"'"

chromium=$(command -v chromium || command -v chromium-browser || true)
test -n "$chromium" && test_set_prereq CHROMIUM

# Two host classes filled through the real insert path: class 5ca1... has
# b0 (a 10% step at night 30), b1, b2, and two names that slug alike
# ("a-b", "A b"); class beef... (another CPU) has a hostile name and b1.
test_expect_success 'an archive of two host classes' '
	"$NIGHTS" "$A" 60 3 -s 1 b0@30:10 &&
	"$NIGHTS" "$A" 60 2 -s 2 -H beefbeefbeefbeef -c "Other CPU <b>" -i 1000 -n "$HOSTILE" &&
	"$NIGHTS" "$A" 10 1 -s 3 -i 2000 -n "a-b" &&
	"$NIGHTS" "$A" 10 1 -s 4 -i 3000 -n "A b" &&
	plumb archive hosts --archive-dir "$A" >hosts.txt &&
	test_grep "^2 host classes$" hosts.txt
'

test_expect_success 'the pages are written: an index, a page per class, one per benchmark and class' '
	plumb report --archive-index -o site/ --archive-dir "$A" >out &&
	test_grep "^site/: 10 pages: 2 host classes, 7 benchmark series$" out &&
	test -f site/index.html && test -f site/.plumb-site &&
	test $(ls site/host-*.html | wc -l) = 2 &&
	test $(ls site/bench-*.html | wc -l) = 7 &&
	ls site/host-5ca1ab1e0000c0de-*.html site/host-beefbeefbeefbeef-*.html &&
	# Alike slugs, two pages; a class each for b1.
	test $(ls site/bench-a-b-*.html | wc -l) = 2 &&
	test $(ls site/bench-b1-*.html | wc -l) = 2
'

test_expect_success PYTHON 'every href is a page of the folder, every page reached, nothing can load' '
	python3 "$CHECK" site >check.out &&
	test_grep "^pages 10 links " check.out
'

test_expect_success PYTHON 'the check fails on a broken link, an outside URL, a script' '
	cp -r site broken &&
	sed -i "s|href=\"index.html\"|href=\"gone.html\"|" broken/$(cd site && ls host-5ca1*.html) &&
	test_must_fail python3 "$CHECK" broken 2>err &&
	test_grep "gone.html" err &&
	rm -rf broken && cp -r site broken &&
	sed -i "s|href=\"index.html\"|href=\"https://example.org/\"|" broken/$(cd site && ls host-5ca1*.html) &&
	test_must_fail python3 "$CHECK" broken 2>err &&
	test_grep "points somewhere" err &&
	rm -rf broken && cp -r site broken &&
	sed -i "s|<footer>|<script>1</script><footer>|" broken/index.html &&
	test_must_fail python3 "$CHECK" broken 2>err &&
	test_grep "<script>" err &&
	rm -rf broken
'

test_expect_success 'a hostile benchmark name: escaped everywhere, a plain file name' '
	! grep -r "<script>alert" site &&
	! grep -r "<b>" site/index.html &&
	grep -F "&lt;script&gt;alert(1)&lt;/script&gt;/../../x&quot;&amp;" site/index.html &&
	ls site | grep -v "^[a-z0-9][a-z0-9.-]*\$" >odd || true &&
	! test -s odd &&
	ls site/bench-script-alert-1-script-x-*.html &&
	! test -e x && ! test -e "$TRASH/../x"
'

test_expect_success 'the index shows each class with the latest night of its benchmarks' '
	sed -n "/id=\"class-0\"/,/<\/section>/p" site/index.html >c0 &&
	test_grep "Host class <a href=\"host-5ca1ab1e0000c0de-" c0 &&
	test_grep "Example CPU @ 3.00GHz, 8 CPUs, kernel 6.1.0-18-amd64" c0 &&
	test $(grep -c "<tr><td><a href=\"bench-" c0) = 5 &&
	grep "bench-b0-" c0 >b0.row &&
	# The night is when it ran (night 60, 2026-03-01), not its commit'"'"'s time.
	test_grep "v-placement.*<td class=\"num\">1<br/><span class=\"interval\">(latest up +[0-9.]*%.*<td class=\"num\">2026-03-01T00:00:00Z</td>" b0.row &&
	test_grep_not "2026-02-28T23:00:00Z" b0.row &&
	sed -n "/id=\"class-1\"/,/<\/section>/p" site/index.html >c1 &&
	test_grep "Other CPU &lt;b&gt;" c1 &&
	test $(grep -c "<tr><td><a href=\"bench-" c1) = 2
'

test_expect_success 'a class page: facts, benchmarks, change points newest first' '
	p=$(ls site/host-5ca1*.html) &&
	test_grep "<dt>CPU model</dt><dd>Example CPU @ 3.00GHz</dd>" $p &&
	test_grep "<dt>physical cores</dt><dd>4</dd>" $p &&
	test_grep "<dt>bundles</dt><dd>80</dd>" $p &&
	test_grep "^<p>1 change point over the benchmarks" $p &&
	grep "<tr class=\"differs\"><td><a href=\"bench-b0-" $p >b0.row &&
	test_grep ">up<.*+[0-9.]*% \[" b0.row &&
	test_grep "<a href=\"index.html\">archive index</a>" $p
'

test_expect_success 'a benchmark page is the trend of report --trend --host, with links back' '
	fp=5ca1ab1e0000c0de &&
	p=$(ls site/bench-b0-*.html) &&
	plumb report --trend b0 --host $fp --format html --archive-dir "$A" >trend.html &&
	sed -n "/<svg/,/<\/svg>/p" $p >a.svg && sed -n "/<svg/,/<\/svg>/p" trend.html >b.svg &&
	test -s a.svg && test_cmp b.svg a.svg &&
	sed -n "/<section class=\"changes\">/,/<\/section>/p" $p >a.ch &&
	sed -n "/<section class=\"changes\">/,/<\/section>/p" trend.html >b.ch &&
	test_cmp b.ch a.ch &&
	test_grep "<nav class=\"meta\"><a href=\"index.html\">archive index</a> .* host class <a href=\"host-5ca1ab1e0000c0de-" $p
'

test_expect_success 'idempotent: the same archive gives the same bytes, here or elsewhere' '
	plumb report --archive-index -o again --archive-dir "$A" >/dev/null &&
	diff -r site again &&
	plumb report --archive-index -o site --archive-dir "$A" >/dev/null &&
	diff -r again site
'

test_expect_success 'an earlier index is replaced whole: a stale page goes, no temporary folder stays' '
	echo stale >site/bench-gone-0000.html &&
	plumb report --archive-index -o site --archive-dir "$A" >/dev/null &&
	! test -e site/bench-gone-0000.html &&
	diff -r again site &&
	ls -a | grep "\.site\." >tmps || true &&
	! test -s tmps
'

test_expect_success 'a dead writer'"'"'s temporary folder is removed by the next run' '
	mkdir .site.site.999999999.abcdef && echo x >.site.site.999999999.abcdef/index.html &&
	plumb report --archive-index -o site --archive-dir "$A" >/dev/null &&
	! test -e .site.site.999999999.abcdef
'

test_expect_success 'a folder the index did not write is refused and left alone; so is a file' '
	mkdir mine && echo keep >mine/notes.txt &&
	test_expect_code 3 plumb report --archive-index -o mine --archive-dir "$A" 2>err &&
	test_grep "mine: a folder that the archive index did not write" err &&
	test "$(cat mine/notes.txt)" = keep && test $(ls -A mine | wc -l) = 1 &&
	echo x >afile &&
	test_expect_code 3 plumb report --archive-index -o afile --archive-dir "$A" 2>err &&
	test_grep "afile: not a folder" err &&
	mkdir empty &&
	plumb report --archive-index -o empty --archive-dir "$A" >/dev/null &&
	diff -r again empty
'

test_expect_success 'usage: -o is needed; no bundle, --trend or --format with it' '
	test_expect_code 2 plumb report --archive-index --archive-dir "$A" 2>err &&
	test_grep "needs -o DIR" err &&
	test_expect_code 2 plumb report --archive-index x.plumb -o s2 --archive-dir "$A" 2>err &&
	test_expect_code 2 plumb report --archive-index --trend b0 -o s2 --archive-dir "$A" 2>err &&
	test_expect_code 2 plumb report --archive-index --format md -o s2 --archive-dir "$A" 2>err &&
	! test -e s2 &&
	test_expect_code 3 plumb report --archive-index -o s3 --archive-dir "$TRASH/none" 2>err &&
	! test -e s3
'

test_expect_success 'an archive without results: an index that says so' '
	"$NIGHTS" one 1 1 &&
	sqlite3 one/archive.db "DELETE FROM benches" 2>/dev/null ||
	python3 -c "import sqlite3; c = sqlite3.connect(\"one/archive.db\"); c.execute(\"DELETE FROM benches\"); c.commit()" &&
	plumb report --archive-index -o bare --archive-dir one >out &&
	test_grep "1 page: 0 host classes" out &&
	test_grep "holds no results with host facts" bare/index.html
'

test_expect_success CHROMIUM 'every page renders in Chromium: nothing requested, no complaint, charts drawn' '
	python3 "$TEST_SRCDIR/tests/integration/report-browser.py" "$chromium" "$TRASH" \
		$(ls site/*.html) >measured.json &&
	python3 - measured.json <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))
	assert len(m) == 10, sorted(m)
	for page, views in m.items():
	    for view, v in views.items():
	        assert len(v["requests"]) == 1 and v["requests"][0].startswith("file://"), (page, v["requests"])
	        assert v["console"] == [], (page, v["console"])
	        assert v["sw"] <= v["vw"], (page, view, v["sw"], v["vw"])
	        if "/bench-" in page:
	            ch = v["benches"][0]["chart"]
	            assert ch and ch["w"] > 100 and ch["h"] > 40, (page, view, ch)
	            assert ch["right"] <= v["vw"] + 0.5, (page, view, ch)
	        if view == "print":
	            continue
	        # 1280 and 390 px: every verdict shown lies on the screen, not
	        # past the right edge of a table that scrolls; commits are 12
	        # digits with the whole id on hover, never 40 in the text.
	        assert v["verdicts"] > 0, (page, view)
	        assert v["offscreen"] == [], (page, view, v["offscreen"])
	        assert v["longhex"] == [], (page, view, v["longhex"])
	        assert v["ids"], (page, view)
	        for i in v["ids"]:
	            assert len(i["title"]) == 40 and i["text"] == i["title"][:12], (page, view, i)
	        if view == "desktop" and "/bench-" not in page:
	            assert v["scrolling"] == [], (page, v["scrolling"])
	print("ok")
	PY
'

test_done
