#!/bin/sh
test_description='the recipes of docs/fleet.md run: the cron line, the Slurm job array on a one-node cluster started here, the GitHub Actions matrix parses; each ends with plumb archive push'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-recipes.sh"

doc="$TEST_SRCDIR/docs/fleet.md"
python3 -c "import yaml" 2>/dev/null && test_set_prereq PYYAML
command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# The recipes call plumb by name, as a crontab or a batch script does.
mkdir bin && ln -s "$PLUMB" bin/plumb
PATH="$TRASH/bin:$PATH"
export PATH

# proj: a project of one benchmark, measured quickly.
test_expect_success 'a project to measure' '
	make_project proj &&
	write_conf proj/plumb.conf run.pads=1 run.rounds=3 run.warmupRuns=0 run.control=false
'

# ---- cron ----

test_expect_success SQLITE3 'the crontab: PLUMB_SHARED_ARCHIVE, then one line of five fields that runs, then pushes' '
	fenced "$doc" crontab >crontab &&
	test "$(grep -c "^PLUMB_SHARED_ARCHIVE=/" crontab)" = 1 &&
	grep -v "^[A-Z_]*=" crontab >line &&
	test "$(wc -l <line)" = 1 &&
	line=$(cat line) &&
	echo "$line" | cut -d " " -f 1-5 | tr " " "\n" >fields &&
	test "$(grep -c "^[0-9*/,-][0-9*/,-]*$" fields)" = 5 &&
	cmd=$(echo "$line" | cut -d " " -f 6-) &&
	case $cmd in
	"cd /srv/bench/project && "*"; plumb archive push"*) ;;
	*) echo "not cd ... && run; push: $cmd" >&2; false ;;
	esac &&
	case ${cmd##*; } in "plumb archive push"|"plumb archive push "*) ;; *) false ;; esac &&
	known_options "${cmd#*&& }" &&
	# cron runs the command with sh, the crontab variables in the environment.
	(
		PLUMB_SHARED_ARCHIVE="$TRASH/shared" PLUMB_ARCHIVE="$TRASH/local" &&
		export PLUMB_SHARED_ARCHIVE PLUMB_ARCHIVE &&
		sh -c "$(echo "$cmd" | sed "s|/srv/bench/project|$TRASH/proj|")" >out 2>err
	) &&
	! test -s out &&
	! test -s err &&
	test "$(sqlite3 shared/archive.db "SELECT id FROM bundles")" = \
		"$(sqlite3 local/archive.db "SELECT id FROM bundles")" &&
	test "$(sqlite3 shared/archive.db "SELECT count(*) FROM bundles")" = 1
'

# ---- Slurm ----

# The one-node cluster: munged with a key made here, slurmctld and slurmd
# with a slurm.conf made here, in a short folder of /tmp (socket paths are
# limited to 108 bytes), on ports nothing else uses.  Started outside a
# test: when it cannot start, the Slurm test is skipped and the reason said.
SLURM_TMP=
stop_cluster() {
	test -n "$SLURM_TMP" || return 0
	for p in slurmd slurmctld munged; do
		test -f "$SLURM_TMP/$p.pid" && kill "$(cat "$SLURM_TMP/$p.pid")" 2>/dev/null
	done
	# Give them a moment to remove their sockets and state, then the folder.
	n=0
	while test $n -lt 50 && for p in slurmd slurmctld munged; do
		test -f "$SLURM_TMP/$p.pid" && kill -0 "$(cat "$SLURM_TMP/$p.pid")" 2>/dev/null && break
	done; do
		sleep 0.1; n=$((n + 1))
	done
	rm -rf "$SLURM_TMP"
	SLURM_TMP=
}
trap stop_cluster EXIT

slurm_skip=
start_cluster() {
	for c in munged slurmctld slurmd sbatch scontrol sinfo; do
		command -v $c >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin" command -v $c >/dev/null 2>&1 ||
			{ slurm_skip="$c is not installed (Debian packages slurm-wlm and munge)"; return 1; }
	done
	PATH="$PATH:/usr/sbin:/sbin"
	test "$(id -u)" = 0 ||
		{ slurm_skip="slurmd must run as root to start jobs, and this test runs as uid $(id -u)"; return 1; }
	SLURM_TMP=$(mktemp -d /tmp/plumb-slurm.XXXXXX) || { slurm_skip="mktemp failed"; return 1; }
	d=$SLURM_TMP && mkdir "$d/state" "$d/spool" && chmod 700 "$d" &&
	head -c 1024 /dev/urandom >"$d/munge.key" && chmod 600 "$d/munge.key" &&
	munged -f --socket="$d/munge.sock" --key-file="$d/munge.key" --log-file="$d/munged.log" \
		--pid-file="$d/munged.pid" --seed-file="$d/munged.seed" 2>"$d/munged.err" ||
		{ slurm_skip="munged did not start: $(tail -n 1 "$d/munged.err" "$d/munged.log" 2>/dev/null | tr '\n' ' ')"; return 1; }
	ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))') || { slurm_skip="no free port"; return 1; }
	set -- $ports
	node=$(hostname -s) &&
	# Every class of the recipe is a feature of the one node.
	features=$(sed -n "s/^CLASSES=\${CLASSES:-\"\(.*\)\"}$/\1/p" "$TRASH/plumb-nightly.sh" | tr " " ",") &&
	test -n "$features" || { slurm_skip="docs/fleet.md: plumb-nightly.sh sets no CLASSES"; return 1; }
	cat >"$d/slurm.conf" <<-CONF
	ClusterName=plumbtest
	SlurmctldHost=$node(127.0.0.1)
	SlurmUser=root
	SlurmdUser=root
	SlurmctldPort=$1
	SlurmdPort=$2
	AuthType=auth/munge
	AuthInfo=socket=$d/munge.sock
	CredType=cred/munge
	StateSaveLocation=$d/state
	SlurmdSpoolDir=$d/spool
	SlurmctldPidFile=$d/slurmctld.pid
	SlurmdPidFile=$d/slurmd.pid
	SlurmctldLogFile=$d/slurmctld.log
	SlurmdLogFile=$d/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SchedulerType=sched/builtin
	SelectType=select/linear
	ReturnToService=2
	MpiDefault=none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SwitchType=switch/none
	NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) Features=$features State=UNKNOWN
	PartitionName=bench Nodes=ALL Default=YES MaxTime=INFINITE State=UP
	CONF
	SLURM_CONF="$d/slurm.conf" && export SLURM_CONF &&
	slurmctld -c >"$d/slurmctld.err" 2>&1 &&
	slurmd -N "$node" >"$d/slurmd.err" 2>&1 ||
		{ slurm_skip="slurmctld or slurmd did not start: $(tail -n 2 "$d"/*.err "$d"/*.log 2>/dev/null | tr '\n' ' ')"; return 1; }
	n=0
	while test "$(sinfo -h -o %T 2>/dev/null)" != idle; do
		n=$((n + 1))
		test $n -le 300 ||
			{ slurm_skip="the node did not come up in 30 s: $(tail -n 2 "$d"/slurm*.log | tr '\n' ' ')"; return 1; }
		sleep 0.1
	done
}

