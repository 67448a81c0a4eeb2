#!/bin/sh
test_description='plumb host reads every fact of the fixture trees exactly'
. "$(dirname "$0")/test-lib.sh"

# host_json NAME: the facts of tests/fixtures/hosts/NAME as NAME.json.
host_json() {
	PLUMB_SYSROOT="$FIXTURES/hosts/$1" PLUMB_HOST_NO_CC=1 plumb host --json >"$1.json"
}

test_expect_success PYTHON 'intel-laptop: the reference host of seed 003' '
	host_json intel-laptop &&
	test_json intel-laptop.json "j[\"version\"] == 1 and j[\"hostname\"] == \"reference-host\" and j[\"notes\"] == []" &&
	test_json intel-laptop.json "j[\"os\"] == {\"name\": \"Fedora Linux 44 (Workstation Edition)\", \"id\": \"fedora\", \"version_id\": \"44\"}" &&
	test_json intel-laptop.json "j[\"kernel\"][\"release\"] == \"7.1.3-200.fc44.x86_64\" and j[\"kernel\"][\"isolcpus\"] == \"\" and j[\"kernel\"][\"nohz_full\"] == \"\" and j[\"kernel\"][\"isolated_cpus\"] == \"\"" &&
	test_json intel-laptop.json "j[\"kernel\"][\"cmdline\"].endswith(\"rootflags=subvol=root rhgb quiet\")" &&
	test_json intel-laptop.json "j[\"cpu\"] == {\"vendor\": \"GenuineIntel\", \"model\": \"11th Gen Intel(R) Core(TM) i7-11800H @ 2.30GHz\", \"microcode\": \"0x4e\", \"online\": \"0-15\", \"logical\": 16, \"physical_cores\": 8, \"packages\": 1, \"smt\": True, \"smt_control\": \"on\"}" &&
	test_json intel-laptop.json "j[\"cpufreq\"] == {\"driver\": \"intel_pstate\", \"governor\": \"powersave\", \"epp\": \"balance_performance\", \"pstate_status\": \"active\", \"min_khz\": 800000, \"max_khz\": 4600000, \"scaling_min_khz\": 800000, \"scaling_max_khz\": 4600000, \"cur_min_khz\": 800000, \"cur_max_khz\": 4600000, \"turbo\": True, \"turbo_source\": \"/sys/devices/system/cpu/intel_pstate/no_turbo\"}" &&
	test_json intel-laptop.json "j[\"virt\"] == {\"virtualized\": False, \"hypervisor_flag\": False, \"hypervisor_type\": None}" &&
	test_json intel-laptop.json "j[\"clocksource\"] == \"tsc\" and j[\"aslr\"] == 2 and j[\"thp\"] == \"always\"" &&
	test_json intel-laptop.json "j[\"perf\"] == {\"paranoid\": 2, \"cycles\": \"available\"}" &&
	test_json intel-laptop.json "j[\"load\"] == {\"avg1\": 0.42, \"avg5\": 0.55, \"avg15\": 0.61}" &&
	test_json intel-laptop.json "j[\"memory\"] == {\"total_kb\": 32562848, \"available_kb\": 25410236, \"swap_total_kb\": 8388604, \"swap_free_kb\": 8123388}" &&
	test_json intel-laptop.json "j[\"thermal\"] == {\"core_throttle_count\": 12, \"package_throttle_count\": 4}" &&
	test_json intel-laptop.json "j[\"compiler\"] == {\"command\": None, \"version\": None}"
'

