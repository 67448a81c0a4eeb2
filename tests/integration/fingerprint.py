#!/usr/bin/env python3
# tests/integration/fingerprint.py: the host fingerprint of a manifest's
# facts, computed independently of plumb from docs/host-facts.md ("The
# fingerprint"), for tests that edit host facts and must keep the
# manifest consistent with them.
#
#   fingerprint.py MANIFEST     rewrite host.fingerprint, host.start.fingerprint
#                               and host.end.fingerprint from their facts
import hashlib
import json
import sys


def fingerprint(h):
    def get(group, key):
        return (h.get(group) or {}).get(key)

    def text(v):
        return v if isinstance(v, str) else "null"

    def integer(v):
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else "null"

    def boolean(v):
        return "true" if v is True else "false" if v is False else "null"

    s = ("plumb-host-fingerprint 1\n"
         f"cpu.model={text(get('cpu', 'model'))}\n"
         f"cpu.logical={integer(get('cpu', 'logical'))}\n"
         f"cpu.physical_cores={integer(get('cpu', 'physical_cores'))}\n"
         f"cpu.smt={boolean(get('cpu', 'smt'))}\n"
         f"kernel.release={text(get('kernel', 'release'))}\n"
         f"cpufreq.governor={text(get('cpufreq', 'governor'))}\n"
         f"cpufreq.turbo={boolean(get('cpufreq', 'turbo'))}\n")
    return hashlib.sha256(s.encode()).hexdigest()[:16]


def main():
    path = sys.argv[1]
    m = json.load(open(path))
    host = m["host"]
    for part in ("start", "end"):
        if isinstance(host.get(part), dict) and "fingerprint" in host[part]:
            host[part]["fingerprint"] = fingerprint(host[part])
    if "fingerprint" in host:
        host["fingerprint"] = fingerprint(host["start"])
    json.dump(m, open(path, "w"), indent=2)


if __name__ == "__main__":
    main()
