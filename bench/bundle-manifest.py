# bench/bundle-manifest.py ANALYZE.json MODE ROUNDS: the manifest.json of a
# bundle whose one benchmark (in MODE, process or samples, over ROUNDS
# rounds) has the figures `plumb analyze --json` gave, under the rule it
# used and recorded as plumb run records it, so that bundle verify finds
# what it recomputes.  For bench/bundle-input.sh and bench/rounds-input.sh.
import json
import sys

r = json.load(open(sys.argv[1]))["results"][0]
mode, rounds = sys.argv[2], int(sys.argv[3])


def side(s):
    d = {"pads": [p["median"] for p in s["pads"]], "center": s["center"],
         "min": s["min"], "max": s["max"], "rounds": s["min_rounds"]}
    if s.get("spread") is not None:
        d["spread"] = s["spread"]
    return d


ru = r["rule"]
rule = {"name": ru["name"], "version": ru["version"], "confidence": ru["confidence"]}
if ru["name"] == "shift":
    rule["minEffect"] = ru["min_effect"]
else:
    rule.update(noiseFactor=ru["noise_factor"], resamples=ru["resamples"], seed=ru["seed"])
b = {"name": r["bench"], "mode": mode, "metric": r["metric"],
     "sides": {k: side(r["sides"][k]) for k in ("base", "candidate")},
     "verdict": r["verdict"], "rule": rule}
if r["ratio"] is not None:
    b["ratio"] = r["ratio"]
if r["verdict"] in ("unswept", "noisy"):
    b["direction"] = r["direction"]
if r.get("interval"):
    b["interval"] = r["interval"]
if r.get("shift"):
    s = r["shift"]
    b["shift"] = {"estimate": s["estimate"], "lo": s["lo"], "hi": s["hi"],
                  "level": s["level"], "p": s["p"], "pMin": s["p_min"]}
json.dump({
    "format": "plumb-bundle", "version": 1, "minorVersion": 3,
    "tool": {"name": "plumb-bench", "version": "1"},
    "created": "2026-01-01T00:00:00Z",
    "spec": {},
    "repo": {
        "base": {"ref": "v1", "commit": "1" * 40},
        "candidate": {"ref": "HEAD", "commit": "2" * 40}},
    "build": {"method": "link", "padBytes": 16, "variants": []},
    "host": {"start": {}},
    "run": {"seed": 1, "rounds": rounds, "warmup": {"runs": 0, "policy": "auto"}},
    "benches": [b]}, sys.stdout, indent=1)
