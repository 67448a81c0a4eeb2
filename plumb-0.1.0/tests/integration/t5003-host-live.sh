#!/bin/sh
test_description='plumb host on this machine: valid JSON with exactly the documented keys'
. "$(dirname "$0")/test-lib.sh"

doc="$TEST_SRCDIR/docs/host-facts.md"

# The keys that docs/host-facts.md documents: the first cell of the rows
# whose second cell is a JSON type (the check rules table has levels there).
test_expect_success 'docs/host-facts.md lists the keys' '
	sed -n -E "s/^\| \`([][a-z0-9_.]+)\` \| (string|integer|number|boolean|array|object) \|.*/\1/p" "$doc" | sort -u >documented &&
	test_grep "^cpu.model$" documented &&
	test_grep "^check.items\[\].fix$" documented &&
	test $(wc -l <documented) -gt 50
'

# keys FILE: the dotted path of every value of a JSON object that is not
# itself an object ("cpu.model", "notes"); array elements as "[]".
keys() {
	python3 -c '
import json, sys
def walk(v, p, out):
    if isinstance(v, dict):
        for k, x in v.items():
            q = p + "." + k if p else k
            if not isinstance(x, dict):
                out.add(q)
            walk(x, q, out)
    elif isinstance(v, list):
        for x in v:
            walk(x, p + "[]", out)
out = set()
walk(json.load(open(sys.argv[1])), "", out)
print("\n".join(sorted(out)))' "$1"
}

test_expect_success 'plumb.1 names every documented fact key of plumb host --json' '
	sed -n "/^\.SS plumb host/,/^\.S[SH] /p" "$TEST_SRCDIR/docs/plumb.1" >man-host &&
	grep -v "^check" documented | sed "s/.*\.//" | sort -u >leaves &&
	while read k; do
		grep -q "$k" man-host || { echo "plumb.1 does not name $k" >&2; return 1; }
	done <leaves
'

test_expect_success PYTHON 'plumb host --json here is one valid JSON object' '
	plumb host --json >live.json &&
	python3 -c "import json; j = json.load(open(\"live.json\")); assert isinstance(j, dict)"
'

test_expect_success PYTHON 'plumb host --json has every documented fact key and no other' '
	keys live.json >actual &&
	grep -v "^check" documented >expect &&
	test_cmp expect actual
'

test_expect_success PYTHON '--check --json adds exactly the documented check keys' '
	test_expect_code 0 plumb host --check --json >check.json &&
	keys check.json >actual &&
	test_json check.json "len(j[\"check\"][\"items\"]) > 0" &&
	test_cmp documented actual
'

test_expect_success PYTHON 'the fingerprint is the same in the table and the JSON' '
	plumb host >table &&
	fp=$(sed -n "s/^fingerprint  *//p" table) &&
	test_json live.json "j[\"fingerprint\"] == \"$fp\"" &&
	test_json check.json "j[\"fingerprint\"] == \"$fp\""
'

test_expect_success PYTHON 'the live facts are typed as documented' '
	test_json live.json "all(j[\"cpu\"][k] is None or isinstance(j[\"cpu\"][k], int) for k in (\"logical\", \"physical_cores\", \"packages\"))" &&
	test_json live.json "j[\"cpu\"][\"smt\"] in (True, False, None) and j[\"cpufreq\"][\"turbo\"] in (True, False, None)" &&
	test_json live.json "j[\"perf\"][\"cycles\"] in (\"available\", \"not permitted\", \"not supported\")" &&
	test_json live.json "isinstance(j[\"notes\"], list) and j[\"version\"] == 1" &&
	test_json live.json "j[\"kernel\"][\"release\"] == open(\"/proc/sys/kernel/osrelease\").read().strip()"
'

test_expect_success PYTHON '--strict exits 1 exactly when --check --json counts a warning' '
	plumb host --check --strict >/dev/null
	status=$?
	warnings=$(python3 -c "import json; print(json.load(open(\"check.json\"))[\"check\"][\"warnings\"])") &&
	if test "$warnings" -gt 0; then test "$status" = 1; else test "$status" = 0; fi
'

test_expect_success 'plumb host --check here ends with the count line' '
	plumb host --check >out &&
	tail -n 1 out >last &&
	test_grep "^[0-9]* warnings\{0,1\}, [0-9]* notes\{0,1\}$" last
'

test_done
