#!/bin/sh
# bench/pads.sh: do pads spread over 4 KiB find more of a benchmark's
# placement range than pads K x 16 bytes apart, for the same count?
#
# On the project's examples (interp, placement sensitive; fnv, placement
# insensitive) it makes a temporary repository and runs `plumb run` with
# the candidate the base itself (an A/A pair: both sides are the same
# code, so all 2 x PADS pad medians are draws from one placement
# distribution) under build.padOffsets = linear and = spread, SEEDS times
# each with different seeds (spread draws other offsets per seed).  Per
# example and scheme it prints the placement range found, (max - min) /
# median of the pad medians: over the first 4 pads of the base side (what
# a default 4-pad side sees) and over all 2 x PADS pads, as the median
# and the largest over the seeds, with the time per run.
#
#   bench/pads.sh [-n SEEDS] [-p PADS] [-r ROUNDS] [-e EXAMPLES] [PLUMB]
#
# Defaults: 3 seeds, 4 pads, 5 rounds, "interp fnv".  Needs python3, git,
# make and cc; everything is generated under a temporary folder, removed
# at the end.  The machine's load during the runs is printed last.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
seeds=3 pads=4 rounds=5 examples="interp fnv"
while getopts n:p:r:e: opt; do
	case $opt in
	n) seeds=$OPTARG ;;
	p) pads=$OPTARG ;;
	r) rounds=$OPTARG ;;
	e) examples=$OPTARG ;;
	*) echo "usage: bench/pads.sh [-n SEEDS] [-p PADS] [-r ROUNDS] [-e EXAMPLES] [PLUMB]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PLUMB=${1:-$here/plumb}
for t in python3 git make cc; do
	command -v $t >/dev/null 2>&1 || { echo "pads.sh: needs $t" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/plumb-pads.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export PLUMB PADS_SRC="$here/examples" PADS_WORK="$work" PADS_SEEDS="$seeds" PADS_N="$pads" \
	PADS_ROUNDS="$rounds" PADS_EXAMPLES="$examples" XDG_CACHE_HOME="$work/cache" \
	GIT_AUTHOR_NAME=pads GIT_AUTHOR_EMAIL=pads@example.com GIT_COMMITTER_NAME=pads \
	GIT_COMMITTER_EMAIL=pads@example.com LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS 2>/dev/null || true

python3 - <<'PY'
import json, os, shutil, statistics, subprocess, sys, time

PLUMB = os.environ["PLUMB"]
SRC = os.environ["PADS_SRC"]
WORK = os.environ["PADS_WORK"]
SEEDS = int(os.environ["PADS_SEEDS"])
PADS = int(os.environ["PADS_N"])
ROUNDS = int(os.environ["PADS_ROUNDS"])
EXAMPLES = os.environ["PADS_EXAMPLES"].split()
EX = {"interp": ("interp", "2000000", "run"), "fnv": ("fnv", "600", "hash_all")}
loads = []


def load():
    with open("/proc/loadavg") as f:
        loads.append(float(f.read().split()[0]))


def sh(*cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def rng(v):
    return (max(v) - min(v)) / statistics.median(v)


print("plumb pad offsets: A/A runs, %d pads per side, %d rounds, %d seeds per scheme"
      % (PADS, ROUNDS, SEEDS))
print("placement range found = (max - min) / median of the pad medians")
print("  %-7s %-7s %20s %20s %8s" % ("example", "offsets", "first 4 base pads",
                                    "all %d pads" % (2 * PADS), "s/run"))
print("  %-7s %-7s %20s %20s" % ("", "", "median / largest", "median / largest"))
load()
for name in EXAMPLES:
    art, args, hot = EX[name]
    repo = os.path.join(WORK, "repo-" + name)
    shutil.copytree(os.path.join(SRC, name), repo)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write(art + "\n*.o\n")
    sh("git", "init", "-q", "-b", "main", ".", cwd=repo)
    sh("git", "add", "-A", cwd=repo)
    sh("git", "commit", "-q", "-m", "base", cwd=repo)
    for scheme in ("linear", "spread"):
        conf = os.path.join(WORK, "%s-%s.conf" % (name, scheme))
        with open(conf, "w") as f:
            f.write("[repo]\n\tpath = %s\n[run]\n\tbase = HEAD\n\tcandidate = HEAD\n\tpads = %d\n"
                    "\trounds = %d\n\twarmupRuns = 1\n[build]\n\tcommand = make bench\n"
                    "\tartifact = %s\n\tpadOffsets = %s\n[bench \"%s\"]\n\tcommand = {artifact} %s\n"
                    "\thot = %s\n" % (repo, PADS, ROUNDS, art, scheme, name, args, hot))
        first, whole, took = [], [], []
        for seed in range(1, SEEDS + 1):
            sh("git", "config", "-f", conf, "run.seed", str(seed))
            out = os.path.join(WORK, "b.plumb")
            dest = os.path.join(WORK, "b")
            load()
            a = time.monotonic()
            sh(PLUMB, "run", "-c", conf, "-o", out, "--workdir", os.path.join(WORK, "wd"))
            took.append(time.monotonic() - a)
            load()
            sh(PLUMB, "bundle", "extract", out, dest)
            b = json.load(open(os.path.join(dest, "manifest.json")))["benches"][0]["sides"]
            shutil.rmtree(dest)
            os.unlink(out)
            first.append(rng(b["base"]["pads"][:4]))
            whole.append(rng(b["base"]["pads"] + b["candidate"]["pads"]))
        print("  %-7s %-7s %9.1f%% / %6.1f%% %9.1f%% / %6.1f%% %8.1f" % (
            name, scheme, 100 * statistics.median(first), 100 * max(first),
            100 * statistics.median(whole), 100 * max(whole), statistics.mean(took)))
        sys.stdout.flush()
print()
print("load average (1 min) during the runs: min %.2f, median %.2f, max %.2f on %d CPUs"
      % (min(loads), statistics.median(loads), max(loads), os.cpu_count()))
PY