test_expect_success PYTHON 'acpi-performance: performance everywhere, boost off, CPUs isolated' '
	host_json acpi-performance &&
	test_json acpi-performance.json "j[\"hostname\"] == \"bench-rack-07\" and j[\"notes\"] == []" &&
	test_json acpi-performance.json "j[\"os\"] == {\"name\": \"Debian GNU/Linux 12 (bookworm)\", \"id\": \"debian\", \"version_id\": \"12\"}" &&
	test_json acpi-performance.json "j[\"kernel\"][\"release\"] == \"6.1.0-27-amd64\" and j[\"kernel\"][\"isolcpus\"] == \"nohz,domain,2-3\" and j[\"kernel\"][\"nohz_full\"] == \"2-3\" and j[\"kernel\"][\"isolated_cpus\"] == \"2-3\"" &&
	test_json acpi-performance.json "j[\"cpu\"] == {\"vendor\": \"GenuineIntel\", \"model\": \"Intel(R) Xeon(R) CPU E3-1220 v5 @ 3.00GHz\", \"microcode\": \"0xf0\", \"online\": \"0-3\", \"logical\": 4, \"physical_cores\": 4, \"packages\": 1, \"smt\": False, \"smt_control\": \"notsupported\"}" &&
	test_json acpi-performance.json "j[\"cpufreq\"] == {\"driver\": \"acpi-cpufreq\", \"governor\": \"performance\", \"epp\": None, \"pstate_status\": None, \"min_khz\": 800000, \"max_khz\": 3000000, \"scaling_min_khz\": 800000, \"scaling_max_khz\": 3000000, \"cur_min_khz\": 3000000, \"cur_max_khz\": 3000000, \"turbo\": False, \"turbo_source\": \"/sys/devices/system/cpu/cpufreq/boost\"}" &&
	test_json acpi-performance.json "j[\"virt\"][\"virtualized\"] is False and j[\"clocksource\"] == \"tsc\" and j[\"aslr\"] == 2 and j[\"thp\"] == \"madvise\"" &&
	test_json acpi-performance.json "j[\"perf\"] == {\"paranoid\": 1, \"cycles\": \"available\"}" &&
	test_json acpi-performance.json "j[\"load\"] == {\"avg1\": 0.01, \"avg5\": 0.03, \"avg15\": 0.0}" &&
	test_json acpi-performance.json "j[\"memory\"] == {\"total_kb\": 16318480, \"available_kb\": 15630112, \"swap_total_kb\": 0, \"swap_free_kb\": 0}" &&
	test_json acpi-performance.json "j[\"thermal\"] == {\"core_throttle_count\": 0, \"package_throttle_count\": 0}"
'

test_expect_success PYTHON 'amd-epp: amd-pstate-epp, per-CPU boost on, SMT on' '
	host_json amd-epp &&
	test_json amd-epp.json "j[\"hostname\"] == \"ryzen-box\" and j[\"notes\"] == []" &&
	test_json amd-epp.json "j[\"os\"][\"name\"] == \"Debian GNU/Linux 13 (trixie)\" and j[\"kernel\"][\"release\"] == \"6.12.12-amd64\" and j[\"kernel\"][\"isolated_cpus\"] == \"\"" &&
	test_json amd-epp.json "j[\"cpu\"] == {\"vendor\": \"AuthenticAMD\", \"model\": \"AMD Ryzen 5 7600 6-Core Processor\", \"microcode\": \"0xa601206\", \"online\": \"0-11\", \"logical\": 12, \"physical_cores\": 6, \"packages\": 1, \"smt\": True, \"smt_control\": \"on\"}" &&
	test_json amd-epp.json "j[\"cpufreq\"] == {\"driver\": \"amd-pstate-epp\", \"governor\": \"powersave\", \"epp\": \"balance_performance\", \"pstate_status\": \"active\", \"min_khz\": 400000, \"max_khz\": 5172000, \"scaling_min_khz\": 400000, \"scaling_max_khz\": 5172000, \"cur_min_khz\": 400000, \"cur_max_khz\": 5172000, \"turbo\": True, \"turbo_source\": \"/sys/devices/system/cpu/cpu*/cpufreq/boost\"}" &&
	test_json amd-epp.json "j[\"perf\"] == {\"paranoid\": 3, \"cycles\": \"not permitted\"}" &&
	test_json amd-epp.json "j[\"load\"] == {\"avg1\": 7.5, \"avg5\": 6.2, \"avg15\": 5.8}" &&
	test_json amd-epp.json "j[\"memory\"][\"swap_total_kb\"] == 1048572 and j[\"memory\"][\"swap_free_kb\"] == 1048572" &&
	test_json amd-epp.json "j[\"thermal\"] == {\"core_throttle_count\": None, \"package_throttle_count\": None}"
