#!/bin/sh
test_description='plumb host: bad PLUMB_SYSROOT, bad flags, malformed files, the compiler probe'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'PLUMB_SYSROOT naming a missing folder exits 3 and names it' '
	PLUMB_SYSROOT=/nonexistent/root test_expect_code 3 plumb host >out 2>err &&
	echo "plumb: PLUMB_SYSROOT: /nonexistent/root: no such folder" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success 'PLUMB_SYSROOT naming a file exits 3' '
	echo x >afile &&
	PLUMB_SYSROOT=afile test_expect_code 3 plumb host --json 2>err &&
	test_grep "PLUMB_SYSROOT: afile: not a folder" err
'

test_expect_success 'an empty PLUMB_SYSROOT means the live machine' '
	PLUMB_SYSROOT= PLUMB_HOST_NO_CC=1 plumb host >out &&
	test_grep "^fingerprint        [0-9a-f]\{16\}$" out
'

test_expect_success 'an unknown flag exits 2 with the usage' '
	test_expect_code 2 plumb host --frob 2>err &&
	test_grep "unknown option .--frob" err &&
	test_grep "usage: plumb host \[--json\] \[--check \[--strict\] \[--allow ID,...\] \[-c plumb.conf\]\]" err
'

test_expect_success '--strict without --check is a usage error' '
	test_expect_code 2 plumb host --strict 2>err &&
	test_grep "strict needs --check" err
'

test_expect_success 'a stray argument is a usage error' '
	test_expect_code 2 plumb host extra 2>err &&
	test_grep "unexpected argument .extra" err
'

test_expect_success 'plumb host --help lists every option' '
	plumb host --help >out &&
	test_grep "^  *--json " out &&
	test_grep "^  *--check " out &&
	test_grep "^  *--strict " out
'

cat >expect.notes <<\EOT
/proc/sys/kernel/hostname: larger than 4096 bytes
/proc/sys/kernel/osrelease: is a folder
/etc/os-release: malformed PRETTY_NAME
/sys/devices/system/cpu/isolated: malformed (expected a CPU list such as 0-3,8)
/sys/devices/system/cpu/online: malformed (expected a CPU list such as 0-3,8)
/proc/cpuinfo: malformed model name
/sys/devices/system/cpu/smt/active: malformed (expected a whole number from 0 to 1)
/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor: malformed (expected one word)
/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq: malformed (expected a whole number from 0 to 1000000000)
/sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq: malformed (expected a whole number from 0 to 1000000000)
/sys/devices/system/cpu/cpu1/cpufreq/scaling_max_freq: malformed (expected a whole number from 0 to 1000000000)
/sys/devices/system/cpu/intel_pstate/no_turbo: malformed (expected a whole number from 0 to 1)
/sys/devices/system/clocksource/clocksource0/current_clocksource: malformed (expected one word)
/proc/sys/kernel/randomize_va_space: malformed (expected a whole number from 0 to 2)
/proc/sys/kernel/perf_event_paranoid: malformed (expected a whole number from -1000 to 1000)
/sys/kernel/mm/transparent_hugepage/enabled: malformed (expected one [bracketed] choice)
/proc/loadavg: malformed (expected three load averages)
/proc/meminfo: malformed MemTotal
/sys/devices/system/cpu/cpu*/thermal_throttle: present on 1 of 2 CPUs
EOT

test_expect_success PYTHON 'malformed files: each fact is null with a note naming the file' '
	PLUMB_SYSROOT="$FIXTURES/hosts/malformed" PLUMB_HOST_NO_CC=1 plumb host --json >bad.json &&
	python3 -c "import json; print(\"\n\".join(json.load(open(\"bad.json\"))[\"notes\"]))" >actual.notes &&
	test_cmp expect.notes actual.notes &&
	test_json bad.json "j[\"hostname\"] is None and j[\"kernel\"][\"release\"] is None and j[\"os\"][\"name\"] is None" &&
	test_json bad.json "j[\"aslr\"] is None and j[\"thp\"] is None and j[\"clocksource\"] is None and j[\"perf\"][\"paranoid\"] is None" &&
	test_json bad.json "j[\"cpufreq\"][\"scaling_max_khz\"] is None and j[\"cpufreq\"][\"min_khz\"] is None and j[\"cpufreq\"][\"max_khz\"] == 4600000" &&
	test_json bad.json "j[\"cpufreq\"][\"governor\"] == \"unknown:0 powersave:1\" and j[\"cpufreq\"][\"turbo\"] is None" &&
	test_json bad.json "j[\"cpu\"][\"model\"] is None and j[\"cpu\"][\"online\"] is None and j[\"cpu\"][\"smt\"] is None" &&
	test_json bad.json "j[\"cpu\"][\"logical\"] == 2 and j[\"cpu\"][\"physical_cores\"] is None" &&
	test_json bad.json "j[\"load\"] == {\"avg1\": None, \"avg5\": None, \"avg15\": None}" &&
	test_json bad.json "j[\"memory\"] == {\"total_kb\": None, \"available_kb\": 100, \"swap_total_kb\": None, \"swap_free_kb\": None}" &&
	test_json bad.json "j[\"kernel\"][\"isolated_cpus\"] is None and j[\"kernel\"][\"isolcpus\"] == \"2-3\"" &&
	test_json bad.json "j[\"thermal\"] == {\"core_throttle_count\": None, \"package_throttle_count\": None}"
