#!/bin/sh
# bench/truth.sh: does plumb's verdict tell the truth?  On the project's own
# examples (interp, placement sensitive; fnv, placement insensitive) it
# makes temporary git repositories holding, against the example as base:
#
#   aa        an empty commit (the same code: any slower/faster is false)
#   moved     an uncalled function added before the hot function (the hot
#             code moves, its instructions do not: slower/faster is false)
#   slow2 .. slow20   extra work in the hot loop, calibrated on this host
#             to cost 2, 5, 10 and 20% of the base's time (the true cost of
#             each planted build is measured and printed)
#
# and runs `plumb run` on each REPS times with different seeds.  Every
# bundle is judged three times from the same samples: the run's own verdict
# (the margin rule, v2, with hot-code identity), `plumb analyze` of its
# samples.tsv (the margin rule on the timings alone, no hot code), and
# `plumb analyze --rule overlap` (the seeds' rule, v1).  It prints a table
# per example and kind: the verdicts under each rule, the median smallest
# detectable change the run reported, and the time per comparison; then
# the false calls per pair kind and the detection rate per planted size.
#
# With -A every comparison is also run as an adaptive sweep (run.pads =
# auto, the same seed, run.maxPads and run.budget at their defaults, or -m
# MAXPADS), judged by its own run, and a second table compares the two
# sweeps: decided cases (a verdict the adaptive sweep would not extend:
# slower, faster, placement with overlapping pad medians or identical hot
# code), planted slowdowns called slower, false calls, the median smallest
# detectable change, pads per side, and the time per comparison of each.
#
#   bench/truth.sh [-n REPS] [-p PADS] [-r ROUNDS] [-e EXAMPLES] [-k KINDS] [-A] [-m MAXPADS] [PLUMB]
#
#   -n REPS      comparisons per example and kind (default 20)
#   -p PADS      run.pads (default 4)
#   -r ROUNDS    run.rounds (default 10)
#   -e EXAMPLES  space-separated subset of "interp fnv"
#   -k KINDS     space-separated subset of "aa moved slow2 slow5 slow10 slow20"
#
# A short look: bench/truth.sh -n 3 -r 5.  The machine's load average
# during the measurement is printed at the end: figures taken on a busy
# host say so.  Everything is generated under a temporary folder, removed
# at the end.  Needs python3, git, make and cc.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
reps=20 pads=4 rounds=10 examples="interp fnv" kinds="aa moved slow2 slow5 slow10 slow20"
adaptive=0 maxpads=12
while getopts n:p:r:e:k:Am: opt; do
	case $opt in
	n) reps=$OPTARG ;;
	p) pads=$OPTARG ;;
	r) rounds=$OPTARG ;;
	e) examples=$OPTARG ;;
	k) kinds=$OPTARG ;;
	A) adaptive=1 ;;
	m) maxpads=$OPTARG ;;
	*) echo "usage: bench/truth.sh [-n REPS] [-p PADS] [-r ROUNDS] [-e EXAMPLES] [-k KINDS] [-A] [-m MAXPADS] [PLUMB]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PLUMB=${1:-$here/plumb}
