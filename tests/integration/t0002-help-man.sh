#!/bin/sh
test_description='every command and option in --help is in docs/plumb.1, each option in its own command'"'"'s section (STYLE 4)'
. "$(dirname "$0")/test-lib.sh"

man="$TEST_SRCDIR/docs/plumb.1"

# The command paths: "host", "bundle pack", ...
command_paths() {
	plumb --help | sed -n "s/^  \([a-z][a-z-]*\) .*/\1/p" | while read c; do
		echo "$c"
		plumb help "$c" | sed -n "/^subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" |
		while read s; do
			echo "$c $s"
		done
	done
}

# own_section MAN PATH: the text of MAN's sections of command PATH: every
# ".SS plumb PATH ..." that is not the section of one of PATH's
# subcommands, each up to the next .SS or .SH.
own_section() {
	awk -v p="$2" -v subs=" $(sed -n "s/^$2 \([a-z-]*\)$/\1/p" paths | tr '\n' ' ') " '
		/^\.S[SH] / { on = 0 }
		/^\.SS plumb / {
			line = $0
			sub(/^\.SS plumb /, "", line)
			if (index(line " ", p " ") == 1) {
				n = split(substr(line, length(p) + 2), w, " ")
				on = !(n > 0 && index(subs, " " w[1] " ") > 0)
			}
		}
		on' "$1"
}

# section MAN PATH: PATH's own sections; for a subcommand ("archive list")
# also its command's (the options every subcommand takes: --archive-dir);
# for a command with subcommands ("bundle"), whose help shows their usage
# lines, also theirs.
section() {
	if grep -q "^$2 " paths; then
		sed -n "s/^$2 \([a-z-]*\)$/\1/p" paths | while read s; do
			own_section "$1" "$2 $s"
		done
	fi
	own_section "$1" "$2" &&
	case $2 in
	*" "*) own_section "$1" "${2%% *}" ;;
	esac
}

# check_options MAN: every option of every command path is in its section of MAN.
check_options() {
	while read p; do
		section "$1" "$p" >section.txt &&
		plumb help $p | sed -n "s/^  .*--\([a-z][a-z-]*\).*/\1/p" | sort -u >opts &&
		while read o; do
			test "$o" = help && continue
			grep -q -e "\\\\-\\\\-$o\b" -e "--$o\b" section.txt ||
				{ echo "plumb $p: --$o not in its section of plumb.1" >&2; return 1; }
		done <opts || return 1
	done <paths
}

test_expect_success 'every command has a section in plumb.1' '
	command_paths >paths &&
	test -s paths &&
	while read p; do
		# groff escapes the dash; accept "plumb host" and "plumb bundle pack".
		grep -q "^\.SS .*plumb $p\b" "$man" || { echo "no .SS for plumb $p" >&2; return 1; }
	done <paths
'

test_expect_success 'every option of every command is documented in its section of plumb.1' '
	check_options "$man"
'

test_expect_success 'an option documented only in other sections is missing' '
	# plumb run takes --json; other commands document theirs.
	section "$man" run | grep -q -e "-json" &&
	sed "/^\.SS plumb run /,/^\.S[SH] /s/-json/-jsn/g" "$man" >cut.1 &&
	grep -q -e "\\\\-\\\\-json" cut.1 &&
	! section cut.1 run | grep -q -e "-json" &&
	test_must_fail check_options cut.1 2>err &&
	test_grep "plumb run: --json not in its section" err
'

test_expect_success 'a family without a usage of its own shows every usage line of its subcommands' '
	plumb bundle --help >family &&
	for s in pack show verify extract keygen sign; do
		plumb help bundle $s | sed -n "1s/^usage: //p" >line &&
		test -s line &&
		grep -qF "$(cat line)" family || { echo "bundle $s: $(cat line)" >&2; return 1; }
	done &&
	test_grep "-p KEY.pub" family &&
	test_grep "--require-signature" family &&
	test_grep "keygen -o NAME \[--force\]" family
'

# The key list of plumb.conf(5) against what --dry-run --json prints.
conf_keys() {
	python3 -c "
import json, re, sys
if sys.argv[1] == \"man\":
    t = open(sys.argv[2]).read()
    block = t[t.index(\"{\\\"repo\\\"\"):]
    block = block[:block.index(\".RE\")]
    for sec, keys in re.findall(r\"\\\"(\\w+)\\\": \\[?\\{([^}]*)\\}\", block):
        print(sec, *re.findall(r\"\\\"(\\w+)\\\"\", keys))
else:
    j = json.load(open(sys.argv[2]))
    for sec, v in j.items():
        print(sec, *(v[0] if isinstance(v, list) else v))
" "$@"
}

test_expect_success PYTHON 'plumb.conf(5) lists every key --dry-run --json prints, in its order' '
	git init -q -b main proj &&
	(cd proj && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m one &&
	 printf "[run]\n\tbase = HEAD\n[build]\n\tcommand = true\n\tartifact = a\n[bench \"b\"]\n\tcommand = {artifact}\n" >plumb.conf &&
	 plumb run --dry-run --json >../dry.json) &&
	conf_keys json dry.json >expect &&
	conf_keys man "$TEST_SRCDIR/docs/plumb.conf.5" >actual &&
	test_cmp expect actual
'

# The text of plumb(1)'s DESCRIPTION, its font macros dropped.
description_text() {
	python3 -c "
import re, sys
t = open(sys.argv[1]).read()
t = t[t.index(\".SH DESCRIPTION\"):]
t = t[len(\".SH DESCRIPTION\"):t.index(\"\\n.SH \")]
out = []
for l in t.split(\"\\n\"):
    if l.startswith(\".\"):
        l = l.split(None, 1)[1] if \" \" in l else \"\"
        l = l.replace(\"\\\"\", \"\")
    out.append(l)
t = \" \".join(out)
t = t.replace(\"\\\\(en\", \"-\").replace(\"\\\\(+-\", \"+-\").replace(\"\\\\-\", \"-\")
print(re.sub(r\"\\s+\", \" \", t))
" "$1"
}

test_expect_success PYTHON 'plumb(1) DESCRIPTION states the default rule, its confidence, minimum effect and verdicts' '
	description_text "$man" >description &&
	test_json dry.json "j[\"verdict\"][\"rule\"] == \"shift\" and j[\"verdict\"][\"minEffect\"] == \"0.01\"" &&
	version=$(plumb analyze --help | sed -n "s/.*shift (the default, version \([0-9]*\)).*/\1/p") &&
	test -n "$version" &&
	test_grep "Under the default rule, shift version $version," description &&
	test_grep "exact interval at 99%" description &&
	test_grep "the minimum effect (+-1%)" description &&
	for v in slower faster unchanged placement unswept; do
		grep -q " $v " description || { echo "DESCRIPTION: no $v" >&2; return 1; }
	done &&
	# No word of the older rules: ranges that overlap, a margin.
	! grep -qi "overlap" description &&
	! grep -qi "margin" description
'

test_done
