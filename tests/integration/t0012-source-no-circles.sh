#!/bin/sh
test_description='inside each folder the files stand in layers: no file needs, through others, a file that needs it (issue 28: a newcomer reads a folder from the bottom up)'
. "$(dirname "$0")/test-lib.sh"

# A file A of a folder needs a file B of the same folder when A's object
# uses a symbol B's object defines (nm: undefined in A, defined in B), or
# when A.c or A.h includes "FOLDER/B.h" and B.c exists (a header named
# like a file is that file's face; types that many files share live in a
# header no file owns, and including it is no arrow).  Objects come from
# the build tree, sources from the source tree.
#
# The documented exceptions, each with its reason:
#   faces: a header that is the face of several files, not of the file
#     named like it, so including it is no arrow to that file:
#     formats/config.h declares what config.c, config-value.c,
#     config-params.c, config-render.c and config-spec.c give the other
#     folders, and the model (struct plumb_config) they all fill.
#   exempt arrows: cli/commands.c is the table of every command, and
#     `plumb help` and `plumb completion` list that table: a table that
#     names its own readers.
faces=" formats/config.h "
exempt=" cli:cmd-help:commands cli:cmd-completion:commands "

# arrows FOLDER: one line "A B SYMBOL-OR-#include" per arrow.
arrows() {
	all_arrows "$1" | while read -r a b why; do
		case $exempt in
		*" $1:$a:$b "*) ;;
		*) echo "$a $b $why" ;;
		esac
	done
}

all_arrows() {
	d=$1
	for o in "$TEST_BUILDDIR/$d"/*.o; do
		test -f "$o" || continue
		m=$(basename "$o" .o) && m=${m#libplumb_a-}
		# An object left from a source since removed is not a file.
		test -f "$TEST_SRCDIR/$d/$m.c" || continue
		nm -P "$o" | awk -v m="$m" '
			$2 == "U" { print "U", m, $1; next }
			$2 ~ /^[TDBRCVWG]$/ { print "D", m, $1 }'
	done >"$TRASH/.syms" || return 1
	awk '$1 == "D" { owner[$3] = $2 }
	     $1 == "U" && ($3 in owner) && owner[$3] != $2 { u[n++] = $2 " " owner[$3] " " $3 }
	     END { for (i = 0; i < n; i++) print u[i] }' "$TRASH/.syms" "$TRASH/.syms"
	for f in "$TEST_SRCDIR/$d"/*.c "$TEST_SRCDIR/$d"/*.h; do
		test -f "$f" || continue
		a=$(basename "$f") && a=${a%.[ch]}
		sed -n "s|^#include \"$d/\([A-Za-z0-9_-]*\)\.h\".*|\1|p" "$f" |
		while read -r b; do
			case $faces in *" $d/$b.h "*) continue ;; esac
			test "$b" != "$a" && test -f "$TEST_SRCDIR/$d/$b.c" &&
				echo "$a $b #include"
		done
	done
	return 0
}

# circles: the files of each circle of the arrows on stdin, one circle a
# line (a file reaches itself through another), with the arrows that tie it.
circles() {
	awk '{ k = $1 SUBSEP $2; if (!(k in why)) { why[k] = $3; e[++ne] = k }
	       node[$1]; node[$2] }
	END {
		for (i = 1; i <= ne; i++) r[e[i]] = 1
		for (k in node) for (i in node) if ((i, k) in r) for (j in node)
			if ((k, j) in r) r[i, j] = 1
		for (a in node) if (!(a in done) && ((a, a) in r)) {
			line = a; done[a]
			for (b in node) if (b != a && ((a, b) in r) && ((b, a) in r)) {
				line = line " " b; done[b]
			}
			print "circle: " line
			for (i = 1; i <= ne; i++) {
				split(e[i], ab, SUBSEP)
				if (((a, ab[1]) in r) && ((ab[1], a) in r) && ((a, ab[2]) in r) &&
				    ((ab[2], a) in r))
					print "  " ab[1] " -> " ab[2] ": " why[e[i]]
			}
		}
	}'
}

test_expect_success 'the objects are there to read' '
	ls "$TEST_BUILDDIR"/runner/*.o "$TEST_BUILDDIR"/reports/*.o >/dev/null &&
	command -v nm
'

for d in common sys stats formats archive runner reports views cli; do
	test_expect_success "$d/: no circle" "
		arrows $d >arrows.$d &&
		circles <arrows.$d >circles.$d &&
		{ test ! -s circles.$d || { cat circles.$d >&2; false; }; }
	"
done

# The check sees what it is meant to see: two files of a folder that call
# each other are a circle; one that only includes a header no file owns is
# not.
test_expect_success 'a planted circle is found, a shared header is not one' '
	printf "%s\n" "a b f" "b c g" "c a h" "c d i" >planted &&
	circles <planted >found &&
	test_grep "^circle: " found &&
	test "$(grep -c "^circle: " found)" = 1 &&
	test_grep "^  c -> a: h$" found &&
	! grep -q " d" found &&
	printf "%s\n" "a b f" "b c g" >line &&
	circles <line >none &&
	! test -s none
'

test_done
