#!/bin/sh
test_description='plumb run: revisions (tags, branches, HEAD~N, ids, WORKTREE), repo.url, exported trees'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

# resolved FILE SIDE: the commit plumb recorded for SIDE in the JSON summary.
resolved() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["commit"])' "$1" "$2"
}

test_expect_success 'set up a project with a branch, a tag, a link and an executable' '
	make_project proj &&
	(
		cd proj &&
		git checkout -q -b feature &&
		printf "#!/bin/sh\necho gen\n" >gen.sh &&
		chmod +x gen.sh &&
		ln -s main.c link-to-main.c &&
		git add gen.sh link-to-main.c &&
		git commit -q -m "feature: a script and a link" &&
		git checkout -q main
	) &&
	write_conf proj/plumb.conf run.pads=1 run.control=false
'

test_expect_success PYTHON 'tag, branch, HEAD~N, full and short ids resolve to the right commits' '
	v1=$(git -C proj rev-parse v1) &&
	main=$(git -C proj rev-parse main) &&
	feature=$(git -C proj rev-parse feature) &&
	short=$(git -C proj rev-parse --short=7 feature) &&
	run_build -c proj/plumb.conf --json --base v1 --candidate feature >a.json &&
	test "$(resolved a.json base)" = "$v1" &&
	test "$(resolved a.json candidate)" = "$feature" &&
	run_build -c proj/plumb.conf --json --base HEAD~1 --candidate "$main" >b.json &&
	test "$(resolved b.json base)" = "$v1" &&
	test "$(resolved b.json candidate)" = "$main" &&
	run_build -c proj/plumb.conf --json --base "$short" --candidate HEAD >c.json &&
	test "$(resolved c.json base)" = "$feature" &&
	test "$(resolved c.json candidate)" = "$main" &&
	test_json a.json "j[\"base\"][\"ref\"] == \"v1\" and j[\"base\"][\"subject\"] == \"first version\"" &&
	test_json a.json "j[\"base\"][\"author\"] == \"Tester <tester@example.com>\" and j[\"base\"][\"time\"] == 1767323045" &&
	test_json a.json "j[\"base\"][\"tree\"] == \"$(git -C proj rev-parse v1^{tree})\" and not j[\"base\"][\"dirty\"]"
'

test_expect_success 'the exported tree has no .git, keeps the executable bit and the link' '
	run_build -c proj/plumb.conf --keep --candidate feature >out &&
	src=$(ls -d wd/run-*/v/c00) &&
	! test -e "$src/.git" &&
	test -x "$src/gen.sh" &&
	! test -x "$src/main.c" &&
	test -h "$src/link-to-main.c" &&
	test "$(readlink "$src/link-to-main.c")" = main.c &&
	test_cmp proj/main.c "$src/main.c" &&
	rm -rf wd
'

test_expect_success PYTHON 'WORKTREE takes uncommitted changes and added files, and is dirty' '
	echo "/* local edit */" >>proj/main.c &&
	echo "int extra;" >proj/extra.c &&
	echo "int added;" >proj/added.c &&
	git -C proj add added.c &&
	git -C proj rm -q --cached .gitignore && rm proj/.gitignore &&
	git -C proj count-objects >objects.before &&
	cksum <proj/.git/index >index.before &&
	run_build -c proj/plumb.conf --json --keep --base HEAD --candidate WORKTREE >w.json &&
	test_json w.json "j[\"candidate\"][\"dirty\"] and j[\"candidate\"][\"commit\"] == j[\"base\"][\"commit\"]" &&
	test_json w.json "j[\"candidate\"][\"tree\"] != j[\"base\"][\"tree\"]" &&
	src=$(ls -d wd/run-*/v/c00) &&
	test_grep "local edit" "$src/main.c" &&
	test -f "$src/added.c" &&
	! test -e "$src/extra.c" &&
	! test -e "$src/plumb.conf" &&
	! test -e "$src/.gitignore" &&
	rm -rf wd
'

test_expect_success 'WORKTREE leaves the repository and its index as they were' '
	git -C proj status --porcelain >status &&
	test_grep "^ M main.c" status &&
	test_grep "^D  .gitignore" status &&
	test_grep "^?? extra.c" status &&
	test_grep "^A  added.c" status &&
	git -C proj count-objects >objects.after &&
	test_cmp objects.before objects.after &&
	cksum <proj/.git/index >index.after &&
	test_cmp index.before index.after &&
	git -C proj reset -q --hard && rm -f proj/extra.c proj/added.c
'

test_expect_success PYTHON 'a clean WORKTREE is not dirty and has the tree of HEAD' '
	git -C proj status --porcelain >status &&
	test_grep_not "^ M" status &&
	run_build -c proj/plumb.conf --json --base HEAD --candidate WORKTREE >w.json &&
	test_json w.json "not j[\"candidate\"][\"dirty\"] and j[\"candidate\"][\"tree\"] == j[\"base\"][\"tree\"]"
'

