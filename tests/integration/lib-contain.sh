# tests/integration/lib-contain.sh: what the containment tests share.
#
# Their leftover processes are "sleep NNNN.MARK" with MARK this shell's
# pid: another copy of the suite on this machine cannot be mistaken for a
# leftover of this one.  Set LEFTOVER to the tests' own NN prefix first.
MARK=$$

# leftovers: fails (listing and killing them) when any marked sleep runs.
leftovers() {
	pgrep -f "sleep $LEFTOVER[0-9][0-9]\.$MARK([^0-9]|$)" >/dev/null && {
		ps -eo pid,ppid,args | grep -E "sleep $LEFTOVER[0-9][0-9]\.$MARK([^0-9]|$)" >&2
		pkill -KILL -f "sleep $LEFTOVER[0-9][0-9]\.$MARK([^0-9]|$)"
		return 1
	}
	return 0
}

# A writable cgroup2 where this shell's cgroup is: where plumb makes its own.
cg_mount=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' /proc/self/mountinfo | head -n 1)
cg_own=$(sed -n 's/^0:://p' /proc/self/cgroup)
if test -n "$cg_mount" && test -w "$cg_mount$cg_own/cgroup.procs" && test "$(id -u)" = 0; then
	test_set_prereq CGROUP2
fi
