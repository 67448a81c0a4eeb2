#!/usr/bin/env python3
"""bisect-json-doc.py DOC JSON: the members of a bisect report (JSON) are
exactly the ones docs/bisect-json.md documents, section by section: every
key in a table is in the output (where the output has such an object), and
every key of the output is in its table.  Prints each drift, exits 1."""
import json
import re
import sys

doc = open(sys.argv[1], encoding="utf-8").read()
j = json.load(open(sys.argv[2], encoding="utf-8"))

tables = {}
heading = None
for line in doc.splitlines():
    if line.startswith("## "):
        heading = line[3:].strip()
        tables[heading] = set()
    m = re.match(r"^\| `([A-Za-z]+)` \|", line)
    if m and heading:
        tables[heading].add(m.group(1))

steps = j.get("steps", [])
objects = {
    "The document": [j],
    "commits[]": j.get("commits", []),
    "steps[]": steps,
    "steps[].sides.base, steps[].sides.candidate":
        [s["sides"][k] for s in steps for k in ("base", "candidate") if s["sides"].get(k)],
    "builds (steps[].builds, result.builds)": [s["builds"] for s in steps] + [j["result"]["builds"]],
    "result": [j["result"]],
}
# Members that are absent when they have no value.
optional = {"steps[]": {"verdict", "why", "bundle", "bundleId"}}

bad = 0
for name, objs in objects.items():
    if name not in tables:
        print("docs: no section '%s'" % name)
        bad = 1
        continue
    documented = tables[name]
    seen = set()
    for o in objs:
        keys = set(o)
        seen |= keys
        for k in sorted(keys - documented):
            print("%s: '%s' is in the output, not in the doc" % (name, k))
            bad = 1
    if objs:
        for k in sorted(documented - seen - optional.get(name, set())):
            print("%s: '%s' is documented, not in the output" % (name, k))
            bad = 1
for name in sorted(set(tables) - set(objects)):
    print("docs: section '%s' is not checked" % name)
    bad = 1
sys.exit(bad)