# A history of releases: v1.0 and v1.1 on main, a build tag after them, a
# newer v9.9 on a branch main never merged, and main one commit further.
test_expect_success 'set up a history of release tags' '
	make_project rel &&
	(
		cd rel &&
		echo "/* 1.1 */" >>work.c &&
		GIT_COMMITTER_DATE=2026-01-03T00:00:00Z git commit -q -a -m "release 1.1" &&
		git tag -a -m "1.1" v1.1 &&
		echo "/* build */" >>work.c &&
		GIT_COMMITTER_DATE=2026-01-04T00:00:00Z git commit -q -a -m "a build" &&
		git tag build-7 &&
		git checkout -q -b side v1 &&
		echo "/* side */" >>work.c &&
		GIT_COMMITTER_DATE=2026-01-09T00:00:00Z git commit -q -a -m "elsewhere" &&
		git tag v9.9 &&
		git checkout -q main &&
		echo "/* tip */" >>work.c &&
		GIT_COMMITTER_DATE=2026-01-05T00:00:00Z git commit -q -a -m "tip"
	) &&
	write_conf rel/plumb.conf run.pads=1 run.control=false repo.releaseTags="v*"
'

test_expect_success PYTHON 'latest-tag: the newest matching tag before the candidate, recorded by its name' '
	run_build -c rel/plumb.conf --json --base latest-tag >lt.json 2>lt.err &&
	test_grep "base: latest-tag is the tag v1.1$" lt.err &&
	test "$(resolved lt.json base)" = "$(git -C rel rev-parse v1.1^{commit})" &&
	test_json lt.json "j[\"base\"][\"ref\"] == \"v1.1\"" &&
	# Without repo.releaseTags every tag counts: the build tag is newer.
	git config -f rel/plumb.conf --unset repo.releaseTags &&
	git config -f rel/plumb.conf run.base latest-tag &&
	run_build -c rel/plumb.conf --json >lt2.json 2>/dev/null &&
	test_json lt2.json "j[\"base\"][\"ref\"] == \"build-7\"" &&
	# The candidate'"'"'s own tag is not its base: the one before it is.
	run_build -c rel/plumb.conf --json --candidate v1.1 >lt3.json 2>/dev/null &&
	test_json lt3.json "j[\"base\"][\"ref\"] == \"v1\"" &&
	# Commits of one time (the project'"'"'s first two): the later one in
	# history wins; two tags of one commit: the first name.
	git -C rel tag v0.9 v1 &&
	run_build -c rel/plumb.conf --json --candidate v1.1 >lt4.json 2>/dev/null &&
	test_json lt4.json "j[\"base\"][\"ref\"] == \"v0.9\"" &&
	git -C rel tag v1.0.1 v1.1~1 &&
	run_build -c rel/plumb.conf --json --candidate v1.1 >lt5.json 2>/dev/null &&
	test_json lt5.json "j[\"base\"][\"ref\"] == \"v1.0.1\""
'

test_expect_success 'latest-tag: none before the candidate exits 3 naming the glob; never the candidate' '
	test_expect_code 3 run_build -c rel/plumb.conf --base latest-tag --candidate v1 2>err &&
	test_grep "run.base: latest-tag: no tag before the candidate .v1." err &&
	git config -f rel/plumb.conf repo.releaseTags "rc-*" &&
	test_expect_code 3 run_build -c rel/plumb.conf 2>err &&
	test_grep "no tag matching .rc-\*. before the candidate" err &&
	test_expect_code 3 run_build -c rel/plumb.conf --base v1 --candidate latest-tag 2>err &&
	test_grep "run.candidate: latest-tag chooses a base" err
'

test_expect_success PYTHON 'repo.url is mirrored into the cache, then fetched again' '
	write_conf url.conf "repo.url=file://$TRASH/proj" run.pads=1 run.control=false &&
	run_build -c url.conf --json --candidate feature >u.json &&
	test "$(resolved u.json candidate)" = "$(git -C proj rev-parse feature)" &&
	ls "$XDG_CACHE_HOME/plumb/repos" >repos &&
	test_grep "\.git$" repos &&
	(cd proj && echo "/* more */" >>work.c && git commit -q -a -m "third") &&
	run_build -c url.conf --json --candidate main >u2.json &&
	test "$(resolved u2.json candidate)" = "$(git -C proj rev-parse main)" &&
	test_json u2.json "j[\"candidate\"][\"subject\"] == \"third\"" &&
	run_build -c url.conf --json --candidate HEAD >u3.json &&
	test "$(resolved u3.json candidate)" = "$(git -C proj rev-parse main)"
'

test_expect_success 'a remote gone since the last fetch: exit 74 naming the URL, nothing built' '
	mv proj proj.away &&
	test_expect_code 74 run_build -c url.conf 2>err &&
	mv proj.away proj &&
	test_grep "^plumb: repo.url: cannot fetch .file://$TRASH/proj.: " err &&
	test_grep_not "building" err
'

test_expect_success 'a repo.url that cannot be cloned fails cleanly' '
	write_conf badurl.conf "repo.url=file://$TRASH/nothing-here" &&
	test_must_fail run_build -c badurl.conf 2>err &&
	test_grep "repo.url" err
'

test_done
