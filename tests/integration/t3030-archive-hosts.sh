#!/bin/sh
test_description='host classes: plumb archive hosts, and trends and change points kept per class (docs/archive-hosts.md)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

NIGHTS="$TEST_BUILDDIR/tests/integration/archive-nights"
A="$TRASH/archive"
ESC=$(printf '\033')

# Two classes filled through the real insert path, 40 and 30 nights: b0
# steps up 10% at night 20 on 5ca1... only; b0 and b1 run on both, at the
# same levels (one line through both would not show it: it would mix two
# CPU models).  One real bundle added by archive add, whose host facts are
# the fixture's (an older shape: no kernel.release), the only "interp".
test_expect_success 'an archive of two host classes and a bundle added by archive add' '
	"$NIGHTS" "$A" 40 2 -s 1 b0@20:10 &&
	"$NIGHTS" "$A" 30 2 -s 2 -H beefbeefbeefbeef -c "Other CPU$ESC[31m" -i 1000 &&
	make_bundle 7 real.plumb &&
	plumb archive add real.plumb --archive-dir "$A" >/dev/null
'

test_expect_success 'archive hosts: a line per class with its facts and counts' '
	plumb archive hosts --archive-dir "$A" >h.txt &&
	test_grep "^3 host classes$" h.txt &&
	test_grep "^FINGERPRINT  *CPU MODEL  *CPUS  *CORES  *KERNEL  *GOVERNOR  *TURBO  *SMT  *BUNDLES  *BENCHES  *FIRST  *LAST$" h.txt &&
	test_grep "^5ca1ab1e0000c0de  Example CPU @ 3.00GHz  *8  *4  *6.1.0-18-amd64  performance  off  *on   *40  *2  *2026-01-01T00:00:00Z  2026-02-09T00:00:00Z$" h.txt &&
	test_grep "^beefbeefbeefbeef  Other CPU.*  *30  *2  *2026-01-01T00:00:00Z  2026-01-30T00:00:00Z$" h.txt &&
	test_grep "^5ca1ab1e00000001  Example CPU @ 3.00GHz  4  *-  *-  *-  *-  *on   *1  *1  " h.txt
'

test_expect_success 'archive hosts: a hostile CPU model is escaped' '
	! grep "$ESC" h.txt &&
	test_grep "Other CPU?\[31m  " h.txt
'

test_expect_success PYTHON 'archive hosts --json: the members docs/archive-hosts.md lists, no more, no fewer' '
	plumb archive hosts --json --archive-dir "$A" >h.json &&
	python3 - h.json "$TEST_SRCDIR/docs/archive-hosts.md" <<-\PY
	import json, re, sys
	j = json.load(open(sys.argv[1]))
	doc = open(sys.argv[2]).read()
	tables = [t for t in re.split(r"\n\n", doc) if t.startswith("| member |")]
	assert len(tables) == 2, len(tables)
	def members(t):
	    out = set()
	    for line in t.splitlines()[2:]:
	        for m in re.findall(r"`([A-Za-z]+)(?:\[\])?`", line.split("|")[1]):
	            out.add(m)
	    return out
	top, host = members(tables[0]), members(tables[1])
	assert set(j) == top, (sorted(j), sorted(top))
	assert j["format"] == "plumb-hosts" and j["version"] == 1
	assert len(j["hosts"]) == 3
	for h in j["hosts"]:
	    assert set(h) == host, (sorted(h), sorted(host))
	a, b, c = j["hosts"]
	assert [h["fingerprint"] for h in j["hosts"]] == ["5ca1ab1e00000001", "5ca1ab1e0000c0de", "beefbeefbeefbeef"]
	assert b["cpuModel"] == "Example CPU @ 3.00GHz" and b["cores"] == 4 and b["cpus"] == 8
	assert b["turbo"] is False and b["smt"] is True and b["governor"] == "performance"
	assert b["bundles"] == 40 and b["benchmarks"] == 2 and b["first"] == "2026-01-01T00:00:00Z"
	assert c["cpuModel"] == "Other CPU\x1b[31m" and c["bundles"] == 30
	assert a["bundles"] == 1 and a["kernel"] is None and a["facts"]["cpu"]["model"] == "Example CPU @ 3.00GHz"
	print("ok")
	PY
