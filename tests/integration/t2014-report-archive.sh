#!/bin/sh
test_description='plumb report with the archive: baselines by name and id, archived bundles, --trend'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports"
A="$TRASH/archive"

test_expect_success 'an archive with a baseline and a bundle' '
	plumb bundle pack "$golden/inputs/bl-baseline" -o bl.plumb >/dev/null &&
	plumb bundle pack "$golden/inputs/bl-bundle" -o bu.plumb >/dev/null &&
	plumb archive add bl.plumb bu.plumb --archive-dir "$A" >added &&
	bl=$(sed -n 1p added | cut -c1-64) &&
	bu=$(sed -n 2p added | cut -c1-64) &&
	echo "$bl" >bl.id && echo "$bu" >bu.id &&
	plumb archive baseline set release-2.3 "$bl" --archive-dir "$A" >/dev/null &&
	plumb archive baseline set old-base "$bl" --side base --archive-dir "$A" >/dev/null
'

# The report against the same baseline, named three ways, says the same.
strip_sources() {
	grep -v -e "^  bundle " -e "^  baseline from " "$1"
}

test_expect_success '--baseline NAME: the baseline of the archive' '
	(cd "$golden" && "$PLUMB" report inputs/bl-bundle --baseline inputs/bl-baseline) >want.txt &&
	plumb report bu.plumb --baseline release-2.3 --archive-dir "$A" >got.txt &&
	strip_sources want.txt | sed 1d >a && strip_sources got.txt | sed 1d >b &&
	test_cmp a b &&
	test_grep "^plumb report: candidate against baseline release-2.3$" got.txt &&
	test_grep "^  baseline from $(cat bl.id) (candidate side)$" got.txt
'

test_expect_success '--baseline ID or a prefix of it; the bundle by id too' '
	plumb report bu.plumb --baseline "$(cut -c1-10 bl.id)" --archive-dir "$A" >got2.txt &&
	strip_sources got.txt | sed "s/ release-2.3$//" >a &&
	strip_sources got2.txt >b &&
	test_cmp a b &&
	plumb report "$(cut -c1-12 bu.id)" --baseline release-2.3 --archive-dir "$A" >got3.txt &&
	strip_sources got3.txt >c &&
	strip_sources got.txt >d &&
	test_cmp d c &&
	PLUMB_ARCHIVE="$A" plumb report bu.plumb --baseline release-2.3 --format json >j.json &&
	test_json j.json "j[\"old\"][\"baseline\"] == \"release-2.3\" and j[\"old\"][\"bundle\"] == \"$(cat bl.id)\" and j[\"new\"][\"bundle\"] == \"$(cat bu.id)\""
'

test_expect_success 'a baseline naming the base side compares with that side' '
	plumb report bu.plumb --baseline old-base --archive-dir "$A" --format json >base.json &&
	test_json base.json "j[\"old\"][\"side\"] == \"base\" and j[\"old\"][\"ref\"] == \"v2.2.0\"" &&
	test_json base.json "j[\"benches\"][0][\"old\"][\"center\"] == 81200000.0"
'

test_expect_success 'unknown names and ids exit 3, naming them' '
	test_expect_code 3 plumb report bu.plumb --baseline no-such --archive-dir "$A" 2>err &&
	test_grep "no-such" err &&
	test_expect_code 3 plumb report bu.plumb --baseline abcdef12 --archive-dir "$A" 2>err &&
	test_grep "abcdef12" err &&
	test_expect_code 3 plumb report bu.plumb --baseline release-2.3 --archive-dir "$TRASH/none" 2>err &&
	test_grep "no archive" err
'

# A nightly series: one bundle a night, candidate commit time one day apart;
# the candidate moves up on night 5 (a shift) and back down on night 8.
# A process that holds the archive locked (an exclusive SQLite lock, as a
# long write or a broken tool may): report waits for it, and a SIGTERM
# ends the wait at once, said (not after the 10 s of the last resort).
command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# stop_waiting_report: with the lock taken (fd 9 feeds its holder, which
# waits for the checks that it holds it), start a report, SIGTERM it once
# it has the archive open; its exit status in $st.
stop_waiting_report() {
	printf ".timeout 20000\nPRAGMA locking_mode = EXCLUSIVE;\nBEGIN EXCLUSIVE;\nINSERT INTO labels (bundle, key, value) VALUES (1, \"lock\", \"held\");\n" >&9 &&
	wait_for sh -c "! sqlite3 \"$A/archive.db\" \"SELECT count(*) FROM bundles\" >/dev/null 2>&1" &&
	{ "$PLUMB" report bu.plumb --baseline release-2.3 --archive-dir "$A" >out 2>err & } &&
	pid=$! &&
	wait_for sh -c "ls -l /proc/$pid/fd 2>/dev/null | grep -q archive.db" &&
	kill -TERM $pid &&
	{ wait $pid; st=$?; }
}

test_expect_success SQLITE3 'report waiting for a locked archive stops at SIGTERM, saying so' '
	mkfifo hold &&
	{ sqlite3 "$A/archive.db" <hold >holder.out 2>&1 & } &&
	exec 9>hold &&
	{ stop_waiting_report; r=$?; exec 9>&-; test $r = 0; } &&
	test $st = 143 &&
	test_grep "archive.db: .*stopped by signal 15 while waiting for another process.s lock" err &&
	wait_for sh -c "sqlite3 \"$A/archive.db\" \"SELECT count(*) FROM bundles\" >/dev/null 2>&1" &&
	plumb report bu.plumb --baseline release-2.3 --archive-dir "$A" >/dev/null