'

test_expect_success PYTHON 'vm-nocpufreq: every frequency fact unknown, virtualization from the CPU flag' '
	host_json vm-nocpufreq &&
	test_json vm-nocpufreq.json "j[\"hostname\"] == \"ci-runner-3\" and j[\"notes\"] == []" &&
	test_json vm-nocpufreq.json "j[\"os\"] == {\"name\": \"Ubuntu 22.04.5 LTS\", \"id\": \"ubuntu\", \"version_id\": \"22.04\"}" &&
	test_json vm-nocpufreq.json "j[\"cpufreq\"] == dict((k, None) for k in [\"driver\", \"governor\", \"epp\", \"pstate_status\", \"min_khz\", \"max_khz\", \"scaling_min_khz\", \"scaling_max_khz\", \"cur_min_khz\", \"cur_max_khz\", \"turbo\", \"turbo_source\"])" &&
	test_json vm-nocpufreq.json "j[\"virt\"] == {\"virtualized\": True, \"hypervisor_flag\": True, \"hypervisor_type\": None}" &&
	test_json vm-nocpufreq.json "j[\"cpu\"] == {\"vendor\": \"GenuineIntel\", \"model\": \"Intel Xeon Processor (Icelake)\", \"microcode\": \"0x1\", \"online\": \"0-1\", \"logical\": 2, \"physical_cores\": 2, \"packages\": 1, \"smt\": False, \"smt_control\": None}" &&
	test_json vm-nocpufreq.json "j[\"clocksource\"] == \"kvm-clock\" and j[\"perf\"] == {\"paranoid\": 4, \"cycles\": \"not supported\"}" &&
	test_json vm-nocpufreq.json "j[\"thermal\"] == {\"core_throttle_count\": None, \"package_throttle_count\": None}"
'

test_expect_success PYTHON 'the fingerprints are stable and tell the four hosts apart' '
	for h in intel-laptop acpi-performance amd-epp vm-nocpufreq; do
		python3 -c "import json,sys; print(sys.argv[1], json.load(open(sys.argv[1] + \".json\"))[\"fingerprint\"])" $h || return 1
	done >actual &&
	cat >expect <<-\EOT &&
	intel-laptop e1bf43a6c0d7fe88
	acpi-performance 6bb824a37d1819b5
	amd-epp 4aa65b8f97009f39
	vm-nocpufreq c90e50b43eb98b6a
	EOT
	test_cmp expect actual
'

test_expect_success PYTHON 'the fingerprint is the documented SHA-256 of the documented facts' '
	python3 -c "