'

test_expect_success PYTHON 'the drift check fails when the doc loses a member' '
	sed "/^| \`smt\` |/d" "$TEST_SRCDIR/docs/archive-hosts.md" >short.md &&
	! python3 -c "
import json, re, sys
doc = open(\"short.md\").read()
j = json.load(open(\"h.json\"))
t = [t for t in re.split(r\"\n\n\", doc) if t.startswith(\"| member |\")][1]
m = set(x for l in t.splitlines()[2:] for x in re.findall(r\"\`([A-Za-z]+)\`\", l.split(\"|\")[1]))
sys.exit(0 if set(j[\"hosts\"][0]) == m else 1)"
'

test_expect_success 'an empty archive has no classes' '
	plumb archive add real.plumb --archive-dir empty >/dev/null &&
	plumb archive rm $(bundle_id real.plumb) --archive-dir empty >/dev/null &&
	plumb archive hosts --archive-dir empty >e.txt &&
	test_grep "^1 host class$" e.txt &&
	test_expect_code 2 plumb archive hosts extra --archive-dir "$A" 2>err
'

test_expect_success PYTHON 'report --trend without --host: one series per class, never one through two' '
	plumb report --trend b1 --format json --archive-dir "$A" >t.json &&
	test_json t.json "j[\"format\"] == \"plumb-trend-classes\" and j[\"bench\"] == \"b1\" and len(j[\"classes\"]) == 2" &&
	test_json t.json "[c[\"host\"] for c in j[\"classes\"]] == [\"5ca1ab1e0000c0de\", \"beefbeefbeefbeef\"]" &&
	test_json t.json "[len(c[\"points\"]) for c in j[\"classes\"]] == [40, 30]" &&
	test_json t.json "all(c[\"format\"] == \"plumb-trend\" for c in j[\"classes\"])" &&
	plumb report --trend b1 --host beef --format json --archive-dir "$A" >t1.json &&
	test_json t1.json "j[\"format\"] == \"plumb-trend\" and j[\"host\"] == \"beefbeefbeefbeef\" and len(j[\"points\"]) == 30" &&
	python3 -c "import json,sys; a=json.load(open(\"t.json\"))[\"classes\"][1]; b=json.load(open(\"t1.json\")); sys.exit(a != b)" &&
	plumb report --trend interp --format json --archive-dir "$A" >t0.json &&
	test_json t0.json "j[\"format\"] == \"plumb-trend\" and j[\"host\"] == \"5ca1ab1e00000001\" and len(j[\"points\"]) == 1"
'

test_expect_success PYTHON 'the trend JSON has the members docs/report-json.md lists; the check can fail' '
	check="$TEST_SRCDIR/tests/integration/json-doc-members.py" &&
	doc="$TEST_SRCDIR/docs/report-json.md" &&
	python3 "$check" "$doc" "### Several host classes" t.json &&
	python3 "$check" "$doc" "## --trend" t.json classes.1 &&
	python3 "$check" "$doc" "## --trend" t1.json &&
	sed "/^| \`shifts\` |/d" "$doc" >short.md &&
	test_must_fail python3 "$check" short.md "## --trend" t1.json 2>err &&
	test_grep "printed \[.shifts.\]" err
'

test_expect_success 'report --trend without --host in text, Markdown and HTML: a table or chart per class' '
	plumb report --trend b1 --archive-dir "$A" >t.txt &&
	test_grep "^plumb report --trend b1: 2 host classes, one series each" t.txt &&
	test $(grep -c "^plumb report --trend b1: metric wall, host " t.txt) = 2 &&
	test_grep "host 5ca1ab1e0000c0de, 40 points" t.txt &&
	test_grep "host beefbeefbeefbeef, 30 points" t.txt &&
	plumb report --trend b1 --format md --archive-dir "$A" >t.md &&
	test $(grep -c "^## plumb trend: b1" t.md) = 2 &&
	plumb report --trend b1 --format html --archive-dir "$A" >t.html &&
	test $(grep -c "<svg class=\"chart trend\"" t.html) = 2 &&
	test $(grep -c "<section class=\"hostclass\"" t.html) = 2 &&
	test_grep "<h2>plumb trend: b1</h2>" t.html
'

test_expect_success PYTHON 'report --trend without --host: the HTML holds well-formed pages and loads nothing' '
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" t.html &&
	grep -o " id=\"[^\"]*\"" t.html | sort | uniq -d >dup-ids &&
	! test -s dup-ids &&
	test_grep "default-src '"'"'none'"'"'" t.html &&
	! grep -i "<script\|https\?:" t.html
'

test_expect_success 'the gate over several classes: any class starting a change' '
	test_expect_code 0 plumb report --trend b1 --fail-on change --archive-dir "$A" >/dev/null &&
	"$NIGHTS" gate 40 1 -s 5 b0@38:10 &&
	"$NIGHTS" gate 40 1 -s 6 -H beefbeefbeefbeef -i 1000 &&
	test_expect_code 1 plumb report --trend b0 --fail-on change --archive-dir gate >/dev/null 2>err &&
	test_grep "host 5ca1ab1e0000c0de: the latest nights start a change point up" err
'

test_expect_success PYTHON 'archive trend without --host: a series per class; with --host or one class, the series' '
	plumb archive trend b0 --json --archive-dir "$A" >at.json &&
	test_json at.json "j[\"bench\"] == \"b0\" and [c[\"host\"] for c in j[\"classes\"]] == [\"5ca1ab1e0000c0de\", \"beefbeefbeefbeef\"]" &&
	test_json at.json "[len(c[\"points\"]) for c in j[\"classes\"]] == [40, 30] and [len(c[\"changes\"]) for c in j[\"classes\"]] == [1, 0]" &&
	plumb archive trend b0 --host 5ca1ab1e0000c0de --json --archive-dir "$A" >at1.json &&
	python3 -c "import json,sys; a=json.load(open(\"at.json\"))[\"classes\"][0]; b=json.load(open(\"at1.json\")); sys.exit(a != b)" &&
	plumb archive trend interp --json --archive-dir "$A" >at2.json &&
	test_json at2.json "j[\"host\"] == \"5ca1ab1e00000001\" and \"classes\" not in j" &&
	plumb archive trend b0 --archive-dir "$A" >at.txt &&
	test_grep "^bench b0: 2 host classes, one series each$" at.txt &&
	test_grep "^bench b0, metric wall, host 5ca1ab1e0000c0de: 40 points$" at.txt &&
	test_grep "^bench b0, metric wall, host beefbeefbeefbeef: 30 points$" at.txt
'

test_expect_success PYTHON 'archive changes: every class, each change naming its own' '
	plumb archive changes --json --archive-dir "$A" >c.json &&
	test_json c.json "j[\"host\"] is None and j[\"hosts\"] == [\"5ca1ab1e00000001\", \"5ca1ab1e0000c0de\", \"beefbeefbeefbeef\"]" &&
	test_json c.json "j[\"series\"] == 5 and j[\"nights\"] == 40 * 2 + 30 * 2 + 1" &&
	test_json c.json "len(j[\"changes\"]) == 1 and j[\"changes\"][0][\"host\"] == \"5ca1ab1e0000c0de\" and j[\"changes\"][0][\"bench\"] == \"b0\"" &&
	plumb archive changes --archive-dir "$A" >c.txt &&
	test_grep "^3 host classes (5ca1ab1e00000001, 5ca1ab1e0000c0de, beefbeefbeefbeef): 5 series, 141 nights$" c.txt &&
	test_grep "^FIRST NIGHT AFTER     HOST              BENCH " c.txt &&
	test_grep "  5ca1ab1e0000c0de  b0  *up  " c.txt &&
	plumb archive changes --host beef --json --archive-dir "$A" >cb.json &&
	test_json cb.json "j[\"host\"] == \"beefbeefbeefbeef\" and j[\"hosts\"] == [\"beefbeefbeefbeef\"] and j[\"changes\"] == [] and j[\"series\"] == 2" &&
	plumb archive changes --host beef --archive-dir "$A" >cb.txt &&
	test_grep "^host beefbeefbeefbeef: 2 series, 60 nights$" cb.txt
'

test_done
