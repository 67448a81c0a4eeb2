#!/usr/bin/env python3
"""bench/looks.py: what the adaptive sweep's repeated looks do to the shift
rule's error rates, simulated.

The sweep (run.pads = auto) judges after its first pads and after every
extension and stops at the first verdict.  Each look is the shift rule:
the Hodges-Lehmann shift of the log pad medians and its exact Moses
interval; slower/faster when the interval lies wholly beyond
+-minEffect, unchanged when wholly inside, else the sweep goes on.  Pad
medians are drawn as log-normal placement noise of spread SIGMA (the
candidate's shifted by the planted change); the test is distribution-free,
so what matters is the spread against minEffect and the pads.

For each design (the pads at each look, and the per-look level: 0.99
every look, or 1 - 0.01/looks, Bonferroni) it prints the false calls
(slower or faster) of A/A pairs and the detection of planted slowdowns,
with the mean pads per side each took.

A second table compares shift v4 (the pads compared within the batches
they were measured in: the first pads, then each extension's) with v3
(every pad pooled) when the host's speed moves between batches: each
batch's pads, both sides alike, are scaled by exp(N(0, DRIFT)).

    bench/looks.py [-n REPS]      (default 2000 draws per cell; seeded)
"""
import functools, math, random, sys

@functools.lru_cache(None)
def u_counts(m, n):
    """How many orderings give each Mann-Whitney U, sizes m and n, no ties."""
    if m == 0 or n == 0:
        return (1,)
    a, b = u_counts(m - 1, n), u_counts(m, n - 1)
    out = [0] * (m * n + 1)
    for u, c in enumerate(b):
        out[u] += c
    for u, c in enumerate(a):
        out[u + n] += c
    return tuple(out)

def look(b, c, level, me):
    return look_batches([(b, c)], level, me, 0)

def sweep(rng, looks, level, sigma, change, me=0.01):
    b, c = [], []
    for pads in looks:
        while len(b) < pads:
            b.append(rng.gauss(0, sigma))
            c.append(rng.gauss(0, sigma) + math.log1p(change))
        v = look(b, c, level, me)
        if v:
            return v, len(b)
    return "placement", len(b)

@functools.lru_cache(None)
def k_strata(sizes, level):
    """The interval's rank within strata: the convolution of their U counts."""
    dist = (1,)
    for m, n in sizes:
        d = u_counts(m, n)
        out = [0] * (len(dist) + len(d) - 1)
        for i, a in enumerate(dist):
            for j, b in enumerate(d):
                out[i + j] += a * b
        dist = tuple(out)
    total, half, cum, k = sum(dist), (1 - level) / 2, 0, 0
    for c in dist:
        if (cum + c) / total > half:
            break
        cum += c
        k += 1
    return k

def look_batches(batches, level, me, within):
    if within:
        k = k_strata(tuple((len(b), len(c)) for b, c in batches), level)
        d = sorted(y - x for b, c in batches for x in b for y in c)
    else:
        b = [x for bb, _ in batches for x in bb]
        c = [y for _, cc in batches for y in cc]
        k = k_strata(((len(b), len(c)),), level)
        d = sorted(y - x for x in b for y in c)
    if k == 0:
        return None
    lo, hi = math.exp(d[k - 1]) - 1, math.exp(d[len(d) - k]) - 1
    if lo > me:
        return "slower"
    if hi < -me:
        return "faster"
    if lo >= -me and hi <= me:
        return "unchanged"
    return None

def sweep_batches(rng, looks, level, sigma, change, drift, within, me=0.01):
    batches, have = [], 0
    for pads in looks:
        host = rng.gauss(0, drift) if batches else 0
        new = pads - have
        have = pads
        batches.append(([rng.gauss(0, sigma) + host for _ in range(new)],
                        [rng.gauss(0, sigma) + host + math.log1p(change) for _ in range(new)]))
        v = look_batches(batches, level, me, within)
        if v:
            return v, pads
    return "placement", have

def batches_table(reps):
    cells = [(0.20, 0.0, 0.0), (0.20, 0.0, 0.3), (0.05, 0.10, 0.0), (0.05, 0.10, 0.3),
             (0.10, 0.20, 0.0), (0.10, 0.20, 0.3), (0.03, 0.05, 0.0), (0.03, 0.05, 0.2)]
    print()
    print("batches: Bonferroni over the looks; sigma / true change / drift between batches")
    print("%-30s" % "rule" + "".join("%18s" % ("%.2f/%+.0f%%/%.1f" % (s, ch * 100, d)) for s, ch, d in cells))
    for name, looks, within in (("v3, pads pooled, 6..18 by 4", (6, 10, 14, 18), 0),
                                ("v4, within, 6..18 by 4", (6, 10, 14, 18), 1),
                                ("v3, pads pooled, 6..18 by 6", (6, 12, 18), 0),
                                ("v4, within, 6..18 by 6", (6, 12, 18), 1)):
        level = 1 - 0.01 / len(looks)
        row = []
        for sigma, change, drift in cells:
            rng = random.Random(1)
            hits = pads = 0
            for _ in range(reps):
                v, p = sweep_batches(rng, looks, level, sigma, change, drift, within)
                pads += p
                hits += v in ("slower", "faster") if change == 0 else v == "slower"
            row.append("%10.3f @%5.1f" % (hits / reps, pads / reps))
        print("%-30s" % name + "".join("%18s" % x for x in row), flush=True)

def main():
    reps = 2000
    if len(sys.argv) == 3 and sys.argv[1] == "-n":
        reps = int(sys.argv[2])
    designs = [
        ("6..16 by 4, 0.99 each look", (6, 10, 14, 16), 0.99),
        ("6..16 by 4, Bonferroni", (6, 10, 14, 16), 1 - 0.01 / 4),
        ("6..18 by 4, Bonferroni", (6, 10, 14, 18), 1 - 0.01 / 4),
        ("6..18 by 6, Bonferroni", (6, 12, 18), 1 - 0.01 / 3),
        ("6..24 by 4, Bonferroni", (6, 10, 14, 18, 22, 24), 1 - 0.01 / 6),
        ("16 fixed, 0.99", (16,), 0.99),
    ]
    cells = [(0.20, 0.0), (0.40, 0.0), (0.05, 0.10), (0.08, 0.10), (0.10, 0.20), (0.15, 0.20)]
    print("bench/looks.py: %d seeded draws per cell; minEffect 1%%" % reps)
    print("cells: spread sigma / true change; A/A cells give false calls (slower or faster),")
    print("the others detection (slower); @ the mean pads per side")
    print("%-30s" % "design" + "".join("%18s" % ("%.2f/%+.0f%%" % (s, ch * 100)) for s, ch in cells))
    for name, looks, level in designs:
        row = []
        for sigma, change in cells:
            rng = random.Random(1)
            hits = pads = 0
            for _ in range(reps):
                v, p = sweep(rng, looks, level, sigma, change)
                pads += p
                hits += v in ("slower", "faster") if change == 0 else v == "slower"
            row.append("%10.3f @%5.1f" % (hits / reps, pads / reps))
        print("%-30s" % name + "".join("%18s" % x for x in row), flush=True)
    batches_table(reps)

if __name__ == "__main__":
    main()
