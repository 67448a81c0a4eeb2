#!/bin/sh
test_description='plumb demo: a repository with two commits, the adaptive sweep, a bundle'
. "$(dirname "$0")/test-lib.sh"

PLUMB_EXAMPLES="$TEST_SRCDIR/examples"
export PLUMB_EXAMPLES

test_expect_success 'an existing folder that is not empty is never touched' '
	mkdir full && echo keep >full/file &&
	test_expect_code 2 plumb demo full 2>err &&
	test_grep "full: exists and is not empty; plumb demo never overwrites anything" err &&
	ls full >list && echo file >expect && test_cmp expect list &&
	echo x >afile &&
	test_expect_code 2 plumb demo afile 2>err &&
	test_grep "afile: exists and is not a folder" err
'

test_expect_success 'without the example sources it says where it looked' '
	mkdir nowhere && (
		cd nowhere &&
		PLUMB_EXAMPLES=/nonexistent test_expect_code 3 plumb demo 2>../err &&
		test_grep "PLUMB_EXAMPLES: /nonexistent: no interp/interp.c there" ../err &&
		ls >../list && test_cmp /dev/null ../list
	)
'

test_expect_success 'the demo: two commits, only main() changes, the sweep, a bundle' '
	plumb demo d >out 2>err &&
	test "$(git -C d rev-list --count HEAD)" = 2 &&
	git -C d diff --stat HEAD~1 HEAD >stat &&
	test_grep "interp.c" stat && test_grep " 1 file changed" stat &&
	git -C d diff HEAD~1 HEAD >diff &&
	test_grep "^+static int usage(const char \*bad)" diff &&
	test_grep_not "^[-+].*reg\[i->a\]" diff &&
	git -C d status --porcelain >status &&
	echo "?? demo.plumb" >expect && test_cmp expect status &&
	test_grep "^interp  *wall  " out &&
	test_grep "^interp: hot code " out &&
	test_grep "^bundle: .*/d/demo.plumb$" out &&
	test_grep "the whole sweep ([0-9]* pads x 2 sides + control, [0-9]* rounds) took [0-9.]* s" err &&
	plumb bundle verify d/demo.plumb >/dev/null
'

test_expect_success PYTHON 'its bundle holds the adaptive sweep of both sides, from 6 pads, spread' '
	plumb bundle extract d/demo.plumb m >/dev/null &&
	test_json m/manifest.json "(
j[\"run\"][\"sweep\"][\"startPads\"] == 6 and j[\"run\"][\"sweep\"][\"maxPads\"] == 16 and
6 <= j[\"run\"][\"sweep\"][\"pads\"] <= 16 and
len(j[\"build\"][\"variants\"]) == 2 * j[\"run\"][\"sweep\"][\"pads\"] + 1 and
len(j[\"benches\"][0][\"sides\"][\"base\"][\"pads\"]) == j[\"run\"][\"sweep\"][\"pads\"] and
len(j[\"benches\"][0][\"sides\"][\"candidate\"][\"pads\"]) == j[\"run\"][\"sweep\"][\"pads\"] and
j[\"build\"][\"padOffsets\"] == \"spread\" and
j[\"benches\"][0][\"checksum\"][\"base\"] == j[\"benches\"][0][\"checksum\"][\"candidate\"]
)" &&
	test_json m/manifest.json "j[\"benches\"][0][\"verdict\"] != \"unswept\""
'

test_expect_success PYTHON 'the demo control is byte-identical to base pad 0: reproducible' '
	test_json m/manifest.json "(
[v[\"artifact\"][\"sha256\"] for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"control\"] ==
[v[\"artifact\"][\"sha256\"] for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"base\" and v[\"pad\"] == 0]
)" &&
	(cd d && plumb run --build-only --workdir "$TRASH/wd" >../build.out 2>/dev/null) &&
	test_grep "^reproducible: yes" build.out
'

# A fast stand-in for the example, to see the default folder made.
test_expect_success 'without DIR it makes a new ./plumb-demo-XXXXXX' '
	mkdir -p fake/interp &&
	sed -n "/^int main(/,\$p" "$TEST_SRCDIR/examples/interp/interp.c" |
		sed -e "s/run(program, reg)/run(reg)/" >main.part &&
	{
		printf "%s\n" "#include <stdint.h>" "#include <stdio.h>" "#include <stdlib.h>" \
			"#define NREGS 8" \
			"__attribute__((noinline)) uint64_t run(uint64_t *reg) { return reg[1] * 3; }" "" &&
		cat main.part
	} >fake/interp/interp.c &&
	cp "$TEST_SRCDIR/examples/interp/Makefile" "$TEST_SRCDIR/examples/interp/README.md" fake/interp/ &&
	mkdir here && (
		cd here &&
		PLUMB_EXAMPLES="$TRASH/fake" plumb demo >out 2>err &&
		ls >list &&
		test_grep "^plumb-demo-......$" list &&
		test -f plumb-demo-*/demo.plumb
	)
'

test_done
