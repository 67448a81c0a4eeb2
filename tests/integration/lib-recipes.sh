# tests/integration/lib-recipes.sh: helpers of the tests that run the
# recipes of docs/ (t0010, t3022), sourced after test-lib.sh.

# fenced FILE INFO: the lines of the fenced block of FILE whose info string
# is INFO (the text after the opening ```), without the fences.
fenced() {
	awk -v info="$2" '
		$0 == "```" info { inside = 1; next }
		inside && $0 == "```" { exit }
		inside { print }
	' "$1"
}

# known_options LINE: every --option of every "plumb CMD [SUB]" in LINE is
# one its --help lists.
known_options() {
	echo "$1" | tr ' ' '\n' >words &&
	kc_= && sub= &&
	while read w; do
		case $w in
		plumb|*/plumb) kc_=next ;;
		--*)
			o=${w#--}; o=${o%%=*}
			plumb help $kc_ $sub | grep -q -e "--$o\b" ||
				{ echo "plumb $kc_ $sub: no --$o" >&2; return 1; } ;;
		*)
			if test "$kc_" = next; then kc_=$w; sub=
			elif test -n "$kc_" && test -z "$sub" && plumb help "$kc_" 2>/dev/null |
				grep -q "^  $w "; then sub=$w
			fi ;;
		esac
	done <words &&
	test -n "$kc_" && test "$kc_" != next
}

