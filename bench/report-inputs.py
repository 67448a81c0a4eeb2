#!/usr/bin/env python3
# bench/report-inputs.py DIR KIND: write an unpacked bundle (manifest.json
# and samples.tsv) with 50 benchmarks for bench/report.sh.  KIND "process":
# every benchmark in process mode; "samples": the last 10 in samples mode
# with 1,000 iterations a round.  4 pads a side, 10 rounds, a control.
import json, os, statistics, sys

d, kind = sys.argv[1:3]
os.makedirs(d)
PADS, ROUNDS, ITERS = 4, 10, 1000


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
for i in range(50):
    samples = kind == "samples" and i >= 40
    base = 1000.0 * (i + 1) if samples else 1e6 * (i + 1)
    bp = [base * (1 + 0.01 * k) for k in range(PADS)]
    cp = [base * (1.005 + 0.012 * k + (0.05 if i % 7 == 0 else 0)) for k in range(PADS)]
    ctr = {"counters": {"cycles": base * 3, "instructions": base * 5, "branchMisses": 100.0}}
    b = {"name": "bench%02d" % i, "mode": "samples" if samples else "process",
         "metric": "wall",
         "sides": {"base": side(bp, **ctr), "candidate": side(cp, **ctr),
                   "control": side([bp[0] * 1.001])},
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
with open(os.path.join(d, "manifest.json"), "w") as f:
    json.dump(m, f, indent=1)
with open(os.path.join(d, "samples.tsv"), "w") as f:
    f.write("bench\tside\tpad\tround\titer\tmetric\tvalue\n")
    f.writelines(rows)
print("  %d samples.tsv rows, %d bytes" %
      (len(rows), os.path.getsize(os.path.join(d, "samples.tsv"))))
