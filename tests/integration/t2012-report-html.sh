#!/bin/sh
test_description='plumb report --format html: one self-contained, well-formed, escaped page'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports"
check="$TEST_SRCDIR/tests/integration/report-html-check.py"

for dir in "$golden"/*/; do
	c=$(basename "$dir")
	test -f "$dir/args" || continue
	test_expect_success PYTHON "$c: well-formed, loads nothing, a chart and verdict per benchmark" '
		want=$(cat "$golden/$c/status") &&
		(cd "$golden" && test_expect_code "$want" "$PLUMB" report $(cat "$c/args") \
			--format html -o "$TRASH/$c.html") 2>/dev/null &&
		python3 "$check" "$c.html" "$golden/$c/expect.json"
	'
done

test_expect_success 'the same comparison gives the same page' '
	(cd "$golden" && "$PLUMB" report inputs/placement --format html) >a.html &&
	(cd "$golden" && "$PLUMB" report inputs/placement --format html) >b.html &&
	test_cmp a.html b.html
'

test_expect_success 'hostile strings stay text: no element, no attribute, no entity of theirs' '
	(cd "$golden" && "$PLUMB" report inputs/hostile --format html) >h.html &&
	test_grep "&lt;script&gt;alert(1)&lt;/script&gt;" h.html &&
	test_grep "&lt;/title&gt;&lt;script&gt;alert(3)" h.html &&
	test_grep "&lt;img src=x onerror=alert(2)&gt;" h.html &&
	test_grep_not "<script" h.html &&
	test_grep_not "<img" h.html &&
	test_grep_not "<style>body" h.html &&
	! grep -q "$(printf "\033")" h.html &&
	! grep -q "$(printf "\342\200\256")" h.html
'

test_expect_success 'the configuration is a collapsed table: labels, commands, hooks, params, escaped' '
	sed -n "/<section class=\"config\">/,/<\/section>/p" h.html >config &&
	test_grep "^<details><summary><strong>Configuration" config &&
	test_grep_not "<details open" config &&
	test_grep "<td class=\"key\">label purpose</td><td class=\"fact\">release-notes</td>" config &&
	test_grep "<td class=\"key\">run.seed</td><td class=\"fact\">1</td>" config &&
	test_grep "<td class=\"key\">run.setup</td><td class=\"fact\">echo &lt;script&gt;alert(5)" config &&
	test_grep "bench.&lt;script&gt;alert(1)&lt;/script&gt;.prepare</td><td class=\"fact\">printf &#39;&lt;img src=x onerror=alert(6)&gt;" config &&
	test_grep "\.params</td><td class=\"fact\">size=&lt;b&gt;1M&lt;/b&gt;" config &&
	test_grep "label &lt;b&gt;note&lt;/b&gt;" config
'

test_expect_success 'every benchmark says its verdict in a sentence; the page ends with a glossary' '
	(cd "$golden" && "$PLUMB" report inputs/slower --format html) >s.html &&
	test_grep "<p class=\"explain\">The candidate&#39;s range 91.00–94.00 ms lies wholly above the base&#39;s 81.20–84.10 ms: 11.8% slower.</p>" s.html &&
	test "$(grep -c "<p class=\"explain\">" s.html)" = 2 &&
	test_grep "<section class=\"glossary\">" s.html &&
	for t in pad placement control spread range center margin "detectable change"; do
		grep -q "<dt>$t</dt>" s.html || { echo "no $t in the glossary" >&2; return 1; }
	done &&
	test_grep "<h1>plumb report: candidate against base</h1>" s.html &&
	test_grep_not "one job" s.html
'

test_expect_success 'each pad over the rounds: in the order they ran, the load beneath, control in its row' '
	(cd "$golden" && "$PLUMB" report inputs/family --format html) >f.html &&
	test "$(grep -o "<svg class=\"rounds\"" f.html | wc -l)" = 4 &&
	test "$(grep -o "<svg class=\"strip\"" f.html | wc -l)" = 4 &&
	test_grep "over the rounds, in the order they ran: a line per pad; below, the load average" f.html &&
	test "$(grep -o "<rect class=\"load\"" f.html | wc -l)" = 20 &&
	test_grep "<title>round 3: load 3.50</title>" f.html &&
	test "$(grep -o "<path class=\"roundline old\"" f.html | wc -l)" = 16 &&
	test_grep "axis starts at .*, not zero" f.html &&
	(cd "$golden" && "$PLUMB" report inputs/noisy --format html) >n.html &&
	test_grep "<text class=\"grouplabel ctl\" x=\"4\" y=\"[0-9.]*\">control</text>" n.html &&
	test_grep "<path class=\"roundline ctl\"" n.html
'

test_expect_success 'a parameter family: a table with a column per parameter' '
	sed -n "/<section class=\"families\">/,/<\/section>/p" f.html >fam &&
	test_grep "<h2>zip <small>by parameter</small></h2>" fam &&
	test_grep "<tr><th>size</th><th>level</th><th>change</th><th>verdict</th><th>base</th><th>candidate</th></tr>" fam &&
	test "$(grep -c "^<tr><td><a href" fam)" = 4 &&
	test_grep "<td><a href=\"#bench-3\">64M</a></td><td><a href=\"#bench-3\">9</a></td>.*slower" fam
'

test_expect_success 'samples mode: a distribution per pad and side' '
	(cd "$golden" && "$PLUMB" report inputs/placement --format html) >p.html &&
	test "$(grep -o "<svg class=\"dist\"" p.html | wc -l)" = 1 &&
	test "$(grep -o "<rect class=\"box old\"" p.html | wc -l)" = 4 &&
	test "$(grep -o "<rect class=\"box new\"" p.html | wc -l)" = 4
'

test_expect_success 'host facts: the table highlights what differs' '
	(cd "$golden" && "$PLUMB" report inputs/host-warnings --format html) >hw.html &&
	grep -A1 "<tr class=\"differs\"><td class=\"key\">cpufreq.governor</td>" hw.html >row &&
	test_grep "performance</td><td class=\"fact\">powersave" row &&
	(cd "$golden" && "$PLUMB" report inputs/nc-bundle --baseline inputs/nc-baseline \
		--format html --force) >nc.html &&
	test_grep "<tr class=\"blocker\"><td class=\"key\">cpu.model</td>" nc.html
'

test_expect_success 'print and phone layouts are in the page' '
	test_grep "@media print" p.html &&
	test_grep "@media (max-width:40rem)" p.html &&
	test_grep "name=\"viewport\" content=\"width=device-width, initial-scale=1\"" p.html
'

test_done
