#!/bin/sh
test_description='report --format csv and bmf, analyze --format csv: the documented columns, the published examples, the same numbers as the JSON'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports"
export_fx="$FIXTURES/export"
python3 -c "import jsonschema" 2>/dev/null && test_set_prereq JSONSCHEMA

# The cases of the report goldens that compare something.
cases() {
	for d in "$golden"/*/; do
		test -f "$d/args" && basename "$d"
	done
}

# render CASE FORMAT: the report of a golden case in FORMAT, into CASE.FORMAT.
render() {
	(cd "$golden" && "$PLUMB" report $(cat "$1/args") --format "$2") >"$1.$2" 2>/dev/null
	test -s "$1.$2"
}

test_expect_success PYTHON 'the CSV reader reads the RFC 4180 examples as the RFC says' '
	python3 - "$export_fx/rfc4180-example.csv" <<-\PY
	import csv, sys
	rows = list(csv.reader(open(sys.argv[1], newline="")))
	assert rows[1] == ["aaa", "bbb", "ccc"], rows
	assert rows[2] == ["aaa", "b\"bb", "ccc"], rows
	assert rows[3] == ["aaa", "b\nbb", "ccc"], rows
	PY
'

test_expect_success PYTHON 'the CSV header is the column table of docs/csv.md, in its order' '
	sed -n "s/^| \`\([a-z_]*\)\` |.*/\1/p" "$TEST_SRCDIR/docs/csv.md" | paste -sd, >expect &&
	test "$(wc -c <expect)" -gt 100 &&
	c=$(cases | head -1) &&
	render "$c" csv &&
	head -1 "$c.csv" >actual &&
	test_cmp expect actual
'

test_expect_success PYTHON 'every case: one row per benchmark, side and pad, the numbers of the JSON report' '
	for c in $(cases); do
		render "$c" csv && render "$c" json &&
		python3 - "$c.csv" "$c.json" <<-\PY || return 1
		import csv, json, math, sys, unicodedata
		def shown(s):
		    # what every view makes of a name: controls and format characters as ?,
		    # a leading formula character kept text by a quote (docs/csv.md)
		    s = "".join("?" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in s)
		    return "\x27" + s if s[:1] in "=+-@" and s else s
		rows = list(csv.DictReader(open(sys.argv[1], newline="")))
		rep = json.load(open(sys.argv[2]))
		def num(s):
		    return None if s == "" else float(s)
		def same(a, b):
		    return (a is None and b is None) or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12))
		seen = 0
		for b in rep["benches"]:
		    mine = [r for r in rows if r["bench"] == shown(b["name"])]
		    assert mine, b["name"]
		    for r in mine:
		        assert r["mode"] == b["mode"] and r["unit"] in ("ns", "bytes", "count"), r
		        if b["verdict"] is not None:
		            assert r["verdict"] == b["verdict"], (r, b["verdict"])
		            assert same(num(r["ratio"]), b["ratio"]), (r["ratio"], b["ratio"])
		    for key, role in (("old", rep["old"]["role"]), ("new", rep["new"]["role"]), ("control", "control")):
		        side = b.get(key)
		        if not side:
		            continue
		        pads = [r for r in mine if r["side"] == role and r["metric"] == b["metric"]]
		        assert [int(r["pad"]) for r in pads] == list(range(len(side["pads"]))), (b["name"], role)
		        for r, v in zip(pads, side["pads"]):
		            assert same(num(r["value"]), v), (r["value"], v)
		            assert same(num(r["center"]), side["center"]) and same(num(r["min"]), side["min"])
		            assert same(num(r["max"]), side["max"])
		            seen += 1
		assert seen > 0
		PY
	done
'

test_expect_success JSONSCHEMA 'BMF: the published example and every case validate under the published schema' '
	for c in $(cases); do render "$c" bmf || return 1; done &&
	python3 - "$export_fx/bmf.schema.json" "$export_fx/bmf-example.json" $(cases | sed "s/$/.bmf/") <<-\PY
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	jsonschema.Draft7Validator.check_schema(schema)
	for f in sys.argv[2:]:
	    jsonschema.validate(json.load(open(f)), schema)
	try:
	    jsonschema.validate({"b": {"latency": {"lower_value": 1.0}}}, schema)
	except jsonschema.ValidationError:
	    pass
	else:
	    raise SystemExit("the schema check cannot fail")
	PY
