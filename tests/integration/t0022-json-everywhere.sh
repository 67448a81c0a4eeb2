#!/bin/sh
test_description='--json wherever a command prints data: import, audit, bisect --show, cache prune'
. "$(dirname "$0")/test-lib.sh"

fx="$FIXTURES"

test_expect_success PYTHON 'import --json names the bundle it wrote' '
	plumb import --json "$fx/import/hyperfine-base.json" "$fx/import/hyperfine-candidate.json" \
		-o hf.plumb >out.json &&
	test_json out.json "j[\"bundle\"] == \"hf.plumb\" and len(j[\"id\"]) == 64 and j[\"benches\"] >= 1 and j[\"tool\"] and j[\"signed\"] is False and isinstance(j[\"leftOut\"], list)" &&
	plumb bundle verify hf.plumb >/dev/null
'

test_expect_success 'audit --json is audit --format json; with another --format a usage error' '
	plumb audit --format json "$fx/audit/process.plumb" >a.json 2>/dev/null; echo $? >s1 &&
	plumb audit --json "$fx/audit/process.plumb" >b.json 2>/dev/null; echo $? >s2 &&
	test_cmp s1 s2 &&
	test_cmp a.json b.json &&
	test_expect_code 2 plumb audit --json --format md "$fx/audit/process.plumb" 2>err &&
	test_grep "json is --format json, not --format md" err
'

test_expect_success 'bisect --json is --format json' '
	test_expect_code 2 plumb bisect --json --format html --show nowhere 2>err &&
	test_grep "bisect: --json is --format json" err
'

test_expect_success PYTHON 'cache prune --json says what it removed and what is left' '
	mkdir cache &&
	plumb cache prune --json --all --cache-dir cache >p.json &&
	test_json p.json "j[\"removed\"] == 0 and j[\"left\"] == 0 and j[\"freedBytes\"] == 0 and j[\"leftBytes\"] == 0"
'

test_done
