#!/bin/sh
test_description='shell completion: the scripts the build writes from the command table complete every command, subcommand and option of --help'
. "$(dirname "$0")/test-lib.sh"

command -v bash >/dev/null 2>&1 || { echo "1..0 # SKIP bash is not installed"; exit 0; }

# offers WORD...: what the bash script offers for the words typed so far
# (the last one, possibly empty, is the word being completed), one a line.
offers() {
	bash -c '. ./plumb.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_plumb
		printf "%s\n" "${COMPREPLY[@]}"' plumb-test plumb "$@" | sed "/^$/d" | sort
}

# The command paths of --help: "run", "archive", "archive baseline set", ...
command_paths() {
	walk_paths ""
}
walk_paths() {
	if test -z "$1"; then plumb --help; else plumb help $1; fi |
	sed -n "/^\(commands\|subcommands\):/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" |
	while read c; do
		p="${1:+$1 }$c"
		echo "$p"
		walk_paths "$p"
	done
}

# check_subs: each command path with subcommands offers exactly those of its help.
check_subs() {
	n=0
	while read p; do
		plumb help $p | sed -n "/^subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" | sort >expect
		test -s expect || continue
		offers $p "" >actual &&
		test_cmp expect actual || { echo "plumb $p: subcommands differ" >&2; return 1; }
		n=$((n + 1))
	done <paths
	test $n -ge 3
}

# help_options PATH: the option names in the left column of PATH's help.
help_options() {
	plumb help $1 | sed -n "/^options:/,\$p" | sed -n "s/^  \(.\{0,30\}\) \{2,\}.*/\1/p" |
		grep -o -e "--[a-z][a-z0-9-]*" -e "^-[a-zA-Z]" -e " -[a-zA-Z]" | tr -d " " | sort -u
}

# check_options: after a dash each command path offers every option of its help.
check_options() {
	n=0
	while read p; do
		plumb help $p | grep -q "^options:" || continue
		help_options "$p" >expect &&
		offers $p - | sort -u >actual &&
		test_cmp expect actual || { echo "plumb $p: options differ" >&2; return 1; }
		n=$((n + 1))
	done <paths
	test $n -ge 20
}

test_expect_success 'the script written at build time is the one plumb writes now' '
	plumb completion bash >plumb.bash &&
	test_cmp plumb.bash "$TEST_BUILDDIR/completion/plumb" &&
	plumb completion zsh >plumb.zsh &&
	test_cmp plumb.zsh "$TEST_BUILDDIR/completion/_plumb"
'

test_expect_success 'the first word completes to every command of plumb --help' '
	plumb --help | sed -n "/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" | sort >expect &&
	test $(wc -l <expect) -ge 10 &&
	offers "" >actual &&
	test_cmp expect actual &&
	offers "rep" >actual &&
	echo report >expect &&
	test_cmp expect actual
'

test_expect_success 'each command with subcommands completes to exactly those of its help' '
	command_paths >paths &&
	test_grep "^archive baseline set$" paths &&
	check_subs
'

test_expect_success 'after a dash, every command path completes to every option of its help' '
	check_options
'

test_expect_success 'an option argument or a positional argument is left to file names' '
	offers report --format "" >actual &&
	! test -s actual &&
	offers report -o out.html --f >actual &&
	printf "%s\n" --fail-on --force --format >expect &&
	test_cmp expect actual &&
	offers archive list --archive-dir add --j >actual &&
	echo --json >expect &&
	test_cmp expect actual &&
	offers help archive baseline "" >actual &&
	plumb help archive baseline | sed -n "/^subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p" | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'the zsh script loads in zsh and offers the same words' '
	if command -v zsh >/dev/null 2>&1; then
		zsh -c "autoload -U compinit && compinit -u -D; . ./plumb.zsh; whence -w _plumb" >out &&
		test_grep "_plumb: function" out
	fi &&
	sed -n "/^_plumb_subs()/,\$p" plumb.zsh >zsh-body &&
	sed -n "/^_plumb_subs()/,\$p" plumb.bash >bash-body &&
	test_cmp bash-body zsh-body
'

test_expect_success 'make install installs both where bash-completion and zsh look' '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TEST_BUILDDIR" \
		install-bashcompDATA install-zshcompDATA DESTDIR="$PWD/dest" >make.out 2>&1 &&
	find dest -type f | sed "s|.*/share/||" | sort >actual &&
	printf "%s\n" bash-completion/completions/plumb zsh/site-functions/_plumb >expect &&
	test_cmp expect actual
'

test_expect_success 'a shell plumb cannot complete is a usage error' '
	test_expect_code 2 plumb completion fish 2>err &&
	test_grep "bash or zsh" err &&
	test_expect_code 2 plumb completion 2>err
'

test_done