'

test_expect_success 'malformed files: the table and --check still work, the notes are listed' '
	PLUMB_SYSROOT="$FIXTURES/hosts/malformed" PLUMB_HOST_NO_CC=1 plumb host --check >out &&
	test_grep "^note               /proc/loadavg: malformed (expected three load averages)$" out &&
	test_grep "^aslr               unknown$" out &&
	test_grep "^1 warning, 1 note$" out
'

test_expect_success 'an empty tree: every fact unknown, no crash' '
	mkdir empty &&
	PLUMB_SYSROOT=empty PLUMB_HOST_NO_CC=1 plumb host --check --json >empty.json &&
	PLUMB_SYSROOT=empty PLUMB_HOST_NO_CC=1 plumb host --check >empty.txt &&
	test_grep "^cpu                unknown$" empty.txt
'

test_expect_success PYTHON 'an empty tree gives nulls, no notes, and a fingerprint of nulls' '
	test_json empty.json "j[\"notes\"] == [] and j[\"cpu\"][\"logical\"] is None and j[\"hostname\"] is None" &&
	test_json empty.json "[i[\"id\"] for i in j[\"check\"][\"items\"]] == [\"governor\", \"turbo\"]" &&
	test_json empty.json "len(j[\"fingerprint\"]) == 16"
'

test_expect_success 'truncated and binary files are notes, not crashes' '
	cp -R "$FIXTURES/hosts/vm-nocpufreq" odd &&
	chmod -R u+w odd &&
	printf "tsc\0hpet\n" >odd/sys/devices/system/clocksource/clocksource0/current_clocksource &&
	printf "processor\t: 0\nmodel name\t: caf\303" >odd/proc/cpuinfo &&
	PLUMB_SYSROOT=odd PLUMB_HOST_NO_CC=1 plumb host >out &&
	test_grep "^note .*current_clocksource: malformed (binary data)$" out &&
	test_grep "^note               /proc/cpuinfo: malformed model name$" out
'

# A stand-in compiler, to see exactly what plumb runs and keeps.
mkdir -p bin
cat >bin/fakecc <<\EOT
#!/bin/sh
echo "fakecc 1.2.3 ($*)"
echo "Copyright nobody"
EOT
cat >bin/slowcc <<\EOT
#!/bin/sh
echo $$ >"$(dirname "$0")/slowcc.pid"
exec sleep 30
EOT
chmod +x bin/fakecc bin/slowcc

test_expect_success PYTHON 'the compiler is the first line of $CC --version, arguments kept' '
	CC="$PWD/bin/fakecc -O2" PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" plumb host --json >cc.json &&
	test_json cc.json "j[\"compiler\"] == {\"command\": \"$PWD/bin/fakecc -O2\", \"version\": \"fakecc 1.2.3 (-O2 --version)\"}"
'

test_expect_success PYTHON 'without CC the compiler is cc, found on PATH' '
	PATH="$PWD/bin:$PATH" &&
	ln -s fakecc bin/cc &&
	(unset CC; PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" plumb host --json) >cc.json &&
	test_json cc.json "j[\"compiler\"] == {\"command\": \"cc\", \"version\": \"fakecc 1.2.3 (--version)\"}"
'

test_expect_success PYTHON 'a compiler that is missing or fails is null, without a note' '
	CC=/nonexistent/cc PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" plumb host --json >cc.json &&
	test_json cc.json "j[\"compiler\"] == {\"command\": \"/nonexistent/cc\", \"version\": None} and j[\"notes\"] == []" &&
	CC=false PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" plumb host --json >cc.json &&
	test_json cc.json "j[\"compiler\"][\"version\"] is None"
'

test_expect_success PYTHON 'a compiler that hangs is killed after 5 seconds, with a note' '
	CC="$PWD/bin/slowcc" PLUMB_SYSROOT="$FIXTURES/hosts/vm-nocpufreq" plumb host --json >cc.json &&
	test_json cc.json "j[\"compiler\"][\"version\"] is None" &&
	test_json cc.json "j[\"notes\"] == [\"compiler: '\''$PWD/bin/slowcc --version'\'': timed out\"]" &&
	pid=$(cat bin/slowcc.pid) &&
	! kill -0 "$pid" 2>/dev/null
'

test_done
