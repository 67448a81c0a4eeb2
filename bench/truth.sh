#!/bin/sh
# bench/truth.sh: does plumb's verdict tell the truth, both ways?  On the
# project's own examples (interp, placement sensitive; fnv, placement
# insensitive) it makes temporary git repositories holding, against the
# example as base:
#
#   aa        an empty commit (the same code: any slower/faster is false)
#   moved     an uncalled function added before the hot function (the hot
#             code moves, its instructions do not: slower/faster is false)
#   work      the hot function byte for byte the same, the work changed
#             through a count it reads, set outside it: interp's loop count
#             (reg[1]), fnv's rounds over its buffer, times 1 + k/8, k from
#             2 up until the build costs 23% or more outside plumb (the
#             checksum changes with the work).  Anything but slower is a
#             regression missed
#   slow2 .. slow20   extra work in the hot loop, calibrated on this host
#             to cost 2, 5, 10 and 20% of the base's time
#
# (the true cost of every planted build is measured outside plumb and
# printed), and runs `plumb run` on each REPS times with different seeds.
# The sweep is the runner's default, run.pads = auto (its own start, step,
# run.maxPads and run.budget); -p N forces a fixed sweep of N pads a side.
# Every bundle is judged under each rule from the same samples:
#
#   run      the run's own verdict (the default rule, shift v4, with the
#            hot-code identity and the same-work proof the run found)
#   shift    `plumb analyze` of its samples.tsv: shift v4 on the timings alone
#   margin   `plumb analyze --rule margin`: the margin rule, v2
#   overlap  `plumb analyze --rule overlap`: the seeds' rule, v1
#
# Per example it prints the verdicts of every kind under each rule, the
# pads per side and the seconds each comparison took (median and max);
# then the false calls (slower or faster) per pair kind out of REPS, and
# the detection (slower; false faster in brackets) per planted size, under
# each rule.  `uptime` is printed at the start and at the end: figures
# taken on a busy host say so.
#
#   bench/truth.sh [-n REPS] [-p PADS] [-r ROUNDS] [-m MAXPADS] [-e EXAMPLES] [-k KINDS] [PLUMB]
#
#   -n REPS      comparisons per example and kind (default 20)
#   -p PADS      a fixed sweep of PADS pads a side (default: run.pads = auto)
#   -r ROUNDS    run.rounds (default: the runner's)
#   -m MAXPADS   run.maxPads of the adaptive sweep (default: the runner's)
#   -e EXAMPLES  space-separated subset of "interp fnv"
#   -k KINDS     space-separated subset of "aa moved work slow2 slow5 slow10 slow20"
#
# A quick look: bench/truth.sh -n 3 -k "aa work slow20"
# Everything is generated under a temporary folder, removed at the end.
# Needs python3, git, make and cc.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
reps=20 pads="" rounds="" maxpads="" examples="interp fnv" kinds="aa moved work slow2 slow5 slow10 slow20"
usage="usage: bench/truth.sh [-n REPS] [-p PADS] [-r ROUNDS] [-m MAXPADS] [-e EXAMPLES] [-k KINDS] [PLUMB]"
while getopts n:p:r:m:e:k: opt; do
	case $opt in
	n) reps=$OPTARG ;;
	p) pads=$OPTARG ;;
	r) rounds=$OPTARG ;;
	m) maxpads=$OPTARG ;;
	e) examples=$OPTARG ;;
	k) kinds=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PLUMB=${1:-$here/plumb}