fenced "$doc" "sh plumb-nightly.sbatch" >plumb-nightly.sbatch.doc
fenced "$doc" "sh plumb-nightly.sh" >plumb-nightly.sh
sed "s|/srv/bench/project|$TRASH/proj|" plumb-nightly.sbatch.doc >plumb-nightly.sbatch
if start_cluster; then
	test_set_prereq SLURM
else
	say "the Slurm test is skipped: $slurm_skip"
fi

test_expect_success 'the Slurm recipe: an array held, one task per class with its feature, exclusive nodes, a push at the end' '
	test -s plumb-nightly.sbatch.doc && test -s plumb-nightly.sh &&
	test_grep "^#SBATCH --exclusive$" plumb-nightly.sbatch.doc &&
	test_grep "sbatch --parsable --hold --array=0-" plumb-nightly.sh &&
	test_grep "scontrol update JobId=.* Features=" plumb-nightly.sh &&
	test_grep "^scontrol release " plumb-nightly.sh &&
	grep "^plumb " plumb-nightly.sbatch.doc >plumb-lines &&
	test "$(sed -n "\$p" plumb-lines | cut -d " " -f 1-3)" = "plumb archive push" &&
	while read l; do known_options "$l" || return 1; done <plumb-lines
'

test_expect_success SLURM,SQLITE3 'the Slurm array runs on a one-node cluster: every class measured and pushed' '
	rm -rf local shared &&
	PLUMB_ARCHIVE="$TRASH/local" PLUMB_SHARED_ARCHIVE="$TRASH/shared" &&
	export PLUMB_ARCHIVE PLUMB_SHARED_ARCHIVE &&
	job=$(sh plumb-nightly.sh) &&
	test -n "$job" &&
	sbatch --wait --dependency=afterany:"$job" --wrap=true --output=/dev/null >/dev/null &&
	classes=$(sed -n "s/^CLASSES=\${CLASSES:-\"\(.*\)\"}$/\1/p" plumb-nightly.sh) &&
	n=$(echo $classes | wc -w) &&
	scontrol show job "$job" >job.txt &&
	cat plumb-nightly-*.log >&2 &&
	test "$(grep -c "JobState=COMPLETED" job.txt)" = $n &&
	test "$(grep -c "ExitCode=0:0" job.txt)" = $n &&
	test "$(sqlite3 shared/archive.db "SELECT count(*) FROM bundles")" = $n &&
	sqlite3 shared/archive.db "SELECT value FROM labels WHERE key = '\''class'\'' ORDER BY value" >got &&
	for c in $classes; do echo $c; done | sort >want &&
	test_cmp want got &&
	plumb archive verify --archive-dir shared >/dev/null
'
stop_cluster

# ---- GitHub Actions ----

test_expect_success PYYAML 'the GitHub Actions matrix parses: one job per class on its runner label, pushing at the end' '
	fenced "$doc" yaml >fleet.yml &&
	python3 - fleet.yml >runs <<-\PY &&
	import sys, yaml
	w = yaml.safe_load(open(sys.argv[1]))
	job = w["jobs"]["bench"]
	classes = job["strategy"]["matrix"]["class"]
	assert len(classes) >= 2, classes
	assert "self-hosted" in job["runs-on"], job["runs-on"]
	assert any("${{ matrix.class }}" in l for l in job["runs-on"]), job["runs-on"]
	runs = [s for s in job["steps"] if "run" in s]
	last = runs[-1]
	assert last["run"].split()[:3] == ["plumb", "archive", "push"], last
	assert "always()" in last.get("if", ""), last
	for s in runs:
	    print(" ".join(s["run"].split()))
	PY
	test "$(grep -c "^plumb " runs)" -ge 3 &&
	while read r; do known_options "$r" || return 1; done <runs
'

test_done
