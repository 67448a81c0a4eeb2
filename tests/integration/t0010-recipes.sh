#!/bin/sh
test_description='the recipes of docs/cron.md work: the crontab line, the systemd units, the GitHub Actions workflow'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-recipes.sh"

docs="$TEST_SRCDIR/docs"
# Without systemd-analyze the verify test is skipped (missing SYSTEMD_ANALYZE).
command -v systemd-analyze >/dev/null 2>&1 && test_set_prereq SYSTEMD_ANALYZE
python3 -c "import yaml" 2>/dev/null && test_set_prereq PYYAML

test_expect_success 'docs/cron.md: the crontab line is five fields and a plumb run that works' '
	sed -n "/^\`\`\`crontab$/,/^\`\`\`$/p" "$docs/cron.md" | sed "1d;\$d" >crontab &&
	test "$(wc -l <crontab)" = 1 &&
	line=$(cat crontab) &&
	echo "$line" | cut -d " " -f 1-5 | tr " " "\n" >fields &&
	test "$(grep -c "^[0-9*/,-][0-9*/,-]*$" fields)" = 5 &&
	test_grep_not flock crontab &&
	test_grep "--wait=" crontab &&
	cmd=${line#*&& } &&
	known_options "$cmd" &&
	make_project proj &&
	write_conf proj/plumb.conf run.pads=1 run.rounds=3 run.warmupRuns=0 run.control=false &&
	(cd proj && eval "$cmd --workdir $TRASH/wd" >../out 2>../err; echo $? >../status) &&
	test "$(cat status)" = 0 &&
	! test -s out &&
	! test -s err
'

test_expect_success 'the systemd units name only options plumb has' '
	line=$(sed -n "s/^ExecStart=//p" "$docs/plumb-nightly.service") &&
	known_options "$line" &&
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
# the comment it is asked for.
wf_project() {
	mkdir -p src && (
		cd src && git init -q -b main . &&
		printf 'bench: main.c\n\t$(CC) -O1 $(LDFLAGS) -o $@ main.c\n' >Makefile &&
		cat >main.c <<-\EOF &&
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
		}
		EOF
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