'

test_expect_success PYTHON 'a series of nightly bundles in the archive' '
	python3 - "$golden/inputs/slower/manifest.json" <<-\PY &&
	import json, os, sys
	m = json.load(open(sys.argv[1]))
	m["benches"] = m["benches"][:1]
	b = m["benches"][0]
	b["name"] = "sort-nightly"
	for night in range(10):
	    level = 1.12 if 5 <= night < 8 else 1.0
	    pads = [p * level * (1 + 0.001 * night) for p in (81.2e6, 83.9e6, 82.5e6, 84.1e6)]
	    s = b["sides"]["candidate"]
	    s["pads"] = pads
	    s["min"], s["max"] = min(pads), max(pads)
	    s["center"] = sorted(pads)[1] / 2 + sorted(pads)[2] / 2
	    s["spread"] = (s["max"] - s["min"]) / s["center"]
	    b["ratio"] = s["center"] / b["sides"]["base"]["center"]
	    b["verdict"] = "slower" if s["min"] > b["sides"]["base"]["max"] else "placement"
	    c = m["repo"]["candidate"]
	    c["commit"] = "%040x" % (0xabc0000 + night)
	    c["ref"] = "nightly-%d" % night
	    c["time"] = "2026-11-%02dT02:00:00Z" % (night + 1)
	    m["created"] = m["run"]["end"] = "2026-11-%02dT03:00:00Z" % (night + 1)
	    m["run"]["start"] = "2026-11-%02dT02:30:00Z" % (night + 1)
	    d = "night%d" % night
	    os.mkdir(d)
	    json.dump(m, open(d + "/manifest.json", "w"), indent=1)
	    # Rows that give exactly these pad medians (a bundle agrees with its samples).
	    with open(d + "/samples.tsv", "w") as f:
	        f.write("bench\tside\tpad\tround\titer\tmetric\tvalue\n")
	        for sname, sd in b["sides"].items():
	            for k, v in enumerate(sd["pads"]):
	                for r in range(1, m["run"]["rounds"] + 1):
	                    f.write("sort-nightly\t%s\t%d\t%d\t-\twall\t%r\n" % (sname, k, r, float(v)))
	PY
	for n in 0 1 2 3 4 5 6 7 8 9; do
		plumb bundle pack night$n -o night$n.plumb >/dev/null || return 1
	done &&
	plumb archive add night*.plumb --archive-dir "$A" >/dev/null
'

test_expect_success PYTHON '--trend: the series, oldest first, shifts marked' '
	plumb report --trend sort-nightly --archive-dir "$A" --format json >t.json &&
	test_json t.json "j[\"format\"] == \"plumb-trend\" and j[\"version\"] == 1" &&
	test_json t.json "[p[\"ref\"] for p in j[\"points\"]] == [\"nightly-%d\" % n for n in range(10)]" &&
	test_json t.json "[p[\"shift\"] for p in j[\"points\"]] == [None] * 5 + [\"up\", None, None, \"down\", None]" &&
	test_json t.json "j[\"shifts\"] == 2" &&
	# Each night says when it ran as well as its commit'"'"'s time.
	test_json t.json "[p[\"created\"] for p in j[\"points\"]] == [\"2026-11-%02dT03:00:00Z\" % (n + 1) for n in range(10)]" &&
	plumb report --trend sort-nightly --archive-dir "$A" >t.txt &&
	test_grep "^2 shifts: 2026-11-06T02:00:00Z 000000000000 (up), 2026-11-09T02:00:00Z 000000000000 (down)$" t.txt &&
	test_grep "^2026-11-06T02:00:00Z .* slower  *up$" t.txt
'

test_expect_success PYTHON '--trend --last and --host; Markdown and HTML' '
	plumb report --trend sort-nightly --last 3 --archive-dir "$A" --format json >t3.json &&
	test_json t3.json "[p[\"ref\"] for p in j[\"points\"]] == [\"nightly-7\", \"nightly-8\", \"nightly-9\"]" &&
	test_json t3.json "[p[\"shift\"] for p in j[\"points\"]] == [None, \"down\", None]" &&
	fp=$(python3 -c "import json; print(json.load(open(\"t.json\"))[\"host\"])") &&
	plumb report --trend sort-nightly --host "$(printf %.6s "$fp")" --archive-dir "$A" \
		--format json >th.json &&
	test_json th.json "len(j[\"points\"]) == 10" &&
	plumb report --trend sort-nightly --archive-dir "$A" --format md >t.md &&
	test_grep "^| 2026-11-06T02:00:00Z | .* | \*\*▲ up\*\* |$" t.md &&
	plumb report --trend sort-nightly --archive-dir "$A" --format html -o t.html &&
	python3 -c "import xml.etree.ElementTree as ET; r = ET.parse(\"t.html\").getroot(); \
assert len([e for e in r.iter(\"svg\")]) == 1; \
assert len([e for e in r.iter(\"text\") if \"shiftlabel\" in e.attrib.get(\"class\", \"\")]) == 2" &&
	test_grep_not "<script" t.html
'

test_expect_success '--trend of an unknown benchmark or host exits 3' '
	test_expect_code 3 plumb report --trend nope --archive-dir "$A" 2>err &&
	test_grep "nope" err &&
	test_expect_code 3 plumb report --trend sort-nightly --host ffffffff --archive-dir "$A" 2>err
'

test_done
