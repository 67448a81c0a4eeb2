#!/bin/sh
test_description='plumb run: the configuration, --dry-run, and what is refused before building'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

test_expect_success 'set up a project' '
	make_project proj &&
	write_conf proj/plumb.conf
'

test_expect_success '--dry-run prints the effective configuration, flags applied' '
	plumb run -c proj/plumb.conf --dry-run --pads 3 --base HEAD~1 >out &&
	test_grep "pads = 3" out &&
	test_grep "base = HEAD~1" out &&
	test_grep "command = make" out &&
	! test -d wd
'

test_expect_success PYTHON '--dry-run --json prints the configuration as JSON' '
	plumb run -c proj/plumb.conf --dry-run --json --candidate WORKTREE >out.json &&
	test_json out.json "j[\"run\"][\"candidate\"] == \"WORKTREE\" and j[\"build\"][\"pad\"] == \"link\""
'

test_expect_success 'the default configuration file is ./plumb.conf' '
	(cd proj && plumb run --dry-run >../out) &&
	test_grep "artifact = bench" out
'

test_expect_success 'a missing configuration file exits 3 naming it' '
	test_expect_code 3 plumb run -c nosuch.conf --build-only 2>err &&
	test_grep "nosuch.conf" err
'

test_expect_success 'an unknown key exits 3 with the key and a suggestion' '
	cp proj/plumb.conf proj/bad.conf &&
	git config -f proj/bad.conf run.round 5 &&
	test_expect_code 3 plumb run -c proj/bad.conf --build-only 2>err &&
	test_grep "run.round" err &&
	test_grep "run.rounds" err
'

test_expect_success 'a bad value exits 3 naming the key' '
	write_conf proj/bad.conf build.pad=sideways &&
	test_expect_code 3 plumb run -c proj/bad.conf --build-only 2>err &&
	test_grep "build.pad" err &&
	write_conf proj/bad.conf build.padBytes=0 &&
	test_expect_code 3 plumb run -c proj/bad.conf --build-only 2>err &&
	test_grep "build.padBytes" err
'

test_expect_success 'a missing required key exits 3 naming it' '
	write_conf proj/bad.conf &&
	git config -f proj/bad.conf --unset build.command &&
	test_expect_code 3 plumb run -c proj/bad.conf --build-only 2>err &&
	test_grep "build.command" err
'

test_expect_success 'a bad value on the command line names the option' '
	test_expect_code 3 plumb run -c proj/plumb.conf --build-only --pads 0 2>err &&
	test_grep "\-\-pads" err &&
	test_expect_code 3 plumb run -c proj/plumb.conf --build-only --bench nosuch 2>err &&
	test_grep "nosuch" err
'

test_expect_success 'a revision that does not exist exits 3 naming the key' '
	test_expect_code 3 run_build -c proj/plumb.conf --base v9 2>err &&
	test_grep "run.base: .v9. is not a revision" err &&
	test_expect_code 3 run_build -c proj/plumb.conf --candidate no-such-branch 2>err &&
	test_grep "run.candidate: .no-such-branch." err
'

test_expect_success 'a repo.path that is not a repository exits 3' '
	mkdir notrepo &&
	write_conf notrepo/plumb.conf &&
	test_expect_code 3 run_build -c notrepo/plumb.conf 2>err &&
	test_grep "repo.path" err
'

test_expect_success 'a hot symbol that is not in the artifact exits 3 naming the key' '
	write_conf proj/bad.conf bench.b.hot=no_such_function &&
	test_expect_code 3 run_build -c proj/bad.conf 2>err &&
	test_grep "bench.b.hot: .no_such_function. is not a function" err
'

test_expect_success 'WORKTREE with repo.url exits 3 naming the key' '
	write_conf url.conf "repo.url=file://$TRASH/proj" run.candidate=WORKTREE &&
	test_expect_code 3 run_build -c url.conf 2>err &&
	test_grep "run.candidate: WORKTREE needs repo.path" err
'

test_expect_success '-o, --archive and --report need a measuring run: exit 2' '
	test_expect_code 2 plumb run -c proj/plumb.conf --build-only -o x.plumb 2>err &&
	test_grep "plumb run: -o needs a measuring run (not --build-only or --dry-run)" err &&
	test_expect_code 2 plumb run -c proj/plumb.conf --dry-run -o x.plumb 2>err &&
	test_expect_code 2 plumb run -c proj/plumb.conf --build-only --archive 2>err &&
	test_expect_code 2 plumb run -c proj/plumb.conf --build-only --report r.html 2>err &&
	! test -e x.plumb
'

test_expect_success '--archive, --report and -o need a measuring run: exit 2' '
	test_expect_code 2 plumb run -c proj/plumb.conf --build-only --archive 2>err &&
	test_grep "^plumb run: --archive needs a measuring run" err &&
	test_expect_code 2 plumb run -c proj/plumb.conf --dry-run --report r.html 2>err &&
	test_grep "^plumb run: --report needs a measuring run" err &&
	! test -e r.html
'

test_expect_success 'an unknown option or an argument is a usage error' '
	test_expect_code 2 plumb run --frobnicate 2>err &&
	test_grep "frobnicate" err &&
	test_expect_code 2 plumb run extra 2>err
'

test_expect_success 'quotes the plumb.conf syntax removed from a command: a warning with the command as it runs' '
	cat >quotes.conf <<-\EOF &&
	[run]
		base = v1
	[build]
		command = make lua MYLDFLAGS="{pad_ldflags} -Wl,-E"
		artifact = bench
	[bench "x"]
		command = {artifact} "a b"
	[bench "y"]
		command = {artifact} -e \"print(1)\"
	[bench "z"]
		command = "{artifact} x; true # not a comment"
	[bench "w"]
		command = {artifact} "plain"
	EOF
	plumb run --dry-run -c quotes.conf >out 2>err &&
	test_grep "^plumb: warning: quotes.conf:4: build.command: the plumb.conf syntax removed the quote characters (\") from this value; it runs as: make lua MYLDFLAGS={pad_ldflags} -Wl,-E; to give the command a quote, write \\\\\" in plumb.conf" err &&
	test_grep "^plumb: warning: quotes.conf:7: bench.x.command: .* it runs as: {artifact} a b;" err &&
	test_grep_not "bench.y.command" err &&
	test_grep_not "bench.z.command" err &&
	test_grep_not "bench.w.command" err &&
	test "$(grep -c warning err)" = 2 &&
	test_grep "^# build.command runs 4 words: \[make\] \[lua\] \[MYLDFLAGS={pad_ldflags}\] \[-Wl,-E\]$" out &&
	test_grep "^# bench.x.command runs 3 words: \[{artifact}\] \[a\] \[b\]$" out &&
	test_grep "^# bench.y.command runs through /bin/sh -c (shell syntax): .* -e \"print(1)\"$" out
'

test_expect_success 'escaped quotes reach the command: no warning' '
	write_conf proj/esc.conf "build.command=make LDFLAGS=\"{pad_ldflags} -Wl,-O1\"" &&
	plumb run --dry-run -c proj/esc.conf >out 2>err &&
	test_grep_not "warning" err &&
	test_grep "^# build.command runs through /bin/sh -c (shell syntax): make LDFLAGS=" out
'

test_done
