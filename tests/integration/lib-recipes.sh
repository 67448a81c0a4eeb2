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
# one its --help lists; LINE may chain commands (&&, ||, ;, |, braces), and
# the options of other commands (git pull --ff-only) are not plumb's.
known_options() {
	echo "$1" | sed 's/;/ ; /g' | tr ' ' '\n' >words &&
	kc_= && sub= && seen_= &&
	while read w; do
		case $w in
		'&&'|'||'|';'|'|'|'{'|'}') kc_= sub= ;;
		plumb|*/plumb)
			# A command's first word (not a folder named plumb after -o).
			test -n "$kc_" || { kc_=next; seen_=1; } ;;
		--*)
			test -n "$kc_" || continue
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
	test -n "$seen_" && test "$kc_" != next
}
