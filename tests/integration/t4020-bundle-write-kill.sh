#!/bin/sh
test_description='a bundle or report write killed with SIGKILL at any system call leaves no temporary file once the next plumb has written in that folder'
. "$(dirname "$0")/test-lib.sh"

# LeakSanitizer cannot run under ptrace (see t3003).
under_strace() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"
}

if command -v strace >/dev/null 2>&1 &&
   strace -f -o /dev/null -e trace=getpid -e inject=getpid:retval=1 true 2>/dev/null; then
	test_set_prereq STRACE
fi

# Temporary names of a bundle, its spool or a report in folder $1.
temps() {
	ls -a "$1" | grep -E '\.(tmp|spool)\.' || true
}

test_expect_success 'a folder of results, and a bundle already at the destination' '
	cp -R "$FIXTURES/bundle/run" run && chmod -R u+w run &&
	mkdir out &&
	plumb bundle pack run -o out/x.plumb >/dev/null &&
	cp out/x.plumb before.plumb
'

# kill_at SYSCALL N COMMAND...: run COMMAND killed at call N of SYSCALL;
# prints "done" when it ran to its end (N is past the last such call).
kill_at() {
	sc=$1 n=$2
	shift 2
	under_strace -f -o /dev/null -e trace="$sc" -e inject="$sc":signal=KILL:when="$n" \
		"$@" >/dev/null 2>kill.err
	st=$?
	if test $st = 0; then
		echo done
		return 0
	fi
	test $st = 137 || { echo "$sc #$n: exited $st, not killed" >&2; cat kill.err >&2; return 1; }
	echo killed
}

# every SYSCALL FILE COMMAND...: kill COMMAND at each call of SYSCALL;
# after each kill FILE is whole (the old one or the new one), and once
# another plumb has written in out/, no temporary name is left there.
every() {
	sc=$1 file=$2
	shift 2
	n=1 kills=0
	while test $n -le 60; do
		r=$(kill_at "$sc" $n "$@") || return 1
		test "$r" = done && break
		kills=$((kills + 1))
		if test -e "$file"; then
			case $file in
			*.plumb) plumb bundle verify "$file" >/dev/null ||
				{ echo "$sc #$n: $file is not whole" >&2; return 1; } ;;
			*) test_grep "</html>" "$file" ||
				{ echo "$sc #$n: $file is not whole" >&2; return 1; } ;;
			esac
		fi
		plumb bundle pack run -o out/next.plumb >/dev/null &&
		rm out/next.plumb &&
		left=$(temps out) &&
		test -z "$left" || { echo "$sc #$n left: $left" >&2; return 1; }
		n=$((n + 1))
	done
	test $kills -gt 0
}

for sc in openat write fsync linkat rename close; do
	test_expect_success STRACE "bundle pack killed at each $sc over an existing bundle" '
		every '"$sc"' out/x.plumb "$PLUMB" bundle pack run -o out/x.plumb
	'
done

test_expect_success STRACE 'bundle pack killed at each write of a new bundle' '
	rm -f out/new.plumb &&
	every write out/new.plumb sh -c "rm -f out/new.plumb && exec \"\$PLUMB\" bundle pack run -o out/new.plumb"
'

test_expect_success STRACE 'report -o killed at each write' '
	every write out/r.html "$PLUMB" report before.plumb --format html -o out/r.html
'

test_expect_success STRACE 'a full disk on the spool (the first write): exit 74 naming its folder and file' '
	under_strace -f -o /dev/null -e trace=write -e inject=write:error=ENOSPC:when=1 \
		"$PLUMB" bundle pack run -o out/s.plumb 2>err
	test $? = 74 &&
	test_grep "^plumb: out/ (the spool file of out/s.plumb, unnamed): write: No space left on device$" err &&
	test_grep_not "spool file:" err &&
	test -z "$(temps out)"
'

# A failed fsync, of the file or, once it has its name, of its folder: the
# write fails (74, naming the path) and leaves no new bundle at -o, never
# one a crash could still lose (docs/plumb.1, FILES WRITTEN): the old file
# stays when the failure comes before the rename, and goes with the new
# one after it.
test_expect_success STRACE 'every fsync failing in turn: exit 74 and no new bundle at -o, over nothing or over an old file' '
	echo old >old.txt &&
	for over in new old; do
		n=1 fails=0
		while test $n -le 20; do
			rm -f out/f.plumb && test $over = new || cp old.txt out/f.plumb
			under_strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=$n \
				"$PLUMB" bundle pack run -o out/f.plumb >/dev/null 2>err
			st=$?
			test $st = 0 && break
			test $st = 74 || { echo "fsync #$n: exit $st" >&2; cat err >&2; return 1; }
			fails=$((fails + 1))
			test_grep "out/f.plumb" err &&
			{ ! test -e out/f.plumb || cmp -s old.txt out/f.plumb; } &&
			test -z "$(temps out)" || { echo "fsync #$n ($over)" >&2; return 1; }
			n=$((n + 1))
		done
		test $fails -ge 2 || return 1
	done &&
	under_strace -f -o /dev/null -e trace=fsync -e inject=fsync:error=EIO:when=2 \
		"$PLUMB" bundle pack run -o out/f.plumb >/dev/null 2>err
	test $? = 74 &&
	test_grep "^plumb: out/f.plumb: removed again: written, but its folder could not be synced (out: fsync: Input/output error)$" err
'

test_expect_success 'a temporary name of a dead writer goes, a live writer'"'"'s stays' '
	sh -c "exit 0" & dead=$! && wait $dead &&
	: >out/.x.plumb.tmp.$dead.AbCdEf &&
	: >out/.x.plumb.spool.$dead.AbCdEf &&
	: >out/.x.plumb.tmp.$$.AbCdEf &&
	plumb bundle pack run -o out/x.plumb >/dev/null &&
	temps out >left &&
	echo ".x.plumb.tmp.$$.AbCdEf" >expect &&
	test_cmp expect left &&
	rm out/.x.plumb.tmp.$$.AbCdEf
'

test_done
