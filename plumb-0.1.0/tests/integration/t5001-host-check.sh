#!/bin/sh
test_description='plumb host --check: the exact findings for each fixture, and --strict'
. "$(dirname "$0")/test-lib.sh"

# check NAME [ARGS...]: plumb host --check ARGS on fixture NAME.
check() {
	name=$1
	shift
	PLUMB_SYSROOT="$FIXTURES/hosts/$name" PLUMB_HOST_NO_CC=1 plumb host --check "$@"
}

# findings FILE: the part of `plumb host --check` after the table.
findings() {
	sed -e '1,/^$/d' "$1"
}

# The expected findings are written here, outside the test bodies, because
# they quote themselves ("the benchmark's CPU").
cat >expect.intel-laptop <<\EOT
warning: governor: the CPU scaling governor is powersave, not performance: the clock follows the load
  fix: echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor
warning: turbo: turbo/boost is on: the clock rises above base while power and heat allow
  fix: echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo
warning: smt: SMT is on: a sibling hardware thread can share the benchmark's core
  fix: echo off | sudo tee /sys/devices/system/cpu/smt/control
note: aslr: ASLR is on (randomize_va_space 2): stack, heap and library addresses move between runs
  fix: set aslr = off under [run] in plumb.conf to turn it off for benchmarks only
warning: isolation: no CPU is isolated: the scheduler may run other tasks on the benchmark's CPU
  fix: boot with isolcpus=N nohz_full=N and set cpu = N under [run] in plumb.conf
warning: thp: transparent huge pages are always on: page faults and khugepaged vary run to run
  fix: echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled
warning: swap: swap is in use (259 MiB): a benchmark's pages may come back from disk
  fix: free memory, then: sudo swapoff -a && sudo swapon -a
warning: throttle: thermal throttling seen since boot (12 core, 4 package events)
  fix: improve cooling; compare the counts before and after a run
7 warnings, 1 note
EOT

cat >expect.acpi-performance <<\EOT
note: aslr: ASLR is on (randomize_va_space 2): stack, heap and library addresses move between runs
  fix: set aslr = off under [run] in plumb.conf to turn it off for benchmarks only
0 warnings, 1 note
EOT

cat >expect.amd-epp <<\EOT
warning: governor: the CPU scaling governor is powersave, not performance: the clock follows the load
  fix: echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor
warning: turbo: turbo/boost is on: the clock rises above base while power and heat allow
  fix: echo 0 | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/boost
warning: smt: SMT is on: a sibling hardware thread can share the benchmark's core
  fix: echo off | sudo tee /sys/devices/system/cpu/smt/control
note: aslr: ASLR is on (randomize_va_space 2): stack, heap and library addresses move between runs
  fix: set aslr = off under [run] in plumb.conf to turn it off for benchmarks only
warning: load: the load average is 7.50, high for 12 CPUs (limit 3.00)
  fix: wait for other jobs to finish, or run when the machine is idle
warning: perf: cycle and instruction counters are not permitted (perf_event_paranoid 3)
  fix: echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid (in a container: allow perf_event_open)
warning: isolation: no CPU is isolated: the scheduler may run other tasks on the benchmark's CPU
  fix: boot with isolcpus=N nohz_full=N and set cpu = N under [run] in plumb.conf
6 warnings, 1 note
EOT

cat >expect.vm-nocpufreq <<\EOT
note: governor: the CPU scaling governor is unknown (no cpufreq in sysfs)
  fix: ask the firmware or the hypervisor for a fixed clock
note: turbo: the turbo/boost state is unknown
  fix: check the firmware setup for turbo/boost
note: aslr: ASLR is on (randomize_va_space 2): stack, heap and library addresses move between runs
  fix: set aslr = off under [run] in plumb.conf to turn it off for benchmarks only
warning: perf: cycle and instruction counters are not supported (no CPU PMU)
  fix: use metric = wall or cpu, or give the machine a (virtual) PMU
