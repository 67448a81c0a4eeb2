#!/bin/sh
test_description='plumb host --check --strict --allow: a readiness gate that fits a VM; host.allow in plumb.conf, recorded by plumb run'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

# check NAME [ARGS...]: plumb host --check ARGS on fixture NAME.
check() {
	name=$1
	shift
	PLUMB_SYSROOT="$FIXTURES/hosts/$name" PLUMB_HOST_NO_CC=1 "$PLUMB" host --check "$@"
}

test_expect_success 'a VM fails --strict on warnings nobody there can fix' '
	test_expect_code 1 check vm-nocpufreq --strict >out &&
	test_grep "^3 warnings, 3 notes$" out
'

test_expect_success '--allow lets the named warnings pass, still shows them' '
	test_expect_code 1 check vm-nocpufreq --strict --allow virt,isolation >out &&
	test_grep "^allowed: virt: running virtualized" out &&
	test_grep "^allowed: isolation: " out &&
	test_grep "^warning: perf: " out &&
	test_grep "^1 warning, 2 allowed, 3 notes$" out &&
	check vm-nocpufreq --strict --allow virt,isolation,perf >out &&
	test_grep "^0 warnings, 3 allowed, 3 notes$" out &&
	check vm-nocpufreq --strict --allow "virt isolation,perf" --json >out.json &&
	test_json out.json "j[\"check\"][\"warnings\"] == 0 and j[\"check\"][\"allowed\"] == 3 and [i[\"id\"] for i in j[\"check\"][\"items\"] if i[\"allowed\"]] == [\"perf\", \"virt\", \"isolation\"]"
'

test_expect_success 'an unknown id is a usage error naming the known ones; --allow needs --check' '
	test_expect_code 2 check vm-nocpufreq --strict --allow virt,vm 2>err &&
	test_grep "^plumb host: --allow: .vm. is not the id of a check (governor, turbo, smt, aslr, load, perf, virt, isolation, thp, swap, throttle)$" err &&
	test_expect_code 2 "$PLUMB" host --allow virt 2>err &&
	test_grep "needs --check" err
'

test_expect_success 'host.allow in plumb.conf, read with -c, adds to --allow' '
	make_project proj &&
	write_conf proj/plumb.conf host.allow="virt, isolation" &&
	test_expect_code 1 check vm-nocpufreq --strict -c proj/plumb.conf >out &&
	test_grep "^1 warning, 2 allowed, 3 notes$" out &&
	check vm-nocpufreq --strict -c proj/plumb.conf --allow perf >out &&
	test_grep "^0 warnings, 3 allowed, 3 notes$" out &&
	write_conf proj/bad.conf host.allow=virt,virtualisation &&
	test_expect_code 3 check vm-nocpufreq --strict -c proj/bad.conf 2>err &&
	test_grep "proj/bad.conf: host.allow: .virtualisation. is not the id of a check" err
'

test_expect_success 'plumb run checks host.allow and records it in the bundle' '
	write_conf proj/run.conf run.pads=1 run.rounds=3 run.warmupRuns=0 run.control=false \
		host.allow=virt,isolation &&
	plumb run -c proj/run.conf --workdir "$TRASH/wd" -o r.plumb >/dev/null 2>&1 &&
	plumb bundle extract r.plumb r >/dev/null &&
	test_json r/manifest.json "j[\"spec\"][\"host\"][\"allow\"] == \"virt,isolation\"" &&
	test_expect_code 3 plumb run -c proj/bad.conf --workdir "$TRASH/wd" 2>err &&
	test_grep "proj/bad.conf: host.allow: .virtualisation. is not the id of a check" err &&
	plumb run -c proj/run.conf --dry-run >dry &&
	test_grep "^\[host\]$" dry &&
	test_grep "allow = virt,isolation" dry
'

test_done
