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
	test "$(wc -l <out)" = 1 &&
	test_grep "^plumb: 1 benchmark: " out &&
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
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
job = w[\"jobs\"][\"bench\"]
assert \"self-hosted\" in job[\"runs-on\"], job[\"runs-on\"]
for s in job[\"steps\"]:
    if \"run\" in s:
        print(\" \".join(s[\"run\"].split()))
" "$docs/plumb-github.yml" >runs &&
	test "$(grep -c "^plumb " runs)" -ge 2 &&
	while read r; do known_options "$r" || return 1; done <runs &&
	test_grep "^plumb run .*--fail-on slower" runs
'

test_done
