#!/bin/sh
test_description='plumb run: every pad must move the code by exactly its offset (spread, or K x padBytes)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

test_expect_success 'set up a project' '
	make_project proj
'

test_expect_success 'make with LDFLAGS from the environment moves the code' '
	write_conf proj/plumb.conf run.pads=3 &&
	run_build -c proj/plumb.conf >out &&
	test_grep "^shift check: ok" out
'

test_expect_success PYTHON 'build.padOffsets = spread, the default: distinct seeded offsets within 4 KiB, each checked exactly' '
	write_conf proj/spread.conf run.pads=4 &&
	run_build -c proj/spread.conf --json >s1.json &&
	run_build -c proj/spread.conf --json >s2.json &&
	git config -f proj/spread.conf run.seed 7 &&
	run_build -c proj/spread.conf --json >s7.json &&
	run_build -c proj/spread.conf >out &&
	test_grep "^shift check: ok: every pad moved run by exactly its offset (spread: distinct multiples of 16 bytes within 4096)" out &&
	python3 -c "
import json, sys
def offs(f):
    j = json.load(open(f))
    return {(v[\"side\"], v[\"pad\"]): v[\"pad_bytes\"] for v in j[\"variants\"]}
a, b, c = offs(\"s1.json\"), offs(\"s2.json\"), offs(\"s7.json\")
base = [a[(\"base\", k)] for k in range(4)]
assert base[0] == 0, base
assert len(set(base)) == 4 and all(o % 16 == 0 and 0 < o < 4096 for o in base[1:]), base
assert base != [0, 16, 32, 48], base
assert [a[(\"candidate\", k)] for k in range(4)] == base
assert a == b, (a, b)
assert [c[(\"base\", k)] for k in range(4)] != base
" &&
	write_conf proj/lin.conf run.pads=4 build.padOffsets=linear &&
	run_build -c proj/lin.conf --json >l.json &&
	test_json l.json "[v[\"pad_bytes\"] for v in j[\"variants\"] if v[\"side\"] == \"base\" and not v[\"control\"]] == [0, 16, 32, 48]"
'

test_expect_success 'a run reuses the pad objects an earlier run made for the same pads, else assembles them again' '
	write_conf proj/again.conf run.pads=3 build.padOffsets=linear &&
	run_build -c proj/again.conf >/dev/null &&
	test_grep "^bytes 32$" "$TRASH/wd/pad/02/made" &&
	# Dated in 2001: a run that assembled it again would date it now.
	touch -d @1000000000 "$TRASH/wd/pad/02/plumb_pad.o" &&
	run_build -c proj/again.conf >out &&
	test_grep "^shift check: ok" out &&
	test "$(stat -c %Y "$TRASH/wd/pad/02/plumb_pad.o")" = 1000000000 &&
	# Other bytes per pad: made again, and the shift proves the new ones.
	git config -f proj/again.conf build.padBytes 64 &&
	run_build -c proj/again.conf >out &&
	test_grep "^shift check: ok" out &&
	test_grep "^bytes 128$" "$TRASH/wd/pad/02/made" &&
	test "$(stat -c %Y "$TRASH/wd/pad/02/plumb_pad.o")" != 1000000000 &&
	# An object whose bytes changed since it was made is not reused.
	printf x >>"$TRASH/wd/pad/02/plumb_pad.o" &&
	touch -d @1000000000 "$TRASH/wd/pad/02/plumb_pad.o" &&
	run_build -c proj/again.conf >out &&
	test_grep "^shift check: ok" out &&
	test "$(stat -c %Y "$TRASH/wd/pad/02/plumb_pad.o")" != 1000000000 &&
	sha=$(sha256sum <"$TRASH/wd/pad/02/plumb_pad.o" | cut -d" " -f1) &&
	test_grep "^sha256 $sha$" "$TRASH/wd/pad/02/made"
'

test_expect_success 'without hot symbols, main is checked' '
	write_conf proj/main.conf run.pads=2 build.padOffsets=linear &&
	git config -f proj/main.conf --unset bench.b.hot &&
	run_build -c proj/main.conf >out &&
	test_grep "^shift check: ok: every pad K moved main by exactly K x 16 bytes" out &&
	test_grep "^hot code: not compared" out
'

test_expect_success 'a Makefile that sets LDFLAGS itself: exit 4 and what to do' '
	(
		cd proj &&
		sed -e "1a\\
LDFLAGS = -Wl,-O1" Makefile >Makefile.new && mv Makefile.new Makefile &&
		git commit -q -a -m "LDFLAGS set in the Makefile"
	) &&
	write_conf proj/plumb.conf run.base=main &&
	test_expect_code 4 run_build -c proj/plumb.conf 2>err &&
	test_grep "pad 1 did not move the code: the build ignored LDFLAGS; put {pad_ldflags} in build.command" err
'

test_expect_success 'a build that ignores the pad fails after two builds, base pads 0 and 1' '
	write_conf proj/fast.conf run.pads=4 run.base=main run.candidate=v1 &&
	test_expect_code 4 run_build -c proj/fast.conf --keep 2>err &&
	test_grep "pad 1 did not move the code" err &&
	run=$(ls -d "$TRASH"/wd/run-*) &&
	ls "$run/log" >logs &&
	printf "%s\n" b00.log b01.log >expect &&
	test_cmp expect logs &&
	test_grep_not "c00" err &&
	rm -rf wd
'

test_expect_success '{pad_ldflags} on the make command line fixes it' '
	write_conf proj/fixed.conf run.base=main run.pads=3 \
		"build.command=make LDFLAGS=\"{pad_ldflags} -Wl,-O1\"" &&
	run_build -c proj/fixed.conf >out &&
	test_grep "^shift check: ok" out &&
	write_conf proj/fixed2.conf run.base=main "build.command=make LDFLAGS={pad_ldflags}" &&
	run_build -c proj/fixed2.conf >out &&
	test_grep "^shift check: ok" out
'

test_expect_success 'a pad smaller than the code alignment is refused with the reason' '
	write_conf proj/small.conf run.base=main build.padBytes=4 build.padOffsets=linear \
		"build.command=make LDFLAGS={pad_ldflags}" &&
	test_expect_code 4 run_build -c proj/small.conf 2>err &&
	test_grep "pad 1 moved run by [0-9]* bytes, not 4" err &&
	test_grep "make build.padBytes a multiple of that alignment" err
'

test_expect_success 'a pad of 64 bytes moves the code by 64 bytes per step' '
	write_conf proj/big.conf run.base=main build.padBytes=64 run.pads=3 build.padOffsets=linear \
		"build.command=make LDFLAGS={pad_ldflags}" &&
	run_build -c proj/big.conf >out &&
	test_grep "moved run by exactly K x 64 bytes" out
'

test_expect_success 'the pad object is retained by --gc-sections' '
	write_conf proj/gc.conf run.base=main \
		"build.command=make LDFLAGS=\"{pad_ldflags} -Wl,--gc-sections\"" &&
	run_build -c proj/gc.conf >out &&
	test_grep "^shift check: ok" out
'

test_expect_success 'pad = env: a build that applies PLUMB_PAD itself' '
	(
		cd proj &&
		cat >pad.sh <<-\EOF &&
		#!/bin/sh
		# The project applies the pad its own way: an assembler file of
		# PLUMB_PAD x 32 bytes, placed like plumb would.
		printf "\t.section .text.unlikely.own_pad,\"ax\",@progbits\n\t.skip %d\n" \
			$((PLUMB_PAD * 32)) >own_pad.s &&
		cc -c own_pad.s -o own_pad.o
		EOF
		chmod +x pad.sh &&
		git add pad.sh && git commit -q -m "own pad"
	) &&
	write_conf proj/env.conf run.base=main build.pad=env run.pads=3 \
		"build.command=./pad.sh && make LDFLAGS=own_pad.o" &&
	run_build -c proj/env.conf --keep >out &&
	test_grep "^shift check: moved: every pad moved the code" out &&
	run=$(ls -d "$TRASH"/wd/run-*) &&
	test_grep "PLUMB_PAD" proj/pad.sh &&
	rm -rf wd
'

test_expect_success 'pad = env: a build that ignores PLUMB_PAD is refused' '
	write_conf proj/envbad.conf run.base=main build.pad=env &&
	test_expect_code 4 run_build -c proj/envbad.conf 2>err &&
	test_grep "pad 1 did not move the code: the build ignored PLUMB_PAD" err
'

test_expect_success 'pad = env exports the variables and no LDFLAGS' '
	write_conf proj/vars.conf run.base=main build.pad=env run.pads=2 run.control=false build.padOffsets=linear \
		"build.command=env | grep ^PLUMB_PAD >vars.txt; echo LDFLAGS=\${LDFLAGS-unset} >>vars.txt; ./pad.sh && make LDFLAGS=own_pad.o" &&
	run_build -c proj/vars.conf --keep >out &&
	run=$(ls -d "$TRASH"/wd/run-*) &&
	test_grep "^PLUMB_PAD=1$" "$run/v/b01/vars.txt" &&
	test_grep "^PLUMB_PAD_BYTES=16$" "$run/v/b01/vars.txt" &&
	test_grep "^PLUMB_PAD_OBJECT=$TRASH/wd/pad/01/plumb_pad.o$" "$run/v/b01/vars.txt" &&
	test_grep "^LDFLAGS=unset$" "$run/v/b01/vars.txt" &&
	rm -rf wd
'

test_expect_success 'pad = link exports LDFLAGS with the pad object first' '
	write_conf proj/link.conf run.base=main run.pads=2 run.control=false \
		"build.command=echo LDFLAGS=\$LDFLAGS >vars.txt; make LDFLAGS={pad_ldflags}" &&
	LDFLAGS=-Wl,-O1 run_build -c proj/link.conf --keep >out &&
	run=$(ls -d "$TRASH"/wd/run-*) &&
	test_grep "^LDFLAGS=$TRASH/wd/pad/01/plumb_pad.o -Wl,-O1$" "$run/v/b01/vars.txt" &&
	test_grep "plumb_pad.o -Wl,-O1 -o bench" "$run/log/b01.log" &&
	rm -rf wd
'

test_expect_success 'pad = none: plain rebuilds, no shift check' '
	write_conf proj/nopad.conf run.base=main build.pad=none &&
	run_build -c proj/nopad.conf >out &&
	test_grep "^shift check: not checked: build.pad = none" out
'

test_done
