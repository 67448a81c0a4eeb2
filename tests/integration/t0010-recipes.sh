#!/bin/sh
test_description='the recipes of docs/cron.md work: the crontab line, the systemd units, the GitHub Actions workflow'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-recipes.sh"

docs="$TEST_SRCDIR/docs"
# Without systemd-analyze the verify test is skipped (missing SYSTEMD_ANALYZE).
command -v systemd-analyze >/dev/null 2>&1 && test_set_prereq SYSTEMD_ANALYZE
python3 -c "import yaml" 2>/dev/null && test_set_prereq PYYAML

test_expect_success 'docs/cron.md: the crontab line is five fields and commands plumb has' '
	fenced "$docs/cron.md" crontab >crontab &&
	test "$(wc -l <crontab)" = 1 &&
	line=$(cat crontab) &&
	echo "$line" | cut -d " " -f 1-5 | tr " " "\n" >fields &&
	test "$(grep -c "^[0-9*/,-][0-9*/,-]*$" fields)" = 5 &&
	echo "$line" | cut -d " " -f 6- >cron-cmd &&
	test_grep_not flock crontab &&
	test_grep "plumb run .*--wait=" crontab &&
	test_grep "git pull -q --ff-only && plumb run " crontab &&
	test_grep "; plumb report --archive-index -o " crontab &&
	known_options "$(cat cron-cmd)"
'

# The benchmark of the recipes' projects: twice the work when n doubles.
WORK_C='
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) long work(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += (s ^ i) * 7 + 1;
	return s;
}
int main(int argc, char **argv)
{
	long n = 8000000;
	printf("%ld\n", work(argc > 1 ? atol(argv[1]) : n));
	return 0;
}'
# The nights' project: a remote (norigin.git) with a release tag v1 and a
# commit after it, and a checkout of it where cron runs; nsrc is where its
# developers commit and push.  night N runs the crontab command in the
# checkout as cron does (sh -c), the recipe's folders moved here.
night_project() {
	mkdir -p nsrc && (
		cd nsrc && git init -q -b main . &&
		printf 'bench: main.c\n\t$(CC) -O1 $(LDFLAGS) -o $@ main.c\n' >Makefile &&
		printf "%s\n" "$WORK_C" >main.c &&
		printf 'bench\n' >.gitignore &&
		cat >plumb.conf <<-\EOF &&
		[repo]
			releaseTags = v*
		[run]
			pads = 6
			rounds = 3
			warmupRuns = 0
			control = false
		[build]
			command = make LDFLAGS='{pad_ldflags}' bench
			artifact = bench
		[bench "work"]
			command = {artifact}
		EOF
		git add -A && git commit -q -m "release 1" && git tag v1 &&
		echo "/* a comment */" >>main.c && git commit -q -a -m "a clean change"
	) &&
	git clone -q --bare nsrc norigin.git &&
	git -C nsrc remote add origin "$TRASH/norigin.git" &&
	git clone -q norigin.git checkout
}

# in_cron DIR SITE CMDFILE: the command of CMDFILE run as cron runs it, in
# DIR for /srv/bench/project and writing the site to SITE, with plumb on
# PATH.
in_cron() {
	ic_=$(sed "s|/srv/bench/project|$1|; s|/srv/www/bench|$2|" "$3") &&
	(cd "$1" && PATH="$(dirname "$PLUMB"):$PATH" sh -c "$ic_")
}

night() {
	in_cron "$TRASH/checkout" "$TRASH/site" cron-cmd >night$1.out 2>night$1.err
}

