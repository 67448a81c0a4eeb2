# tests/integration/test-lib.sh: the shared harness of the integration
# tests (after git's t/test-lib.sh).  A test script sets test_description,
# sources this file, chains test_expect_success blocks and ends with
# test_done.  Output is TAP for automake's tap-driver.sh.
#
# Each script runs in its own folder, tests/integration/trash.<script>,
# removed when every test passed and kept for inspection otherwise.
#
# Environment (set by `make check`, or by hand):
#   PLUMB           the plumb binary           (default: ../../plumb)
#   TEST_SRCDIR     the source tree            (default: ../..)
#   TEST_BUILDDIR   the build tree             (default: TEST_SRCDIR)
#   TEST_VERBOSE=1  show each test's output on stderr

set -u

this_test=${0##*/}
this_test=${this_test%.sh}
: "${TEST_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${TEST_BUILDDIR:=$TEST_SRCDIR}"
: "${PLUMB:=$TEST_BUILDDIR/plumb}"
: "${TEST_VERBOSE:=}"
FIXTURES="$TEST_SRCDIR/tests/fixtures"
export PLUMB TEST_SRCDIR TEST_BUILDDIR FIXTURES

# A fixed, boring environment for every test.
LC_ALL=C
TZ=UTC
NO_COLOR=1
export LC_ALL TZ NO_COLOR
unset PLUMB_SYSROOT PLUMB_ARCHIVE XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME XDG_CONFIG_HOME \
	GITHUB_ACTIONS GITHUB_STEP_SUMMARY 2>/dev/null || true
# The makes a test runs (examples, generated projects, plumb's builds) do
# not inherit the suite's own flags: `make -s check` silenced their logs.
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS 2>/dev/null || true

TRASH="$TEST_BUILDDIR/tests/integration/trash.$this_test"
rm -rf "$TRASH"
mkdir -p "$TRASH" || { echo "Bail out! cannot create $TRASH"; exit 1; }
cd "$TRASH" || { echo "Bail out! cannot enter $TRASH"; exit 1; }
HOME="$TRASH/home"
XDG_CACHE_HOME="$HOME/.cache"
XDG_DATA_HOME="$HOME/.local/share"
XDG_STATE_HOME="$HOME/.local/state"
# The machine-wide lock of each test script is its own: tests of other
# scripts (and other checkouts) running at once never wait for it.
PLUMB_LOCK="$TRASH/machine.lock"
mkdir -p "$HOME"
export HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_STATE_HOME PLUMB_LOCK

test_count=0
test_failed=0
test_prereqs=" "

plumb() {
	"$PLUMB" "$@"
}

say() {
	echo "# $*"
}

# MARK: this shell's pid.  Marker processes of a test carry it ("sleep
# 3175.$MARK"), so a second copy of the suite on the machine is not taken
# for a leftover of this one.
MARK=$$

# wait_for COMMAND...: up to 20 s for COMMAND to succeed.
wait_for() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		test $i -gt 200 && return 1
		sleep 0.1
	done
}

# leftovers: fail, listing them, while a marker process of this test runs:
# one whose command line matches "$LEFTOVER.$MARK" (LEFTOVER set by the
# test, an extended regular expression such as 'sleep 317[0-9]').
leftovers() {
	pgrep -f "$LEFTOVER\.$MARK([^0-9]|$)" >/dev/null &&
		{ ps -eo pid,ppid,args | grep -E "$LEFTOVER\.$MARK([^0-9]|$)" >&2; return 1; }
	return 0
}

# under_strace ARGS...: strace ARGS.  LeakSanitizer cannot run under
# ptrace: in a sanitizer build, a traced plumb that exits normally would
# fail at exit for that reason alone.
under_strace() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"
}

# sanitized: plumb is built with AddressSanitizer, whose resident memory
# holds its runtime, shadow memory and quarantine besides plumb's own.
sanitized() {
	objdump -T "$PLUMB" 2>/dev/null | grep -q __asan_init
}

# make_pad K BYTES: padK.o (with $TEST_CC), K*BYTES bytes of nops in
# .text.unlikely.plumb_pad (the object plumb links first for pad = link,
# DESIGN §5.2).
make_pad() {
	{
		printf '\t.section .text.unlikely.plumb_pad,"ax",@progbits\n'
		test "$1" = 0 || printf '\t.skip %d, 0x90\n' $(($1 * $2))
		printf '\t.section .note.GNU-stack,"",@progbits\n'
	} >pad$1.s &&
	${TEST_CC:-cc} -c -o pad$1.o pad$1.s
}

