#!/bin/sh
test_description='plumb audit --remeasure: the recorded configuration of a bundle signed by a trusted key runs again; reproduced (0), not reproduced with a slower toolchain (1), not verifiable or moved refs (3)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# CPU time (less moved by the machine's load than wall time), 5 rounds: the
# margin rule's range of each side is then every round of every pad.  The
# test names that rule (the default, shift v4, judges 2 pads a side unswept,
# in the direction of a draw).
test_expect_success 'a bundle of a small run' '
	make_project proj &&
	git clone -q --bare proj remote.git &&
	git -C proj remote add origin "$TRASH/remote.git" &&
	run_conf proj/plumb.conf run.rounds=5 bench.b.metric=cpu verdict.rule=margin &&
	run_plumb -c proj/plumb.conf -o one.plumb >/dev/null 2>&1 &&
	plumb bundle keygen -o k >/dev/null &&
	plumb bundle sign one.plumb -k k.key >/dev/null &&
	mkdir -p "$HOME/.config/plumb/trusted" &&
	cp k.pub "$HOME/.config/plumb/trusted/" &&
	plumb audit one.plumb >/dev/null
'

# Reproduced is judged on a metric that does not move with the machine's
# load: Valgrind's instruction count (a time measured again on a shared
# machine lands outside its recorded range whenever the load changed in
# between).  The re-measurement builds in another folder, so the process
# executes a few instructions more or fewer (its paths' lengths): a count
# is the same within 0.01%.
if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq VALGRIND
fi

test_expect_success VALGRIND 'measured again on the same host from the same repository: reproduced, exit 0' '
	run_conf proj/counts.conf run.rounds=2 bench.b.metric=vg-instructions verdict.rule=margin &&
	run_plumb -c proj/counts.conf -o counts.plumb >/dev/null 2>&1 &&
	plumb bundle sign counts.plumb -k k.key >/dev/null &&
	plumb audit counts.plumb --remeasure --bundle again.plumb >out 2>err &&
	plumb bundle verify again.plumb >/dev/null &&
	test_grep "^Re-measurement on this host: reproduced (1 of 1 benchmarks reproduced)$" out &&
	test_grep "^  host  *the facts that decide comparability are the recorded ones$" out &&
	test_grep "^  commits  *the refs name the recorded commits$" out &&
	test_grep "^  bench b  *base .* within .*, candidate .* within .*, verdict placement -> placement: reproduced$" out &&
	test_grep "^  new bundle  *again.plumb, id [0-9a-f]\{64\}$" out
'

test_expect_success PYTHON 'the JSON says so too' '
	{ plumb audit one.plumb --remeasure --bundle again2.plumb --format json >a.json 2>/dev/null ||
	  test $? = 1; } &&
	test_json a.json "(j[\"parts\"][4][\"part\"] == \"remeasure\" and
		j[\"parts\"][4][\"reproduced\"] == (j[\"parts\"][4][\"state\"] == \"reproduced\") and
		j[\"parts\"][4][\"state\"] in (\"reproduced\", \"not reproduced\"))"
'

# The toolchain of this host differs: CC names a wrapper that compiles
# work.c with its loop run 300 times as long (the recorded commits, the
# recorded commands, another compiler).
test_expect_success 'a slower toolchain on this host: not reproduced, exit 1' '
	cat >slowcc <<-\EOF &&
	#!/bin/sh
	for a do
		shift
		if test "$a" = work.c; then
			sed -e "s/i < n;/i < n * 300;/" work.c >slow-work.c && a=slow-work.c
		fi
		set -- "$@" "$a"
	done
	exec cc "$@"
	EOF
	chmod +x slowcc &&
	CC="$TRASH/slowcc" test_expect_code 1 plumb audit one.plumb --remeasure --bundle slow.plumb >out 2>err &&
	test_grep "^Re-measurement on this host: not reproduced (0 of 1 benchmarks reproduced)$" out &&
	test_grep "^  commits  *the refs name the recorded commits$" out &&
	test_grep "^  bench b  *base .*, candidate .* outside .*: not reproduced$" out
'

test_expect_success 'a slowdown committed under the same ref name in a copy: refused, naming both commits, exit 3' '
	cp -R proj slow &&
	(
		cd slow &&
		sed -e "s/i < n;/i < n * 300;/" work.c >work.c.new && mv work.c.new work.c &&
		git commit -q -a -m "candidate: plant a slowdown under the same ref"
	) &&
	recorded=$(git -C proj rev-parse main) &&
	moved=$(git -C slow rev-parse main) &&
	test_expect_code 3 plumb audit one.plumb --remeasure --repo slow --bundle moved.plumb >out 2>err &&
	test_grep "run.candidate: .main. is commit $moved in .*slow, but one.plumb recorded $recorded: refused" err &&
	! test -e moved.plumb
'

test_expect_success 'the recorded folder gone: the commits come out of the recorded remote URL' '
	mv proj proj.away &&
	plumb run --from one.plumb --dry-run >conf &&
	test_grep "^	url = $TRASH/remote.git$" conf &&
	{ plumb audit one.plumb --remeasure --bundle remote.plumb >out 2>err || test $? = 1; } &&
	mv proj.away proj &&
	test_grep "^  commits  *the refs name the recorded commits$" out &&
	test_grep "^Re-measurement on this host: \(reproduced\|not reproduced\)" out
'

test_expect_success 'a bundle that does not verify is not measured again: exit 3' '
	cp one.plumb bad.plumb && printf x >>bad.plumb &&
	test_expect_code 3 plumb audit bad.plumb --remeasure --bundle never.plumb >out 2>err &&
	! test -e never.plumb &&
	test_grep "^Integrity: FAIL" out
'

test_expect_success 'a repository without the recorded refs: exit 3, nothing written' '
	mkdir empty && git -C empty init -q &&
	test_expect_code 3 plumb audit one.plumb --remeasure --repo empty --bundle none.plumb >out 2>err &&
	! test -e none.plumb &&
	test_expect_code 2 plumb audit one.plumb --repo proj 2>err &&
	test_grep "go with --remeasure" err
'

test_done
