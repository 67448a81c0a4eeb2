#!/bin/sh
test_description='the include arrows of the folders run one way (DESIGN 1 and 2): no stage includes views/ or cli/'
. "$(dirname "$0")/test-lib.sh"

# allowed FOLDER: the folders FOLDER's files may include, itself first.
allowed() {
	case $1 in
	common)  echo "common" ;;
	sys)     echo "sys common" ;;      # the process harness, for every stage that starts a process
	stats)   echo "stats common" ;;
	formats) echo "formats stats common" ;;   # the bundle check recomputes verdicts (stats is pure)
	archive) echo "archive formats sys common" ;;   # the rclone store runs rclone through the harness
	runner)  echo "runner formats stats sys common" ;;
	reports) echo "reports archive stats formats common" ;;
	views)   echo "views reports archive runner stats formats sys common" ;;
	cli)     echo "cli views reports archive runner stats formats sys common" ;;
	esac
}

# arrows: one line "FILE FOLDER" per quoted include of a project folder.
arrows() {
	for d in common sys stats formats archive runner reports views cli; do
		test -d "$TEST_SRCDIR/$d" || continue
		for f in "$TEST_SRCDIR/$d"/*.c "$TEST_SRCDIR/$d"/*.h; do
			test -f "$f" || continue
			sed -n "s|^#include \"\([a-z]*\)/.*|$d ${f#$TEST_SRCDIR/} \1|p" "$f"
		done
	done
}

test_expect_success 'every include points to the same folder or one below it' '
	arrows >arrows &&
	test -s arrows &&
	while read from file to; do
		case " $(allowed "$from") " in
		*" $to "*) ;;
		*) echo "$file includes $to/" >&2; return 1 ;;
		esac
	done <arrows
'

test_expect_success 'the check sees the views layer and would see an arrow back up' '
	grep "^cli .* views$" arrows >/dev/null &&
	grep "^views " arrows >/dev/null &&
	grep "^runner .* sys$" arrows >/dev/null &&
	grep "^archive .* sys$" arrows >/dev/null &&
	case " $(allowed stats) " in *" views "*) false ;; *) true ;; esac
'

# pairs: one line "A B" per file A.c of a folder that includes B.h of the same folder.
pairs() {
	for d in common sys stats formats archive runner reports views cli; do
		test -d "$TEST_SRCDIR/$d" || continue
		for f in "$TEST_SRCDIR/$d"/*.c; do
			test -f "$f" || continue
			a=$(basename "$f" .c)
			sed -n "s|^#include \"$d/\([a-z0-9-]*\)\.h\"|$d/$a $d/\1|p" "$f"
		done
	done
}

test_expect_success 'no two files of a folder include each other'"'"'s header' '
	pairs >pairs &&
	test -s pairs &&
	while read a b; do
		test "$a" = "$b" && continue
		grep -qx "$b $a" pairs && { echo "$a.c and $b.c include each other" >&2; return 1; }
	done <pairs
'

test_expect_success 'README.md: the Layout section has a paragraph per folder and names every view' '
	sed -n "/^## Layout/,/^## /p" "$TEST_SRCDIR/README.md" >layout &&
	for d in cli views reports archive runner stats formats sys common; do
		grep "^- \`$d/\`" layout >/dev/null || { echo "no paragraph for $d/" >&2; return 1; }
	done &&
	for f in "$TEST_SRCDIR"/views/*.c; do
		grep "\`$(basename "$f")\`" layout >/dev/null || { echo "views/$(basename "$f") not named" >&2; return 1; }
	done
'

test_done