'

test_expect_success PYTHON 'BMF: the candidate center and range, wall time as latency, counters beside' '
	c=slower && render "$c" bmf && render "$c" json &&
	python3 - "$c.bmf" "$c.json" <<-\PY
	import json, sys
	bmf = json.load(open(sys.argv[1]))
	rep = json.load(open(sys.argv[2]))
	n = 0
	for b in rep["benches"]:
	    new = b["new"]
	    m = bmf[b["name"]]["latency" if b["metric"] == "wall" else b["metric"]]
	    assert m == {"value": new["center"], "lower_value": new["min"], "upper_value": new["max"]}, m
	    for k, v in (new.get("counters") or {}).items():
	        if v is not None and k != b["metric"]:
	            assert bmf[b["name"]][{"branchMisses": "branch-misses"}.get(k, k)] == {"value": v}
	    n += 1
	assert n == len(bmf), (n, list(bmf))
	PY
'

test_expect_success 'a failed benchmark: one csv row saying failed, no BMF entry' '
	render hostile csv 2>/dev/null || true &&
	mkdir f && cp "$golden/inputs/slower/manifest.json" f/ &&
	python3 - f/manifest.json <<-\PY &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	b = m["benches"][0]
	for k in ("sides", "ratio", "verdict", "notes", "rule", "reason", "interval", "noiseBasis", "detectable", "direction"):
	    b.pop(k, None)
	b["failure"] = "exit 1"
	json.dump(m, open(sys.argv[1], "w"))
	PY
	name=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"benches\"][0][\"name\"])" f/manifest.json) &&
	plumb report f --format csv >f.csv;
	grep "^\"$name\"," f.csv >rows &&
	test "$(wc -l <rows)" = 1 &&
	test_grep ",\"failed\",$" rows &&
	plumb report f --format bmf >f.bmf;
	python3 -c "import json,sys; assert sys.argv[2] not in json.load(open(sys.argv[1]))" f.bmf "$name"
'

test_expect_success PYTHON 'analyze --format csv: the same columns, the numbers of analyze --json' '
	plumb analyze "$FIXTURES/analyze/margin.tsv" --format csv >a.csv &&
	plumb analyze "$FIXTURES/analyze/margin.tsv" --json >a.json &&
	c=$(cases | head -1) && head -1 "$c.csv" >expect &&
	head -1 a.csv >actual &&
	test_cmp expect actual &&
	python3 - a.csv a.json <<-\PY
	import csv, json, sys
	rows = list(csv.DictReader(open(sys.argv[1], newline="")))
	an = json.load(open(sys.argv[2]))
	n = 0
	for res in an["results"]:
	    for side, s in res["sides"].items():
	        if not s:
	            continue
	        for p in s["pads"]:
	            r = [r for r in rows if r["bench"] == res["bench"] and r["metric"] == res["metric"]
	                 and r["side"] == side and r["pad"] == str(p["pad"])]
	            assert len(r) == 1, (res["bench"], side, p["pad"])
	            r = r[0]
	            assert float(r["value"]) == p["median"] and int(r["rounds"]) == p["rounds"]
	            assert float(r["center"]) == s["center"]
	            assert r["verdict"] == res["verdict"]
	            assert (r["ratio"] == "") == (res["ratio"] is None)
	            n += 1
	assert n == len(rows) and n > 0, (n, len(rows))
	PY
'

test_expect_success 'formats that do not fit are usage errors' '
	test_expect_code 2 plumb report --trend x --format csv 2>err &&
	test_grep "csv and bmf" err &&
	test_expect_code 2 plumb report x --format xml 2>err &&
	test_grep "csv or bmf" err &&
	test_expect_code 2 plumb analyze "$FIXTURES/analyze/margin.tsv" --format bmf 2>err &&
	test_expect_code 2 plumb analyze "$FIXTURES/analyze/margin.tsv" --json --format csv 2>err &&
	test_grep "disagree" err
'

test_done