for t in python3 git make cc uptime; do
	command -v $t >/dev/null 2>&1 || { echo "truth.sh: needs $t" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/plumb-truth.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export PLUMB TRUTH_SRC="$here/examples" TRUTH_WORK="$work" TRUTH_REPS="$reps" \
	TRUTH_PADS="$pads" TRUTH_ROUNDS="$rounds" TRUTH_MAXPADS="$maxpads" \
	TRUTH_EXAMPLES="$examples" TRUTH_KINDS="$kinds" \
	XDG_CACHE_HOME="$work/cache" GIT_AUTHOR_NAME=truth GIT_AUTHOR_EMAIL=truth@example.com \
	GIT_COMMITTER_NAME=truth GIT_COMMITTER_EMAIL=truth@example.com LC_ALL=C
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS 2>/dev/null || true

python3 - <<'PY'
import json, os, shutil, statistics, subprocess, sys, time

PLUMB = os.environ["PLUMB"]
SRC = os.environ["TRUTH_SRC"]
WORK = os.environ["TRUTH_WORK"]
REPS = int(os.environ["TRUTH_REPS"])
PADS = os.environ["TRUTH_PADS"]
ROUNDS = os.environ["TRUTH_ROUNDS"]
MAXPADS = os.environ["TRUTH_MAXPADS"]
EXAMPLES = os.environ["TRUTH_EXAMPLES"].split()
KINDS = os.environ["TRUTH_KINDS"].split()

# Per example: its files, the command, the hot function, where an uncalled
# function goes (before the hot function's definition), where the planted
# work goes (a statement in the hot loop; DELAY is replaced by a calibrated
# count of empty asm iterations), and the work pair: the text outside the
# hot function that changes what it is given to do.
EX = {
    "interp": dict(
        src="interp", file="interp.c", artifact="interp", args="2000000", hot="run",
        before="__attribute__((noinline)) uint64_t run(",
        anchor="case OP_JNZ:  if (reg[i->a] != 0) pc = code + i->imm; break;",
        plant="case OP_JNZ:  for (unsigned k_ = 0; k_ < DELAY; k_++) __asm__ volatile(\"\"); "
              "if (reg[i->a] != 0) pc = code + i->imm; break;",
        probe=20,
        # The loop count run() reads from reg[1] times 1 + COUNT/8.
        work_anchor="reg[1] = (uint64_t)n;",
        work_text=lambda n: "reg[1] = (uint64_t)(n + n * %d / 8);" % n,
        work_counts=range(2, 9)),
    "fnv": dict(
        src="fnv", file="fnv.c", artifact="fnv", args="600", hot="hash_all",
        before="__attribute__((noinline)) uint64_t hash_all(",
        anchor="\t\tfor (size_t i = 0; i < size; i++) {",
        plant="\t\tfor (unsigned k_ = 0; k_ < DELAY; k_++) __asm__ volatile(\"\");\n"
              "\t\tfor (size_t i = 0; i < size; i++) {",
        probe=20000,
        # Rounds of hash_all() times 1 + COUNT/8.
        work_anchor="hash_all(buf, SIZE, n)",
        work_text=lambda n: "hash_all(buf, SIZE, n + n * %d / 8)" % n,
        work_counts=range(2, 9)),
}
UNUSED = ("__attribute__((noinline, used)) static unsigned long truth_unused(unsigned long x)\n"
          "{\n\treturn x * 2654435761ul + (x >> 7) * 40503ul;\n}\n\n")
SIZES = {"slow2": 0.02, "slow5": 0.05, "slow10": 0.10, "slow20": 0.20}
WORK_MIN = 0.20          # the work pair must cost at least this much
FALSE_KINDS = ("aa", "moved")
RULES = ("run", "shift", "margin", "overlap")
VERDICTS = ("slower", "faster", "unchanged", "placement", "unswept", "noisy", "insufficient")
LETTER = dict(slower="s", faster="f", unchanged="u", placement="p", unswept="w", noisy="n",
              insufficient="i")


def sh(*cmd, cwd=None, check=True):
    return subprocess.run(cmd, cwd=cwd, check=check, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def uptime():
    return sh("uptime").stdout.strip()


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


def worked(text, ex, count):
    assert ex["work_anchor"] in text, ex["work_anchor"]
    return text.replace(ex["work_anchor"], ex["work_text"](count), 1)


def calibrate(name, ex, base_text):
    """Per planted kind: (the text of the candidate, its cost measured outside plumb)."""
    out = {}
    b0 = build_copy(ex, base_text, name + "-0")
    t0 = timed(b0, ex["args"])
    if any(k in SIZES for k in KINDS):
        b1 = build_copy(ex, planted(base_text, ex, ex["probe"]), name + "-probe")
        per = (timed(b1, ex["args"]) - t0) / ex["probe"]
        for kind, frac in SIZES.items():
            if kind not in KINDS:
                continue
            d = max(1, round(frac * t0 / per)) if per > 0 else 1
            text = planted(base_text, ex, d)
            bd = build_copy(ex, text, "%s-%s" % (name, kind))
            out[kind] = (text, timed(bd, ex["args"]) / timed(b0, ex["args"]) - 1)
    if "work" in KINDS:
        # The smallest count that costs WORK_MIN and a margin, else the largest tried.
        for count in ex["work_counts"]:
            text = worked(base_text, ex, count)
            bw = build_copy(ex, text, "%s-work%d" % (name, count))
            out["work"] = (text, timed(bw, ex["args"]) / timed(b0, ex["args"]) - 1)
            if out["work"][1] >= WORK_MIN + 0.03:
                break
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
            continue
        if kind == "moved":
            assert ex["before"] in base_text
            text = base_text.replace(ex["before"], UNUSED + ex["before"], 1)
        else:
            text = cal[kind][0]
        with open(path, "w") as f:
            f.write(text)
        git(repo, "commit", "-q", "-a", "-m", kind)
    git(repo, "checkout", "-q", "main")
    conf = os.path.join(WORK, name + ".conf")
    run = "\tbase = base\n\twarmupRuns = 1\n\tpads = %s\n" % (PADS or "auto")
    if ROUNDS:
        run += "\trounds = %s\n" % ROUNDS
    if MAXPADS:
        run += "\tmaxPads = %s\n" % MAXPADS
    with open(conf, "w") as f:
        f.write("[repo]\n\tpath = %s\n[run]\n%s[build]\n\tcommand = make bench\n\tartifact = %s\n"
                "[bench \"%s\"]\n\tcommand = {artifact} %s\n\thot = %s\n"
                % (repo, run, ex["artifact"], name, ex["args"], ex["hot"]))
    return conf


def analyzed(tsv, metric, *rule):
    res = json.loads(sh(PLUMB, "analyze", "--json", *rule, tsv).stdout)
    return [x["verdict"] for x in res["results"] if x["metric"] == metric][0]


def compare(conf, kind, seed, tag):
    out = os.path.join(WORK, tag + ".plumb")
    dest = os.path.join(WORK, tag)
    sh("git", "config", "-f", conf, "run.seed", str(seed))
    a = time.monotonic()
    r = sh(PLUMB, "run", "-c", conf, "--candidate", kind, "-o", out,
           "--workdir", os.path.join(WORK, "wd"), check=False)
    took = time.monotonic() - a
    if r.returncode != 0:
        sys.stderr.write("truth.sh: plumb run failed (%d): %s\n" % (r.returncode, r.stderr.strip()))
        return None
    sh(PLUMB, "bundle", "extract", out, dest)
    b = json.load(open(os.path.join(dest, "manifest.json")))["benches"][0]
    tsv = os.path.join(dest, "samples.tsv")
    row = dict(run=b["verdict"], shift=analyzed(tsv, b["metric"]),
               margin=analyzed(tsv, b["metric"], "--rule", "margin"),
               overlap=analyzed(tsv, b["metric"], "--rule", "overlap"),
               pads=(len(b["sides"]["base"]["pads"]), len(b["sides"]["candidate"]["pads"])),
               took=took)
    shutil.rmtree(dest)
    os.unlink(out)
    return row


def counts(rows, rule):
    c = {v: 0 for v in VERDICTS}
    for r in rows:
        c[r[rule]] = c.get(r[rule], 0) + 1
    return " ".join("%s%d" % (LETTER.get(v, v), c[v]) for v in VERDICTS)


def pads_cell(rows):
    b = [r["pads"][0] for r in rows]
    c = [r["pads"][1] for r in rows]
    return "%g+%g/%d+%d" % (statistics.median(b), statistics.median(c), max(b), max(c))


def secs_cell(rows):
    t = [r["took"] for r in rows]
    return "%.1f/%.1f" % (statistics.median(t), max(t))


def share(rows, rule, verdicts):
    return "%d/%d" % (sum(r[rule] in verdicts for r in rows), len(rows))


print("plumb truth benchmark: %d comparisons per example and kind; %s%s%s" % (
    REPS, "a fixed sweep of %s pads a side" % PADS if PADS else "run.pads = auto (the runner's sweep)",
    ", %s rounds" % ROUNDS if ROUNDS else "", ", maxPads %s" % MAXPADS if MAXPADS else ""))
print("uptime at the start: %s" % uptime())
print("rules: run = the run's own verdict (shift v4, hot code and work); shift = plumb analyze "
      "(shift v4, timings alone);")
print("       margin = plumb analyze --rule margin (v2); overlap = plumb analyze --rule overlap (v1)")
print("verdicts: " + " ".join("%s=%s" % (LETTER[v], v) for v in VERDICTS) +
      "; pads b+c: median/max per side; s: seconds per comparison, median/max")
sys.stdout.flush()
for name in EXAMPLES:
    ex = EX[name]
    base_text = open(os.path.join(SRC, ex["src"], ex["file"])).read()
    cal = calibrate(name, ex, base_text)
    conf = make_repo(name, ex, cal)
    results = {}
    print()
    print("%s (hot %s; planted work measured outside plumb: %s)" % (
        name, ex["hot"], ", ".join("%s %+.1f%%" % (k, 100 * cal[k][1]) for k in KINDS if k in cal)
        or "none"))
    if "work" in cal and cal["work"][1] < WORK_MIN:
        print("  (the work pair costs less than %+.0f%% on this host: its figures below say less)"
              % (100 * WORK_MIN))
    print("  %-7s %3s  %-24s %-24s %-24s %-24s %-13s %s" % (
        "kind", "n", *RULES, "pads b+c", "s"))
    for kind in KINDS:
        rows = []
        for rep in range(REPS):
            r = compare(conf, kind, rep + 1, "%s-%s-%d" % (name, kind, rep))
            if r:
                rows.append(r)
        results[kind] = rows
        if not rows:
            print("  %-7s   0  (every run failed)" % kind)
            continue
        print("  %-7s %3d  %-24s %-24s %-24s %-24s %-13s %s" % (
            kind, len(rows), *(counts(rows, rule) for rule in RULES), pads_cell(rows),
            secs_cell(rows)))
        sys.stdout.flush()
    print("  false calls (slower or faster) out of n:")
    print("    %-15s" % "" + "".join("%9s" % rule for rule in RULES))
    for kind in FALSE_KINDS:
        if results.get(kind):
            print("    %-15s" % kind + "".join("%9s" % share(results[kind], rule, ("slower", "faster"))
                                               for rule in RULES))
    print("  detection (slower) per planted size out of n, [false faster]:")
    print("    %-15s" % "" + "".join("%9s" % rule for rule in RULES))
    for kind in KINDS:
        if kind in cal and results.get(kind):
            rows = results[kind]
            print("    %-15s" % ("%s %+.1f%%" % (kind, 100 * cal[kind][1])) + "".join(
                "%9s" % ("%s%s" % (share(rows, rule, ("slower",)),
                                   " [%d]" % sum(r[rule] == "faster" for r in rows)
                                   if any(r[rule] == "faster" for r in rows) else ""))
                for rule in RULES))
    print("  unchanged (shown within +-minEffect) out of n:")
    print("    %-15s" % "" + "".join("%9s" % rule for rule in RULES))
    for kind in KINDS:
        if results.get(kind):
            print("    %-15s" % kind + "".join("%9s" % share(results[kind], rule, ("unchanged",))
                                               for rule in RULES))
    sys.stdout.flush()

print()
print("uptime at the end: %s (%d CPUs)" % (uptime(), os.cpu_count()))
PY