warning: virt: running virtualized (hypervisor CPU flag): other guests and the hypervisor share the hardware
  fix: benchmark on bare metal, or pin the virtual CPUs to dedicated host cores
warning: isolation: no CPU is isolated: the scheduler may run other tasks on the benchmark's CPU
  fix: boot with isolcpus=N nohz_full=N and set cpu = N under [run] in plumb.conf
3 warnings, 3 notes
EOT

for h in intel-laptop acpi-performance amd-epp vm-nocpufreq; do
	test_expect_success "$h: --check prints the table, then exactly these findings" "
		check $h >out.$h &&
		PLUMB_SYSROOT=\"\$FIXTURES/hosts/$h\" PLUMB_HOST_NO_CC=1 plumb host >table.$h &&
		sed -n '1,/^\$/p' out.$h | sed '\$d' >head.$h &&
		test_cmp table.$h head.$h &&
		findings out.$h >actual.$h &&
		test_cmp expect.$h actual.$h
	"
done

test_expect_success '--check without --strict exits 0 even with warnings' '
	check intel-laptop >/dev/null &&
	check vm-nocpufreq >/dev/null
'

test_expect_success '--check --strict exits 1 when a warning is raised' '
	test_expect_code 1 check intel-laptop --strict >out &&
	test_grep "^7 warnings, 1 note$" out &&
	test_expect_code 1 check amd-epp --strict >/dev/null &&
	test_expect_code 1 check vm-nocpufreq --strict >/dev/null
'

test_expect_success '--check --strict exits 0 when only notes are raised' '
	test_expect_code 0 check acpi-performance --strict >out &&
	test_grep "^0 warnings, 1 note$" out
'

test_expect_success PYTHON '--check --json: the facts plus the same findings' '
	check intel-laptop --json >check.json &&
	test_json check.json "j[\"check\"][\"warnings\"] == 7 and j[\"check\"][\"notes\"] == 1" &&
	test_json check.json "[(i[\"id\"], i[\"level\"]) for i in j[\"check\"][\"items\"]] == [(\"governor\", \"warning\"), (\"turbo\", \"warning\"), (\"smt\", \"warning\"), (\"aslr\", \"note\"), (\"isolation\", \"warning\"), (\"thp\", \"warning\"), (\"swap\", \"warning\"), (\"throttle\", \"warning\")]" &&
	test_json check.json "j[\"check\"][\"items\"][1][\"fix\"] == \"echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo\"" &&
	test_json check.json "j[\"check\"][\"items\"][0][\"message\"] == \"the CPU scaling governor is powersave, not performance: the clock follows the load\"" &&
	test_json check.json "j[\"cpu\"][\"logical\"] == 16 and j[\"fingerprint\"] == \"e1bf43a6c0d7fe88\"" &&
	PLUMB_SYSROOT="$FIXTURES/hosts/intel-laptop" PLUMB_HOST_NO_CC=1 plumb host --json >plain.json &&
	test_json plain.json "\"check\" not in j"
'

test_expect_success PYTHON '--check --json for each fixture lists the same ids as the text' '
	for h in intel-laptop acpi-performance amd-epp vm-nocpufreq; do
		check $h --json >$h.json &&
		python3 -c "import json,sys; print(\" \".join(\"%s:%s\" % (i[\"level\"], i[\"id\"]) for i in json.load(open(sys.argv[1]))[\"check\"][\"items\"]))" $h.json >ids.json.$h &&
		sed -n "s/^\\(warning\\|note\\): \\([a-z]*\\): .*/\\1:\\2/p" expect.$h | tr "\\n" " " | sed "s/ \$//" >ids.text.$h &&
		echo >>ids.text.$h &&
		test_cmp ids.text.$h ids.json.$h || return 1
	done
'

test_expect_success '--check --strict --json still exits 1 on warnings' '
	test_expect_code 1 check amd-epp --strict --json >out.json &&
	test_expect_code 0 check acpi-performance --strict --json >out.json
'

test_done
