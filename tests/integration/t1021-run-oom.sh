#!/bin/sh
test_description='plumb run: a benchmark the kernel kills for memory is said to be, "killed by SIGKILL: out of memory?", when its cgroup counted the kill (memory.events oom_kill); any other SIGKILL is only a SIGKILL'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

LEFTOVER=33
. "$TEST_SRCDIR/tests/integration/lib-contain.sh"

# MEMCG: a cgroup made here gets the memory controller (this shell's cgroup
# delegates it), so one with a memory.max can hold plumb and count its
# children's OOM kills.  Not on a hybrid layout whose memory controller is
# on cgroup v1: the test of the OOM kill is skipped there.
if test_have_prereq CGROUP2 && grep -qw memory "$cg_mount$cg_own/cgroup.subtree_control" 2>/dev/null; then
	test_set_prereq MEMCG
fi
CG="$cg_mount$cg_own/plumb-t1021.$MARK"
trap 'rmdir "$CG" 2>/dev/null' EXIT

test_expect_success 'set up a project' '
	make_project proj &&
	mkdir out
'

test_expect_success 'a benchmark killed by SIGKILL with no OOM kill: a SIGKILL, nothing more' '
	run_conf proj/kill.conf run.pads=1 run.control=false \
		"bench.b.command={artifact} >/dev/null && kill -KILL \$\$" &&
	test_expect_code 5 run_plumb -c proj/kill.conf -o out/kill.plumb >stdout 2>err &&
	test_grep "killed by signal 9" err &&
	test_grep_not "out of memory" err
'

# in_memcg COMMAND...: COMMAND in a cgroup of its own limited to 128 MiB of
# memory and no swap.
in_memcg() {
	mkdir -p "$CG" &&
	echo 128M >"$CG/memory.max" &&
	{ ! test -e "$CG/memory.swap.max" || echo 0 >"$CG/memory.swap.max"; } &&
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@"
}

test_expect_success MEMCG 'a benchmark the OOM killer kills: "killed by SIGKILL: out of memory?"' '
	run_conf proj/oom.conf run.pads=1 run.control=false \
		"bench.b.command={artifact} >/dev/null && exec tail -c 1000000000 /dev/zero" &&
	test_expect_code 5 in_memcg "$PLUMB" run --workdir "$TRASH/wd" \
		-c proj/oom.conf -o out/oom.plumb >stdout 2>err &&
	test_grep "killed by SIGKILL: out of memory?" err &&
	test "$(sed -n "s/^oom_kill //p" "$CG/memory.events")" -ge 1
'

test_done
