#!/bin/sh
test_description='plumb run: after the shift proof the sides build side by side (build.jobs), each build in its own container, never while anything is measured; a failing build stops the others'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

LEFTOVER=33
. "$TEST_SRCDIR/tests/integration/lib-contain.sh"

# build.sh: make, between two stamps "start|end SIDE PAD NS" (SIDE: b or
# c, from the build folder's name, the tree id of v1 or main).  With SLOW=1 each build takes 0.5 s more;
# LEAVE=b leaves a daemon behind from base pad 2's build; HANG=b makes base
# pad 2's build never end (and leave a daemon); FAIL=c fails the
# candidate's pad 0 after a second.
test_expect_success 'set up a project and a build that stamps its start and end' '
	make_project proj &&
	base_tree=$(git -C proj rev-parse "v1^{tree}") &&
	cand_tree=$(git -C proj rev-parse "main^{tree}") &&
	cat >build.sh <<-EOF &&
	case "\$(basename "\$PWD")" in
	$base_tree) side=b ;;
	$cand_tree) side=c ;;
	*) side="\$(basename "\$PWD")" ;;
	esac
	echo "start \$side \$PLUMB_PAD \$(date +%s%N)" >>"$TRASH/stamps"
	if test "\${HANG:-}" = "\$side" && test "\$PLUMB_PAD" = 2; then
		setsid sleep 3301.$MARK >/dev/null 2>&1 &
		exec sleep 3302.$MARK
	fi
	if test "\${LEAVE:-}" = "\$side" && test "\$PLUMB_PAD" = 2; then
		setsid sleep 3303.$MARK >/dev/null 2>&1 &
	fi
	if test "\${FAIL:-}" = "\$side" && test "\$PLUMB_PAD" = 0; then
		sleep 1
		echo "broken on purpose" >&2
		exit 2
	fi
	test -z "\${SLOW:-}" || sleep 0.5
	make || exit
	echo "end \$side \$PLUMB_PAD \$(date +%s%N)" >>"$TRASH/stamps"
	EOF
	cat >bench.sh <<-EOF &&
	date +%s%N >>"$TRASH/bench-stamps"
	exec "\$1"
	EOF
	run_conf proj/par.conf run.pads=3 "build.command=sh $TRASH/build.sh" \
		"bench.b.command=sh $TRASH/bench.sh {artifact}" bench.b.checksum=off
'

# overlap: 0 when some base build and some candidate build ran at once.
overlap() {
	awk "
		\$1 == \"start\" { s[\$2 \$3 n[\$2 \$3]++] = \$4; k[\$2 \$3 n[\$2 \$3] - 1] = \$2 }
		\$1 == \"end\" { e[\$2 \$3 m[\$2 \$3]++] = \$4 }
		END {
			for (a in s) for (b in s)
				if (k[a] == \"b\" && k[b] == \"c\" && (a in e) && (b in e) &&
				    s[a] < e[b] && s[b] < e[a]) found = 1
			exit !found
		}" stamps
}

test_expect_success 'build.jobs = 2: the candidate builds beside the base, after the proof; nothing is measured meanwhile' '
	rm -f stamps bench-stamps &&
	git config -f proj/par.conf build.jobs 2 &&
	SLOW=1 run_plumb -c proj/par.conf --no-cache -o par.plumb >out 2>err &&
	test_grep "building 5 variants, up to 2 at a time (build.jobs)" err &&
	overlap &&
	# b00 and b01 (the shift proof) came first, alone.
	head -n 4 stamps | cut -d" " -f1-3 >first &&
	printf "start b 0\nend b 0\nstart b 1\nend b 1\n" >expect &&
	test_cmp expect first &&
	test "$(grep -c "^end" stamps)" = 7 &&
	last_build=$(awk "\$1 == \"end\" { print \$4 }" stamps | sort -n | tail -n 1) &&
	first_run=$(sort -n bench-stamps | head -n 1) &&
	test "$(wc -l <bench-stamps)" -gt 10 &&
	test "$first_run" -gt "$last_build"
'

test_expect_success '--jobs 1: one build after another, as before' '
	rm -f stamps &&
	run_build -c proj/par.conf --no-cache --jobs 1 >out 2>err &&
	test_grep_not "at a time" err &&
	! overlap &&
	test "$(grep -c "^end" stamps)" = 7
'

test_expect_success 'a bad --jobs or build.jobs is refused, naming it' '
	test_expect_code 3 run_build -c proj/par.conf --jobs 0 2>err &&
	test_grep "\-\-jobs" err &&
	git config -f proj/par.conf build.jobs many &&
	test_expect_code 3 run_build -c proj/par.conf 2>err &&
	test_grep "build.jobs" err &&
	git config -f proj/par.conf build.jobs auto &&
	plumb run -c proj/par.conf --dry-run >dry &&
	test_grep "jobs = auto" dry
'

# The leftover of one build is killed when that build ends, while the
# other side's build goes on: each build has a container of its own.
# The control, built in base pad 0's folder beside a candidate build, is
# still byte-identical to base pad 0.
for how in default subreaper; do
	test_expect_success "a build that leaves a daemon: killed at its end, the sibling build unharmed, the control reproducible ($how)" '
		rm -f stamps &&
		if test '"$how"' = subreaper; then PLUMB_CONTAIN=subreaper; export PLUMB_CONTAIN; fi &&
		LEAVE=b SLOW=1 run_build -c proj/par.conf --no-cache --jobs 2 >out 2>err &&
		unset PLUMB_CONTAIN &&
		leftovers &&
		test_grep "b02: the build left 1 process running; killed" err &&
		test_grep "c00: built in" err &&
		test_grep "^reproducible: yes" out &&
		overlap &&
		test "$(grep -c "^end" stamps)" = 7
	'
done

test_expect_success 'a failing build stops the one beside it: killed, reaped, nothing left, nothing started after' '
	rm -f stamps &&
	t0=$(date +%s) &&
	HANG=b FAIL=c test_expect_code 4 run_build -c proj/par.conf --no-cache --jobs 2 --keep >out 2>err &&
	t1=$(date +%s) &&
	test $((t1 - t0)) -lt 30 &&
	leftovers &&
	test_grep "candidate pad 0 (c00): the build failed: exit status 2" err &&
	test_grep "broken on purpose" err &&
	grep "^start b 2" stamps &&
	test_grep_not "^end b 2" stamps &&
	test_grep_not "^start c 1" stamps &&
	test "$(grep -c "^start b 0" stamps)" = 1 &&
	rm -rf wd
'

# Every plumb.PID.START cgroup there belongs to a live plumb (other runs on
# this machine may have theirs): the workers removed their own.
test_expect_success CGROUP2 'the builds'"'"' cgroups are gone afterwards' '
	for d in "$cg_mount$cg_own"/plumb.*; do
		test -d "$d" || continue
		p=${d##*/plumb.} &&
		kill -0 "${p%%.*}" 2>/dev/null || { echo "left: $d" >&2; return 1; }
	done
'

test_done
