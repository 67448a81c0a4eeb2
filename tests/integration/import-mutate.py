#!/usr/bin/env python3
"""import-mutate.py SEED N FILE... : write N hostile variants of the given
result files as mut-NNN.json in the current folder: cut short, bytes
flipped, values swapped for other types, huge or negative numbers, strings
with controls, members dropped, containers nested.  Deterministic for a
seed; used by t4032 to check that plumb import never crashes on them."""
import json
import random
import sys

seed, n = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
docs = [open(p, "rb").read() for p in sys.argv[3:]]
ODD = [None, True, -1, 1e308, -0.0, "", "\x1b[2J\u202e", [], {}, [[[[[]]]]], 2**70, "NaN"]


def mutate_tree(v, depth=0):
    if isinstance(v, dict) and v:
        k = rng.choice(list(v))
        r = rng.random()
        if r < 0.25:
            del v[k]
        elif r < 0.6:
            v[k] = rng.choice(ODD)
        else:
            mutate_tree(v[k], depth + 1)
    elif isinstance(v, list) and v:
        i = rng.randrange(len(v))
        r = rng.random()
        if r < 0.2:
            del v[i]
        elif r < 0.5:
            v[i] = rng.choice(ODD)
        elif r < 0.6:
            v.extend(v[:50])
        else:
            mutate_tree(v[i], depth + 1)


for k in range(n):
    data = bytearray(rng.choice(docs))
    kind = k % 4
    if kind == 0:
        data = data[: rng.randrange(len(data))]
    elif kind == 1:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    else:
        try:
            tree = json.loads(data)
            for _ in range(rng.randint(1, 4)):
                mutate_tree(tree)
            data = json.dumps(tree).encode()
        except ValueError:
            pass
    open("mut-%03d.json" % k, "wb").write(bytes(data))
