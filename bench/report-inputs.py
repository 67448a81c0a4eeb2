#!/usr/bin/env python3
# bench/report-inputs.py DIR KIND: write an unpacked bundle (manifest.json
# and samples.tsv) for bench/report.sh.  KIND "process": 50 benchmarks, all
# in process mode; "samples": the last 10 of them in samples mode with
# 1,000 iterations a round (4 pads a side, 10 rounds, a control); "many":
# 1,000,000 rows over 8,000 series (2,000 samples-mode benchmarks, 2 pads
# a side, 5 rounds of 25 iterations), the case that made a report
# quadratic in its series.  Every side, ratio and verdict of the manifest
# is what `plumb analyze` gives for the rows (a bundle agrees with its
# samples); PLUMB names the binary.
import json, os, statistics, subprocess, sys

d, kind = sys.argv[1:3]
os.makedirs(d)
PADS, ROUNDS, ITERS = 4, 10, 1000
NBENCH = 50
if kind == "many":
    PADS, ROUNDS, ITERS, NBENCH = 2, 5, 25, 2000


def side(pads, **kw):
    c = statistics.median(pads)
    s = {"pads": pads, "center": c, "min": min(pads), "max": max(pads),
         "spread": (max(pads) - min(pads)) / c, "rounds": ROUNDS}
    s.update(kw)
    return s


def host():
    return {"version": 1, "fingerprint": "0123456789abcdef", "hostname": "bench",
            "cpu": {"model": "Bench CPU", "logical": 8, "physical_cores": 4, "smt": True,
                    "microcode": "0x1"},
            "kernel": {"release": "6.1.0"},
            "cpufreq": {"governor": "performance", "turbo": False},
            "compiler": {"version": "cc 12"}}


benches, rows = [], []
for i in range(NBENCH):
    samples = (kind == "samples" and i >= 40) or kind == "many"
    base = 1000.0 * (i + 1) if samples else 1e6 * (i + 1)
    bp = [base * (1 + 0.01 * k) for k in range(PADS)]
    cp = [base * (1.005 + 0.012 * k + (0.05 if i % 7 == 0 else 0)) for k in range(PADS)]
    ctr = {"counters": {"cycles": base * 3, "instructions": base * 5, "branchMisses": 100.0}}
    b = {"name": "bench%02d" % i, "mode": "samples" if samples else "process",
         "metric": "wall",
         "sides": {"base": side(bp, **ctr), "candidate": side(cp, **ctr),
                   "control": side([bp[0] * 1.001])} if not samples else
                  {"base": side(bp), "candidate": side(cp)},
         "ratio": statistics.median(cp) / statistics.median(bp)}
    b["verdict"] = ("slower" if min(cp) > max(bp) else
                    "faster" if max(cp) < min(bp) else "placement")
    b["noise"] = {"relative": 0.001, "tooNoisy": False}
    b["hot"] = {"identical": i % 3 == 0,
                "symbols": [{"name": "f%d" % i, "identical": i % 3 == 0}]}
    b["checksum"] = {"consistent": True, "base": "aa", "candidate": "aa" if i % 11 else "ab"}
    if samples:
        for s in ("base", "candidate"):
            b["sides"][s]["p99"] = base * 1.3
            b["sides"][s]["coP99"] = base * 1.6
        b["steadyState"] = {"window": 30, "tolerance": 0.01, "unsettled": 0, "start": 40.0}
    benches.append(b)
    for sname, pads in (("base", bp), ("candidate", cp), ("control", [bp[0] * 1.001])):
        if sname not in b["sides"]:
            continue
        for k, p in enumerate(pads):
            for r in range(ROUNDS):
                if not samples:
                    rows.append("%s\t%s\t%d\t%d\t-\twall\t%d\n" %
                                (b["name"], sname, k, r, p * (1 + 0.001 * (r % 3))))
                elif sname != "control":
                    for it in range(ITERS):
                        v = p * (1 + ((it * 7919 + r * 31 + k) % 97 - 48) / 4800.0)
                        rows.append("%s\t%s\t%d\t%d\t%d\twall\t%.1f\n" %
                                    (b["name"], sname, k, r, it, v))


def commit(ref, c):
    return {"ref": ref, "commit": c * 40, "subject": "bench " + ref,
            "time": "2026-11-01T00:00:00Z"}


m = {"format": "plumb-bundle", "version": 1, "tool": {"name": "plumb", "version": "0.1.0"},
     "created": "2026-11-01T01:00:00Z", "spec": {},
     "repo": {"base": commit("v1", "a"), "candidate": commit("main", "b")},
     "build": {"method": "link", "padBytes": 16, "variants": []},
     "host": {"start": host(), "end": host(), "fingerprint": "0123456789abcdef"},
     "run": {"seed": 1, "rounds": ROUNDS, "warmup": {"runs": 1, "policy": "auto"},
             "counters": {"available": True}},
     "benches": benches}
tsv = os.path.join(d, "samples.tsv")
with open(tsv, "w") as f:
    f.write("bench\tside\tpad\tround\titer\tmetric\tvalue\n")
    f.writelines(rows)
out = subprocess.run([os.environ.get("PLUMB", "./plumb"), "analyze", "--json", tsv],
                     check=True, capture_output=True, text=True).stdout
res = {r["bench"]: r for r in json.loads(out)["results"]}
for b in benches:
    r = res[b["name"]]
    for sname, s in b["sides"].items():
        a = r["sides"][sname]
        s["pads"] = [p["median"] for p in a["pads"]]
        s["center"], s["min"], s["max"] = a["center"], a["min"], a["max"]
        s["spread"] = a["spread"]
        s["rounds"] = a["min_rounds"]
    b["ratio"] = r["ratio"]
    b["verdict"] = r["verdict"]
    if r["verdict"] == "unswept":
        b["direction"] = r["direction"]
if kind == "many":
    # Within the manifest's 1 MiB: the figures only.
    for b in benches:
        for k in ("hot", "checksum", "noise", "steadyState"):
            b.pop(k, None)
        for s in b["sides"].values():
            for k in ("counters", "p99", "coP99", "spread"):
                s.pop(k, None)
with open(os.path.join(d, "manifest.json"), "w") as f:
    json.dump(m, f, indent=None if kind == "many" else 1)
print("  %d samples.tsv rows, %d bytes" %
      (len(rows), os.path.getsize(os.path.join(d, "samples.tsv"))))