# newest EXPR: EXPR (Python, on the newest archived bundle b of archive
# list --json, all of them in l).
newest() {
	plumb archive list --json >list.json &&
	python3 -c "import json
l = json.load(open(\"list.json\"))
b = max(l, key=lambda b: b[\"created\"])
print($1)"
}

test_expect_success PYTHON 'the crontab line, night 1: clean, silent, nothing left in the checkout, archived, the site written' '
	night_project &&
	night 1 &&
	! test -s night1.out && ! test -s night1.err &&
	git -C checkout status --porcelain --ignored >left &&
	test_grep_not "plumb" left &&
	test "$(newest "len(l)")" = 1 &&
	test "$(newest "b[\"base\"][\"ref\"]")" = v1 &&
	test "$(newest "b[\"candidate\"][\"commit\"]")" = "$(git -C nsrc rev-parse HEAD)" &&
	test -f site/index.html && cp site/index.html index1.html
'

# The slowdown is a sleep of 200 ms a run: slower even on a machine loaded
# far beyond its CPUs, where twice the work can drown in the noise.
test_expect_success PYTHON 'night 2: the pull brings the commit the remote gained; its slowdown is mailed, the site made' '
	(cd nsrc && sed "s/^#include <stdlib.h>$/&\n#include <unistd.h>/; s/long n = 8000000;/& usleep(200000);/" \
		main.c >m && mv m main.c && grep -q "usleep(200000);" main.c &&
	 git commit -q -a -m "a sleep in main" && git push -q origin main) &&
	night 2 &&
	test_grep "^plumb: 1 benchmark: 1 slower$" night2.out &&
	test "$(wc -l <night2.out)" = 1 &&
	test_grep "^plumb: 1 benchmark slower (--fail-on slower.*): work$" night2.err &&
	test "$(newest "b[\"candidate\"][\"commit\"]")" = "$(git -C nsrc rev-parse HEAD)" &&
	test "$(newest "b[\"base\"][\"ref\"]")" = v1 &&
	! cmp -s index1.html site/index.html &&
	test_grep "v-slower" site/index.html
'

test_expect_success PYTHON 'night 3: a release is tagged, and the base moves on to it' '
	(cd nsrc && git tag v2 && echo "/* after 2 */" >>main.c &&
	 git commit -q -a -m "after the release" && git push -q --tags origin main) &&
	night 3 &&
	! test -s night3.out && ! test -s night3.err &&
	test "$(newest "b[\"base\"][\"ref\"]")" = v2 &&
	test "$(newest "b[\"base\"][\"commit\"]")" = "$(git -C nsrc rev-parse v2)" &&
	test "$(newest "b[\"candidate\"][\"commit\"]")" = "$(git -C nsrc rev-parse HEAD)"
'

test_expect_success PYTHON 'with repo.url, the line without the pull: plumb fetches what the remote gained' '
	mkdir urlnight &&
	{ printf "[repo]\n\turl = file://%s/norigin.git\n" "$TRASH" &&
	  sed "/^\[repo\]/d; s/pads = 6/pads = 1/" nsrc/plumb.conf; } >urlnight/plumb.conf &&
	sed "s|git pull -q --ff-only && ||" cron-cmd >url-cmd &&
	test_grep_not "git pull" url-cmd &&
	(
		XDG_DATA_HOME="$TRASH/urldata" && export XDG_DATA_HOME &&
		in_cron "$TRASH/urlnight" "$TRASH/urlsite" url-cmd >u1.out 2>u1.err &&
		! test -s u1.out && ! test -s u1.err &&
		(cd nsrc && echo "/* more */" >>main.c && git commit -q -a -m "more" && git push -q origin main) &&
		in_cron "$TRASH/urlnight" "$TRASH/urlsite" url-cmd >u2.out 2>u2.err &&
		! test -s u2.out && ! test -s u2.err &&
		# Two nights a second apart may share their creation time.
		test "$(newest "len(l)")" = 2 &&
		newest "[x[\"candidate\"][\"commit\"] for x in l]" >cands &&
		test_grep "$(git -C nsrc rev-parse HEAD)" cands &&
		test_grep "$(git -C nsrc rev-parse HEAD~1)" cands
	) &&
	test -f urlsite/index.html &&
	test "$(ls urlnight)" = plumb.conf
'

test_expect_success 'the systemd units name only options plumb has, in commands systemd runs without a shell' '
	sed -n "s/^Exec[A-Za-z]*=//p" "$docs/plumb-nightly.service" >execs &&
	test "$(wc -l <execs)" = 3 &&
	while read l; do
		case $l in *[\|\&\;\<\>\$\`]*) echo "a shell word: $l" >&2; return 1 ;; esac
		case $l in */plumb\ *) known_options "$l" || return 1 ;; esac
	done <execs &&
	test_grep "^Unit=plumb-nightly.service$" "$docs/plumb-nightly.timer" &&
	# The check itself can fail: an option plumb does not have.
	! known_options "plumb run --wait --nightly" 2>/dev/null &&
	! known_options "plumb host --check --allowed virt" 2>/dev/null
'

test_expect_success SYSTEMD_ANALYZE 'systemd-analyze verify accepts the service and the timer' '
	sed "s|/usr/local/bin/plumb|$PLUMB|" "$docs/plumb-nightly.service" >plumb-nightly.service &&
	cp "$docs/plumb-nightly.timer" . &&
	systemd-analyze verify --man=no ./plumb-nightly.service ./plumb-nightly.timer &&
	# ... and refuses a broken one: the check can fail.
	sed "s/^OnCalendar=.*/OnCalendar=nightly-ish/" "$docs/plumb-nightly.timer" >plumb-nightly.timer &&
	test_must_fail systemd-analyze verify --man=no ./plumb-nightly.service ./plumb-nightly.timer
'

# unit_step KEY: the service's KEY= command run as systemd runs it (no
# shell: its words), in its WorkingDirectory, the recipe's folders moved
# here; prints its exit status.
unit_step() {
	c=$(sed -n "s/^$1=//p" "$docs/plumb-nightly.service" |
		sed "s|/usr/local/bin/plumb|$PLUMB|; s|/usr/bin/git|git|; s|/srv/www/bench|$TRASH/unitsite|")
	d=$(sed -n "s/^WorkingDirectory=//p" "$docs/plumb-nightly.service" |
		sed "s|/srv/bench/project|$TRASH/checkout|")
	(cd "$d" && $c >>"$TRASH/unit.out" 2>>"$TRASH/unit.err"; echo $?)
}

test_expect_success PYTHON 'the service, step by step on night 4: pull, run, then the site' '
	(cd nsrc && echo "/* night 4 */" >>main.c && git commit -q -a -m "night 4" && git push -q origin main) &&
	test "$(unit_step ExecStartPre)" = 0 &&
	test "$(git -C checkout rev-parse HEAD)" = "$(git -C nsrc rev-parse HEAD)" &&
	test "$(unit_step ExecStart)" = 0 &&
	! test -s unit.out && ! test -s unit.err &&
	test "$(newest "b[\"base\"][\"ref\"]")" = v2 &&
	test "$(newest "b[\"candidate\"][\"commit\"]")" = "$(git -C nsrc rev-parse HEAD)" &&
	test "$(unit_step ExecStopPost)" = 0 &&
	test -f unitsite/index.html &&
	git -C checkout status --porcelain --ignored >left &&
	test_grep_not "plumb" left
'

test_expect_success PYYAML 'the GitHub Actions workflow parses and runs plumb commands that exist' '
	python3 -c "
import re, sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
job = w[\"jobs\"][\"bench\"]
assert \"self-hosted\" in job[\"runs-on\"], job[\"runs-on\"]
for s in job[\"steps\"]:
    for l in s.get(\"run\", \"\").strip().split(\"\\n\"):
        l = \" \".join(l.split())
        if l.startswith(\"plumb \"):
            print(re.split(r\" (?:>|[|][|]|&&|[|])\", l)[0])
" "$docs/plumb-github.yml" >runs &&
	test "$(grep -c "^plumb " runs)" -ge 2 &&
	while read r; do known_options "$r" || return 1; done <runs &&
	test_grep "^plumb run .*--fail-on slower" runs
'

# A repository on a "remote", with a pull request's branch: the workflow's
# steps run in a clone of it as a runner runs them, with a gh that records
# the comment it is asked for.  The benchmark is timed by its CPU time,
# which a machine loaded beyond its CPUs (the suite's own jobs) moves far
# less than the wall time: twice the work once drowned in the wall's noise.
wf_project() {
	mkdir -p src && (
		cd src && git init -q -b main . &&
		printf 'bench: main.c\n\t$(CC) -O1 $(LDFLAGS) -o $@ main.c\n' >Makefile &&
		printf "%s\n" "$WORK_C" >main.c &&
		printf 'bench\n*.plumb\n*.html\n*.md\ngithub-env\n' >.gitignore &&
		cat >plumb.conf <<-\EOF &&
		[run]
			base = HEAD~1
			pads = 6
			rounds = 3
			warmupRuns = 0
			control = false
		[build]
			command = make LDFLAGS='{pad_ldflags}' bench
			artifact = bench
		[bench "work"]
			command = {artifact}
			metric = cpu
		EOF
		git add -A && git commit -q -m base &&
		git checkout -q -b clean && echo "/* a comment */" >>main.c &&
		git commit -q -a -m "a clean change" &&
		git checkout -q -b slow main &&
		sed "s/long n = 8000000;/long n = 16000000;/" main.c >m && mv m main.c &&
		git commit -q -a -m "twice the work" &&
		git checkout -q main
	) &&
	git clone -q --bare src origin.git &&
	mkdir -p bin && cat >bin/gh <<-\EOF &&
	#!/bin/sh
	echo "gh $*" >>"$GH_LOG"
	case " $* " in *" --body-file "*) f=$(echo "$*" | sed "s/.*--body-file \([^ ]*\).*/\1/"); cp "$f" "$GH_LOG.body" ;; esac
	EOF
	chmod +x bin/gh
}

test_expect_success PYYAML 'the workflow, step by step on a pull request: a clean change passes and is commented' '
	wf_project &&
	git clone -q -b clean origin.git ws &&
	(cd ws && PATH="$TRASH/bin:$(dirname "$PLUMB"):$PATH" GH_LOG="$TRASH/gh.log" XDG_CACHE_HOME="$TRASH/cache" \
		python3 "$TEST_SRCDIR/tests/integration/run-workflow.py" \
		"$TEST_SRCDIR/docs/plumb-github.yml" pull_request >../steps 2>../err) &&
	test_grep "^step Compare: 0$" steps &&
	test_grep "^gh pr comment 7 --body-file plumb.md --edit-last" gh.log &&
	test_grep "work" gh.log.body &&
	test -s ws/step-summary.md &&
	base=$(git -C src rev-parse main) &&
	grep -q "^PLUMB_BASE=$base$" ws/github-env
'

test_expect_success PYYAML 'the same workflow on a planted slowdown: the job fails (1), the comment is still made' '
	rm -f gh.log gh.log.body &&
	git clone -q -b slow origin.git ws2 &&
	(cd ws2 && PATH="$TRASH/bin:$(dirname "$PLUMB"):$PATH" GH_LOG="$TRASH/gh.log" XDG_CACHE_HOME="$TRASH/cache" \
		python3 "$TEST_SRCDIR/tests/integration/run-workflow.py" \
		"$TEST_SRCDIR/docs/plumb-github.yml" pull_request >../steps2 2>../err2; echo $? >../status) &&
	echo 1 >expect && test_cmp expect status &&
	test_grep "^step Compare: 1$" steps2 &&
	test_grep "^step Comment on the pull request: 0$" steps2 &&
	test_grep "slower" gh.log.body
'

test_expect_success PYYAML 'on a push to main the parent is the base' '
	git clone -q -b clean origin.git ws3 &&
	(cd ws3 && PATH="$TRASH/bin:$(dirname "$PLUMB"):$PATH" XDG_CACHE_HOME="$TRASH/cache" python3 "$TEST_SRCDIR/tests/integration/run-workflow.py" \
		"$TEST_SRCDIR/docs/plumb-github.yml" push >../steps3 2>../err3) &&
	parent=$(git -C src rev-parse clean~1) &&
	grep -q "^PLUMB_BASE=$parent$" ws3/github-env &&
	test_grep "^step Comment on the pull request: skipped$" steps3
'

test_done
