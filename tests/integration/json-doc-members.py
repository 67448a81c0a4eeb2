#!/usr/bin/env python3
# tests/integration/json-doc-members.py DOC.md HEADING OUTPUT.json [PATH]:
# the members that the first "| member |" table under the Markdown heading
# HEADING of DOC.md lists, against those of an object of OUTPUT.json (PATH:
# a dotted path to it, "classes.0" for j["classes"][0]).  A cell
# "`points[].ref`, `.commit`" names members of the objects of the array
# points; members of top-level arrays of objects are compared for their
# first element.  Exits non-zero naming what differs.
import json, re, sys

doc, heading, out = sys.argv[1:4]
path = sys.argv[4] if len(sys.argv) > 4 else ""
text = open(doc, encoding="utf-8").read()
at = text.find("\n" + heading + "\n")
if at < 0:
    sys.exit("%s: no heading %r" % (doc, heading))
rows = []
for line in text[at + 1:].splitlines()[1:]:
    if line.startswith("#"):
        break
    if line.startswith("| member |"):
        rows = []
        continue
    if line.startswith("|---"):
        continue
    if line.startswith("| `"):
        rows.append(line.split("|")[1])
    elif rows:
        break

if not rows:
    sys.exit("%s: no member table under %r" % (doc, heading))
want = {}   # "" for the object itself, else an array member's name
for cell in rows:
    parent = ""
    for tok in re.findall(r"`([^`]+)`", cell):
        if tok.startswith("."):
            name = tok[1:]
        elif "[]." in tok:
            parent, name = tok.split("[].", 1)
        else:
            parent, name = "", tok.replace("[]", "")
        want.setdefault(parent, set()).add(name)

j = json.load(open(out))
for p in filter(None, path.split(".")):
    j = j[int(p)] if isinstance(j, list) else j[p]
for parent, names in sorted(want.items()):
    obj = j if not parent else j[parent][0]
    got = set(obj)
    if got != names:
        sys.exit("%s %s%s: documented %s, printed %s" % (doc, heading, " " + parent if parent else "",
                 sorted(names - got), sorted(got - names)))
print("ok")