import hashlib, json, sys
j = json.load(open(\"intel-laptop.json\"))
def v(x):
    return \"null\" if x is None else (\"true\" if x is True else \"false\" if x is False else str(x))
text = \"plumb-host-fingerprint 1\n\" + \"\".join(\"%s=%s\n\" % (k, v(j[k.split(\".\")[0]][k.split(\".\")[1]])) for k in
    [\"cpu.model\", \"cpu.logical\", \"cpu.physical_cores\", \"cpu.smt\", \"kernel.release\", \"cpufreq.governor\", \"cpufreq.turbo\"])
sys.exit(hashlib.sha256(text.encode()).hexdigest()[:16] != j[\"fingerprint\"])
"
'

test_expect_success 'the table: aligned rows, unknown for unknown, the same fingerprint' '
	PLUMB_SYSROOT="$FIXTURES/hosts/intel-laptop" PLUMB_HOST_NO_CC=1 plumb host >actual &&
	cat >expect <<-\EOT &&
	fingerprint        e1bf43a6c0d7fe88
	hostname           reference-host
	os                 Fedora Linux 44 (Workstation Edition)
	kernel             7.1.3-200.fc44.x86_64
	cpu                11th Gen Intel(R) Core(TM) i7-11800H @ 2.30GHz
	cpus               16 logical, 8 physical cores, 1 package (online: 0-15)
	smt                on (control: on)
	microcode          0x4e
	cpufreq driver     intel_pstate (status: active)
	governor           powersave
	energy pref        balance_performance
	hardware limits    800 MHz - 4.60 GHz
	policy limits      800 MHz - 4.60 GHz
	current freq       800 MHz - 4.60 GHz
	turbo/boost        on (/sys/devices/system/cpu/intel_pstate/no_turbo)
	isolated cpus      none (isolcpus: not set, nohz_full: not set)
	virtualized        no
	clock source       tsc
	aslr               2 (full)
	perf counters      available (perf_event_paranoid: 2)
	huge pages         always
	load average       0.42 0.55 0.61
	memory             31.1 GiB total, 24.2 GiB available
	swap               8.0 GiB total, 259 MiB used
	thermal throttle   12 core, 4 package events since boot
	compiler           unknown
	EOT
	test_cmp expect actual
'

test_expect_success 'the table of a VM says unknown, not a guess' '
	PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" PLUMB_HOST_NO_CC=1 plumb host >actual &&
	test_grep "^governor           unknown$" actual &&
	test_grep "^hardware limits    unknown$" actual &&
	test_grep "^turbo/boost        unknown$" actual &&
	test_grep "^virtualized        yes (hypervisor CPU flag)$" actual &&
	test_grep "^thermal throttle   unknown$" actual &&
	test_grep "^fingerprint        c90e50b43eb98b6a$" actual
'

test_expect_success 'a trailing slash on PLUMB_SYSROOT changes nothing' '
	PLUMB_SYSROOT="$FIXTURES/hosts/amd-epp/" PLUMB_HOST_NO_CC=1 plumb host --json >slash.json &&
	PLUMB_SYSROOT="$FIXTURES/hosts/amd-epp" PLUMB_HOST_NO_CC=1 plumb host --json >plain.json &&
	test_cmp plain.json slash.json
'

test_expect_success PYTHON 'a mixed governor is listed per CPU, and is not performance' '
	cp -R "$FIXTURES/hosts/acpi-performance" mixed &&
	chmod -R u+w mixed &&
	echo powersave >mixed/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor &&
	echo powersave >mixed/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor &&
	PLUMB_SYSROOT=mixed PLUMB_HOST_NO_CC=1 plumb host --check --json >mixed.json &&
	test_json mixed.json "j[\"cpufreq\"][\"governor\"] == \"performance:0,2 powersave:1,3\"" &&
	test_json mixed.json "[i[\"id\"] for i in j[\"check\"][\"items\"] if i[\"level\"] == \"warning\"] == [\"governor\"]" &&
	test_json mixed.json "j[\"fingerprint\"] != \"6bb824a37d1819b5\""
'

test_expect_success PYTHON 'a CPU taken offline drops out of the per-CPU facts' '
	cp -R "$FIXTURES/hosts/acpi-performance" offline &&
	chmod -R u+w offline &&
	echo 0-2 >offline/sys/devices/system/cpu/online &&
	echo 1234 >offline/sys/devices/system/cpu/cpu3/cpufreq/scaling_cur_freq &&
	PLUMB_SYSROOT=offline PLUMB_HOST_NO_CC=1 plumb host --json >offline.json &&
	test_json offline.json "j[\"cpu\"][\"logical\"] == 3 and j[\"cpu\"][\"online\"] == \"0-2\" and j[\"cpufreq\"][\"cur_min_khz\"] == 3000000"
'

test_done