# source_files DIR...: the C sources and headers of those folders of the
# source tree (not their subfolders), one path a line; a folder that does
# not exist is skipped.
source_files() {
	for d in "$@"; do
		test -d "$TEST_SRCDIR/$d" || continue
		for f in "$TEST_SRCDIR/$d"/*.c "$TEST_SRCDIR/$d"/*.h; do
			test -f "$f" && echo "$f"
		done
	done
	return 0
}

# addr BINARY SYMBOL: the symbol's address, in decimal.
addr() {
	printf '%d\n' "0x$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }')"
}

# test_set_prereq NAME: mark a prerequisite as present.
test_set_prereq() {
	test_prereqs="$test_prereqs$1 "
}

# test_have_prereq NAME[,NAME...]: every one of them is present.
test_have_prereq() {
	for p_ in $(echo "$1" | tr , " "); do
		case "$test_prereqs" in *" $p_ "*) ;; *) return 1 ;; esac
	done
	return 0
}

# Run a test body in the current shell, its output going to a log.
test_run_() {
	if test -n "$TEST_VERBOSE"; then
		eval "$1" >&2
	else
		eval "$1" >"$TRASH/.test-output" 2>&1
	fi
}

test_report_failure_() {
	echo "not ok $test_count - $1"
	if test -z "$TEST_VERBOSE" && test -f "$TRASH/.test-output"; then
		sed -e 's/^/#   /' "$TRASH/.test-output" | tail -n 40
	fi
	echo "$2" | sed -e 's/^/#	/'
	test_failed=$((test_failed + 1))
}

# test_expect_success [PREREQ[,PREREQ...]] DESCRIPTION BODY
test_expect_success() {
	prereq=
	if test $# = 3; then
		prereq=$1
		shift
	fi
	test_count=$((test_count + 1))
	if test -n "$prereq" && ! test_have_prereq "$prereq"; then
		echo "ok $test_count # SKIP $1 (missing $prereq)"
		return 0
	fi
	if test_run_ "$2"; then
		echo "ok $test_count - $1"
	else
		test_report_failure_ "$1" "$2"
	fi
}

# test_expect_code CODE COMMAND...: COMMAND exits with exactly CODE.
test_expect_code() {
	want=$1
	shift
	"$@"
	got=$?
	if test "$got" = "$want"; then
		return 0
	fi
	echo "test_expect_code: '$*' exited $got, expected $want" >&2
	return 1
}

# test_must_fail COMMAND...: COMMAND fails cleanly (not a crash or signal).
test_must_fail() {
	"$@"
	got=$?
	if test "$got" = 0; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	fi
	if test "$got" -gt 125; then
		echo "test_must_fail: '$*' died with status $got" >&2
		return 1
	fi
	return 0
}

# test_cmp EXPECTED ACTUAL: the files are the same (a diff otherwise).
test_cmp() {
	diff -u "$1" "$2"
}

# test_grep PATTERN FILE: like grep, but shows the file when it fails.
test_grep() {
	if grep -e "$1" "$2" >/dev/null; then
		return 0
	fi
	echo "test_grep: no '$1' in $2:" >&2
	sed -e 's/^/| /' "$2" >&2
	return 1
}

# test_grep_not PATTERN FILE
test_grep_not() {
	if grep -e "$1" "$2" >/dev/null; then
		echo "test_grep_not: '$1' found in $2:" >&2
		sed -e 's/^/| /' "$2" >&2
		return 1
	fi
	return 0
}

# test_json FILE EXPR: evaluate a Python expression over the parsed JSON `j`.
test_json() {
	python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("test_json: false:", sys.argv[2], file=sys.stderr)
    print(json.dumps(j, indent=1)[:4000], file=sys.stderr)
    sys.exit(1)' "$1" "$2"
}

test_done() {
	echo "1..$test_count"
	cd "$TEST_BUILDDIR" || exit 1
	if test "$test_failed" = 0; then
		rm -rf "$TRASH"
		exit 0
	fi
	echo "# $test_failed of $test_count failed; kept $TRASH"
	exit 1
}

command -v python3 >/dev/null 2>&1 && test_set_prereq PYTHON
# STRACE: strace can trace and inject faults (-e inject=...).
if command -v strace >/dev/null 2>&1 &&
   strace -f -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2>/dev/null; then
	test_set_prereq STRACE
fi