for t in python3 git make cc; do
	command -v $t >/dev/null 2>&1 || { echo "truth.sh: needs $t" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/plumb-truth.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export PLUMB TRUTH_SRC="$here/examples" TRUTH_WORK="$work" TRUTH_REPS="$reps" \
	TRUTH_PADS="$pads" TRUTH_ROUNDS="$rounds" TRUTH_EXAMPLES="$examples" TRUTH_KINDS="$kinds" \
	TRUTH_ADAPTIVE="$adaptive" TRUTH_MAXPADS="$maxpads" \
	XDG_CACHE_HOME="$work/cache" GIT_AUTHOR_NAME=truth GIT_AUTHOR_EMAIL=truth@example.com \
	GIT_COMMITTER_NAME=truth GIT_COMMITTER_EMAIL=truth@example.com LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS 2>/dev/null || true

python3 - <<'PY'
import json, os, shutil, statistics, subprocess, sys, time

PLUMB = os.environ["PLUMB"]
SRC = os.environ["TRUTH_SRC"]
WORK = os.environ["TRUTH_WORK"]
REPS = int(os.environ["TRUTH_REPS"])
PADS = int(os.environ["TRUTH_PADS"])
ROUNDS = int(os.environ["TRUTH_ROUNDS"])
EXAMPLES = os.environ["TRUTH_EXAMPLES"].split()
KINDS = os.environ["TRUTH_KINDS"].split()
ADAPTIVE = os.environ["TRUTH_ADAPTIVE"] == "1"
MAXPADS = int(os.environ["TRUTH_MAXPADS"])

# Per example: its files, the command, the hot function, where an uncalled
# function goes (before the hot function's definition) and where the
# planted work goes (a statement in the hot loop; DELAY is replaced by a
# calibrated count of empty asm iterations).
EX = {
    "interp": dict(
        src="interp", file="interp.c", artifact="interp", args="2000000", hot="run",
        before="__attribute__((noinline)) uint64_t run(",
        anchor="case OP_JNZ:  if (reg[i->a] != 0) pc = code + i->imm; break;",
        plant="case OP_JNZ:  for (unsigned k_ = 0; k_ < DELAY; k_++) __asm__ volatile(\"\"); "
              "if (reg[i->a] != 0) pc = code + i->imm; break;",
        probe=20),
    "fnv": dict(
        src="fnv", file="fnv.c", artifact="fnv", args="600", hot="hash_all",
        before="__attribute__((noinline)) uint64_t hash_all(",
        anchor="\t\tfor (size_t i = 0; i < size; i++) {",
        plant="\t\tfor (unsigned k_ = 0; k_ < DELAY; k_++) __asm__ volatile(\"\");\n"
              "\t\tfor (size_t i = 0; i < size; i++) {",
        probe=20000),
}
UNUSED = ("__attribute__((noinline, used)) static unsigned long truth_unused(unsigned long x)\n"
          "{\n\treturn x * 2654435761ul + (x >> 7) * 40503ul;\n}\n\n")
SIZES = {"slow2": 0.02, "slow5": 0.05, "slow10": 0.10, "slow20": 0.20}

loads = []


def load():
    with open("/proc/loadavg") as f:
        loads.append(float(f.read().split()[0]))


def sh(*cmd, cwd=None, check=True):
    return subprocess.run(cmd, cwd=cwd, check=check, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def timed(binary, args, n=15):
    """The fastest of n runs: CPU-bound work, so the minimum is the least
    disturbed by whatever else the machine runs."""
    t = []
    for _ in range(n):
        a = time.monotonic_ns()
        subprocess.run([binary] + args.split(), check=True, stdout=subprocess.DEVNULL)
        t.append(time.monotonic_ns() - a)
    return min(t)


def build_copy(ex, text, name):
    d = os.path.join(WORK, "cal", name)
    shutil.copytree(os.path.join(SRC, ex["src"]), d)
    with open(os.path.join(d, ex["file"]), "w") as f:
        f.write(text)
    sh("make", "-s", "bench", cwd=d)
    return os.path.join(d, ex["artifact"])


def planted(text, ex, delay):
    assert ex["anchor"] in text, ex["anchor"]
    return text.replace(ex["anchor"], ex["plant"].replace("DELAY", "%du" % delay), 1)


def calibrate(name, ex, base_text):
    """The delay count costing each planted fraction of the base's time."""
    b0 = build_copy(ex, base_text, name + "-0")
    b1 = build_copy(ex, planted(base_text, ex, ex["probe"]), name + "-probe")
    t0 = timed(b0, ex["args"])
    t1 = timed(b1, ex["args"])
    per = (t1 - t0) / ex["probe"]
    out = {}
    for kind, frac in SIZES.items():
        d = max(1, round(frac * t0 / per)) if per > 0 else 1
        bd = build_copy(ex, planted(base_text, ex, d), "%s-%s" % (name, kind))
        out[kind] = (d, timed(bd, ex["args"]) / timed(b0, ex["args"]) - 1)
    return out


def git(repo, *args):
    return sh("git", *args, cwd=repo)


def make_repo(name, ex, cal):
    repo = os.path.join(WORK, "repo-" + name)
    shutil.copytree(os.path.join(SRC, ex["src"]), repo)
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write(ex["artifact"] + "\n*.o\n")
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    path = os.path.join(repo, ex["file"])
    base_text = open(path).read()
    for kind in KINDS:
        git(repo, "checkout", "-q", "-b", kind, "base")
        if kind == "aa":
            git(repo, "commit", "-q", "--allow-empty", "-m", "empty")
        else:
            if kind == "moved":
                assert ex["before"] in base_text
                text = base_text.replace(ex["before"], UNUSED + ex["before"], 1)
            else:
                text = planted(base_text, ex, cal[kind][0])
            with open(path, "w") as f:
                f.write(text)
            git(repo, "commit", "-q", "-a", "-m", kind)
    git(repo, "checkout", "-q", "main")
    conf = os.path.join(WORK, name + ".conf")
    with open(conf, "w") as f:
        f.write("[repo]\n\tpath = %s\n[run]\n\tbase = base\n\tpads = %d\n\trounds = %d\n"
                "\twarmupRuns = 1\n[build]\n\tcommand = make bench\n\tartifact = %s\n"
                "[bench \"%s\"]\n\tcommand = {artifact} %s\n\thot = %s\n"
                % (repo, PADS, ROUNDS, ex["artifact"], name, ex["args"], ex["hot"]))
    return conf


def decided(b):
    """Would the adaptive sweep leave this verdict alone (stats_undecided())?"""
    v = b["verdict"]
    if v in ("noisy", "unswept"):
        return False
    if v == "insufficient":
        return "too few rounds" not in b.get("reason", "") and "rounds (fewer" not in b.get("reason", "")
    if v == "placement" and b.get("reason") == "ranges overlap":
        bs, cs = b["sides"]["base"], b["sides"]["candidate"]
        return not (bs["max"] < cs["min"] or cs["max"] < bs["min"])
    return True


def compare(conf, kind, seed, tag, auto=False):
    out = os.path.join(WORK, tag + ".plumb")
    dest = os.path.join(WORK, tag)
    sh("git", "config", "-f", conf, "run.seed", str(seed))
    load()
    a = time.monotonic()
    extra = ["--pads", "auto"] if auto else []
    if auto:
        sh("git", "config", "-f", conf, "run.maxPads", str(MAXPADS))
    r = sh(PLUMB, "run", "-c", conf, "--candidate", kind, "-o", out,
           "--workdir", os.path.join(WORK, "wd"), *extra, check=False)
    if auto:
        sh("git", "config", "-f", conf, "--unset", "run.maxPads")
    took = time.monotonic() - a
    load()
    if r.returncode != 0:
        sys.stderr.write("truth.sh: plumb run failed (%d): %s\n" % (r.returncode, r.stderr.strip()))
        return None
    sh(PLUMB, "bundle", "extract", out, dest)
    man = json.load(open(os.path.join(dest, "manifest.json")))
    b = man["benches"][0]
    pads_used = man["run"].get("sweep", {}).get("pads", len(b["sides"]["base"]["pads"]))
    ov = json.loads(sh(PLUMB, "analyze", "--json", "--rule", "overlap",
                       os.path.join(dest, "samples.tsv")).stdout)
    old = [x["verdict"] for x in ov["results"] if x["metric"] == b["metric"]][0]
    mg = json.loads(sh(PLUMB, "analyze", "--json", os.path.join(dest, "samples.tsv")).stdout)
    stat = [x["verdict"] for x in mg["results"] if x["metric"] == b["metric"]][0]
    spread = max(b["sides"]["base"].get("spread", 0), b["sides"]["candidate"].get("spread", 0))
    shutil.rmtree(dest)
    os.unlink(out)
    return dict(new=b["verdict"], old=old, stat=stat, detect=b.get("detectable", {}).get("slower"),
                spread=spread, reason=b.get("reason", ""), took=took, decided=decided(b),
                pads=pads_used)


VERDICTS = ["slower", "faster", "placement", "noisy", "unswept", "insufficient"]


def count(rows, key):
    c = {v: 0 for v in VERDICTS}
    for r in rows:
        c[r[key]] = c.get(r[key], 0) + 1
    return c


def fmt(c):
    return " ".join("%s%d" % (v[0] if v != "noisy" else "n", c[v]) for v in VERDICTS[:5])


results = {}
print("plumb truth benchmark: %d comparisons per example and kind, %d pads, %d rounds"
      % (REPS, PADS, ROUNDS))
print("verdict counts: s=slower f=faster p=placement n=noisy u=unswept")
load()
for name in EXAMPLES:
    ex = EX[name]
    base_text = open(os.path.join(SRC, ex["src"], ex["file"])).read()
    cal = calibrate(name, ex, base_text)
    conf = make_repo(name, ex, cal)
    print()
    print("%s (hot %s; planted work measured outside plumb: %s)" % (
        name, ex["hot"], ", ".join("%s %+.1f%%" % (k, 100 * cal[k][1]) for k in SIZES if k in cal)))
    print("  %-7s %4s  %-22s %-22s %-22s %9s %8s %9s" % ("kind", "n", "old rule (overlap v1)",
                                                 "margin v2, no hot code", "new rule (margin v2)",
                                                 "detect", "spread", "s/run"))
    for kind in KINDS:
        rows = []
        for rep in range(REPS):
            r = compare(conf, kind, rep + 1, "%s-%s-%d" % (name, kind, rep))
            if r:
                rows.append(r)
            if r and ADAPTIVE:
                r["auto"] = compare(conf, kind, rep + 1, "%s-%s-%d-auto" % (name, kind, rep), True)
        results[(name, kind)] = rows
        if not rows:
            print("  %-7s    0  (every run failed)" % kind)
            continue
        det = [r["detect"] for r in rows if r["detect"] is not None]
        print("  %-7s %4d  %-22s %-22s %-22s %8.1f%% %7.1f%% %9.1f" % (
            kind, len(rows), fmt(count(rows, "old")), fmt(count(rows, "stat")), fmt(count(rows, "new")),
            100 * statistics.median(det) if det else float("nan"),
            100 * statistics.median(r["spread"] for r in rows),
            statistics.mean(r["took"] for r in rows)))
        sys.stdout.flush()

print()
print("false slower/faster (A/A and moved-code pairs), old rule -> new rule:")
for (name, kind), rows in results.items():
    if kind in ("aa", "moved") and rows:
        fo = sum(r["old"] in ("slower", "faster") for r in rows)
        fn = sum(r["new"] in ("slower", "faster") for r in rows)
        print("  %-7s %-7s %2d/%d -> %2d/%d" % (name, kind, fo, len(rows), fn, len(rows)))
print("planted slowdowns called slower (false faster), old rule -> new rule;")
print("  below: new-rule runs that said not slower while reporting a detectable change above the planted size")
for (name, kind), rows in results.items():
    if kind in SIZES and rows:
        so = sum(r["old"] == "slower" for r in rows)
        sn = sum(r["new"] == "slower" for r in rows)
        fo = sum(r["old"] == "faster" for r in rows)
        fn = sum(r["new"] == "faster" for r in rows)
        below = sum(r["new"] != "slower" and r["detect"] is not None and r["detect"] > SIZES[kind]
                    for r in rows)
        print("  %-7s %-7s %2d/%d (%d) -> %2d/%d (%d); below %d" % (
            name, kind, so, len(rows), fo, sn, len(rows), fn, below))
if ADAPTIVE:
    print()
    print("fixed %d-pad sweep against the adaptive sweep (run.pads = auto, maxPads %d), same seeds:"
          % (PADS, MAXPADS))
    print("  %-7s %-7s %4s  %-17s %-17s %-9s %-9s %-15s %5s %9s %9s %6s" % (
        "example", "kind", "n", "fixed verdicts", "auto verdicts", "decided", "slower",
        "detect f/a", "pads", "s fixed", "s auto", "ratio"))
    tot = dict(df=0, da=0, sf=0, sa=0, tf=0.0, ta=0.0, n=0, ff=0, fa=0, fn=0)
    for (name, kind), rows in results.items():
        pairs = [(r, r["auto"]) for r in rows if r.get("auto")]
        if not pairs:
            continue
        df = sum(f["decided"] for f, a in pairs)
        da = sum(a["decided"] for f, a in pairs)
        sf = sum(f["new"] == "slower" for f, a in pairs)
        sa = sum(a["new"] == "slower" for f, a in pairs)
        tf = statistics.mean(f["took"] for f, a in pairs)
        ta = statistics.mean(a["took"] for f, a in pairs)
        detf = [f["detect"] for f, a in pairs if f["detect"] is not None]
        deta = [a["detect"] for f, a in pairs if a["detect"] is not None]
        print("  %-7s %-7s %4d  %-17s %-17s %3d -> %-3d %3d -> %-3d %6.1f/%-6.1f%% %5.1f %9.1f %9.1f %6.2f" % (
            name, kind, len(pairs), fmt(count([f for f, a in pairs], "new")),
            fmt(count([a for f, a in pairs], "new")), df, da, sf, sa,
            100 * statistics.median(detf) if detf else float("nan"),
            100 * statistics.median(deta) if deta else float("nan"),
            statistics.mean(a["pads"] for f, a in pairs), tf, ta, ta / tf if tf else float("nan")))
        if kind in SIZES:
            tot["df"] += df
            tot["da"] += da
            tot["sf"] += sf
            tot["sa"] += sa
        if kind in ("aa", "moved"):
            tot["ff"] += sum(f["new"] in ("slower", "faster") for f, a in pairs)
            tot["fa"] += sum(a["new"] in ("slower", "faster") for f, a in pairs)
            tot["fn"] += len(pairs)
        tot["tf"] += sum(f["took"] for f, a in pairs)
        tot["ta"] += sum(a["took"] for f, a in pairs)
        tot["n"] += len(pairs)
    if tot["n"]:
        print("  planted cases decided: fixed %d, auto %d; called slower: fixed %d, auto %d" % (
            tot["df"], tot["da"], tot["sf"], tot["sa"]))
        print("  false slower/faster in A/A and moved code: fixed %d/%d, auto %d/%d" % (
            tot["ff"], tot["fn"], tot["fa"], tot["fn"]))
        print("  time per comparison over all kinds: fixed %.1f s, auto %.1f s (%.2fx)" % (
            tot["tf"] / tot["n"], tot["ta"] / tot["n"], tot["ta"] / tot["tf"]))

print()
print("load average (1 min) during the runs: min %.2f, median %.2f, max %.2f on %d CPUs"
      % (min(loads), statistics.median(loads), max(loads), os.cpu_count()))
PY
