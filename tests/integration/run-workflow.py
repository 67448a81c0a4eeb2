#!/usr/bin/env python3
# tests/integration/run-workflow.py WORKFLOW EVENT: run the `run:` steps of
# the one job of a GitHub Actions workflow in the current folder (a clone),
# as a runner would for EVENT (pull_request or push): bash -e per step,
# GITHUB_ENV carried between steps, ${{ }} expressions of the env blocks
# given their test values, `if:` read for always() and the event name.
# Prints "step NAME: STATUS" per step; exits with the job's status (the
# first failing step's, later steps running only under always()).
import os, re, subprocess, sys

import yaml

wf = yaml.safe_load(open(sys.argv[1]))
event = sys.argv[2]
job = next(iter(wf["jobs"].values()))
values = {"github.token": "token-for-tests", "github.event.pull_request.number": "7",
          "github.event_name": event}
env = dict(os.environ, GITHUB_ACTIONS="true", GITHUB_EVENT_NAME=event,
           GITHUB_ENV=os.path.abspath("github-env"),
           GITHUB_STEP_SUMMARY=os.path.abspath("step-summary.md"))
if event == "pull_request":
    env["GITHUB_BASE_REF"] = "main"
open("github-env", "w").close()
failed = 0


def expr(text):
    return re.sub(r"\$\{\{\s*([^}]*?)\s*\}\}", lambda m: values[m.group(1)], str(text))


def wanted(cond):
    if cond is None:
        return failed == 0
    c = cond.replace("always()", "True").replace("&&", " and ").replace("||", " or ")
    c = re.sub(r"github\.event_name", repr(event), c)
    c = re.sub(r"hashFiles\('([^']*)'\)", lambda m: repr("h" if os.path.exists(m.group(1)) else ""), c)
    return bool(eval(c))


for step in job["steps"]:
    if "run" not in step:
        continue
    if not wanted(step.get("if")):
        print("step %s: skipped" % step.get("name"))
        continue
    for line in open("github-env"):
        k, _, v = line.rstrip("\n").partition("=")
        if k:
            env[k] = v
    e = dict(env, **{k: expr(v) for k, v in step.get("env", {}).items()})
    st = subprocess.run(["bash", "-e", "-c", step["run"]], env=e).returncode
    print("step %s: %d" % (step.get("name"), st), flush=True)
    if st and not failed:
        failed = st
sys.exit(failed)
