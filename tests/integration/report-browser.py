#!/usr/bin/env python3
# tests/integration/report-browser.py: load an HTML report in real headless
# Chromium, at a desktop and a phone viewport, through the DevTools
# protocol on a pipe (--remote-debugging-pipe: no port, no websocket, the
# standard library only).  For each viewport it
#   - records every network request the page makes (only the file itself
#     is allowed) and every console message (a CSP violation is one);
#   - measures from the rendered DOM each benchmark's chart, its verdict
#     label and its verdict badge (size, visibility, text);
#   - lists every verdict the page shows (each badge, each cell of a table
#     column headed "verdict", "vs A" or "vs parent") that lies outside the
#     viewport, where a reader would have to scroll sideways to see it
#     ("offscreen"); every shortened commit id ("ids": its text and the
#     full id its title holds on hover), every whole 40-hex id left in
#     the text ("longhex"), and the tables that scroll sideways in their
#     box ("scrolling": their class names);
#   - saves a full-page screenshot, and one of the first screenful;
# and once more laid out for paper (the print media style sheet), also
# printed to PDF.
# It prints one JSON object, {page: {viewport: measurements}}; the shell
# test asserts.
#
# usage: report-browser.py CHROMIUM OUTDIR REPORT.html...
# One browser serves every page (starting Chromium is the slow part).
import base64, fcntl, json, os, struct, subprocess, sys, tempfile, time

CHROMIUM, OUTDIR = sys.argv[1:3]
REPORTS = sys.argv[3:]
# name, width, height, mobile, media: "print" lays the page out with its
# print style sheet at the width of an A4 page (96 dpi, 1.5 cm margins).
VIEWPORTS = [("desktop", 1280, 900, False, None), ("phone", 390, 844, True, None),
             ("print", 680, 1000, False, "print")]
TIMEOUT = 90

MEASURE = r"""
(() => {
  const box = e => {
    if (!e) return null;
    const b = e.getBoundingClientRect(), cs = getComputedStyle(e);
    return {w: b.width, h: b.height, x: b.left, right: b.right, y: b.top, bottom: b.bottom,
            visible: cs.visibility === 'visible' && cs.display !== 'none' &&
                     parseFloat(cs.opacity) > 0,
            text: e.textContent.trim()};
  };
  const out = {vw: window.innerWidth, vh: window.innerHeight,
               sw: document.documentElement.scrollWidth,
               title: document.title, benches: []};
  document.querySelectorAll('section.bench').forEach(sec => {
    const h2 = sec.querySelector('h2');
    out.benches.push({
      id: sec.id,
      name: h2 && h2.firstChild ? h2.firstChild.textContent.trim() : null,
      chart: box(sec.querySelector('svg.chart')),
      label: box(sec.querySelector('svg.chart .verdictlabel')),
      dist: box(sec.querySelector('svg.dist')),
      badge: box(sec.querySelector('h2 .verdict')),
    });
  });
  // The overview's first row: benchmark, change and verdict on the first screen.
  const row = document.querySelector('table.benches tr:nth-child(2)');
  out.first = row ? {name: box(row.querySelector('td.name')),
                     change: box(row.querySelector('td.change')),
                     verdict: box(row.querySelector('td.verdictcell'))} : null;
  out.rounds = Array.from(document.querySelectorAll('svg.rounds')).map(box);
  out.strips = Array.from(document.querySelectorAll('svg.strip')).map(box);
  out.config = box(document.querySelector('section.config details'));
  out.configOpen = !!document.querySelector('section.config details[open]');
  out.glossary = box(document.querySelector('section.glossary'));
  // plumb bisect's page: the path picture and its rows.
  out.bisect = box(document.querySelector('svg.bisect'));
  out.bisect_rows = document.querySelectorAll('svg.bisect rect.cand').length;
  out.findings = Array.from(document.querySelectorAll('.finding')).map(box);
  out.differs = document.querySelectorAll('tr.differs, tr.blocker').length;
  // Every verdict shown, and those a reader must scroll sideways to see.
  const verdicts = Array.from(document.querySelectorAll('span.verdict'));
  document.querySelectorAll('table').forEach(t => {
    const head = Array.from((t.querySelector('tr') || {children: []}).children);
    head.forEach((th, k) => {
      if (th.tagName !== 'TH' || !['verdict', 'vs A', 'vs parent'].includes(th.textContent.trim()))
        return;
      t.querySelectorAll('tr').forEach(tr => {
        const c = tr.children[k];
        if (c && c.tagName === 'TD') verdicts.push(c);
      });
    });
  });
  out.verdicts = verdicts.length;
  out.offscreen = verdicts.map(box).filter(b => b.w > 0 &&
    (b.x < -0.5 || b.right > window.innerWidth + 0.5)).map(b => [b.text, b.x, b.right]);
  // The tables that scroll sideways in their box (class names).
  out.scrolling = Array.from(document.querySelectorAll('.scroll')).filter(e =>
    e.scrollWidth > e.clientWidth + 1).map(e => e.firstElementChild ? e.firstElementChild.className : '');
  out.ids = Array.from(document.querySelectorAll('span.id')).map(e => ({text: e.textContent, title: e.title}));
  out.longhex = document.body.innerText.match(/\b[0-9a-f]{40}\b/g) || [];
  return JSON.stringify(out);
})()
"""


class Browser:
    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="plumb-chromium-")
        cmd_r, cmd_w = os.pipe()     # we write commands, Chromium reads fd 3
        res_r, res_w = os.pipe()     # Chromium writes fd 4, we read
        # Move the child's ends above 3 and 4 first, so that the
        # redirections cannot overwrite each other.
        a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
        b = fcntl.fcntl(res_w, fcntl.F_DUPFD, 10)
        for fd in (cmd_r, res_w):
            os.close(fd)
        cmd_r, res_w = a, b
        self.proc = subprocess.Popen(
            ["bash", "-c", 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (a, b, a, b),
             CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--no-first-run", "--no-default-browser-check",
             "--user-data-dir=" + self.profile, "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, pass_fds=(a, b), start_new_session=True)
        os.close(cmd_r)
        os.close(res_w)
        self.w = os.fdopen(cmd_w, "wb")
        self.r = os.fdopen(res_r, "rb")
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT

    def _read(self):
        while b"\0" not in self.buf:
            if time.monotonic() > self.deadline:
                raise SystemExit("report-browser: timed out")
            chunk = os.read(self.r.fileno(), 1 << 16)
            if not chunk:
                raise SystemExit("report-browser: chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.w.write(json.dumps(msg).encode() + b"\0")
        self.w.flush()
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise SystemExit("report-browser: %s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, session):
        for i, m in enumerate(self.events):
            if m.get("method") == name and m.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            m = self._read()
            if m.get("method") == name and m.get("sessionId") == session:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close")
        except SystemExit:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()
        subprocess.run(["rm", "-rf", self.profile])


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def main():
    b = Browser()
    result = {}
    try:
        for name, width, height, mobile, media in VIEWPORTS:
            target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Network", "Runtime", "Log"):
                b.send(domain + ".enable", session=s)
            b.send("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1,
                    "mobile": mobile}, session=s)
            if media:
                b.send("Emulation.setEmulatedMedia", {"media": media}, session=s)
            for report in REPORTS:
                result.setdefault(report, {})[name] = visit(b, s, report, name)
            b.send("Target.closeTarget", {"targetId": target})
    finally:
        b.close()
    json.dump(result, sys.stdout, indent=1)


def visit(b, s, report, name):
    url = "file://" + os.path.abspath(report)
    b.events.clear()
    b.send("Page.navigate", {"url": url}, session=s)
    b.wait_event("Page.loadEventFired", s)
    m = json.loads(b.send("Runtime.evaluate",
                          {"expression": MEASURE, "returnByValue": True},
                          session=s)["result"]["value"])
    shot = base64.b64decode(b.send("Page.captureScreenshot",
                                   {"format": "png", "captureBeyondViewport": True},
                                   session=s)["data"])
    path = os.path.join(OUTDIR, "%s-%s.png" % (os.path.basename(report), name))
    with open(path, "wb") as f:
        f.write(shot)
    # The first screenful too, at full resolution, for a person to look at.
    top = base64.b64decode(b.send("Page.captureScreenshot", {"format": "png"},
                                  session=s)["data"])
    with open(path[:-4] + "-top.png", "wb") as f:
        f.write(top)
    m["screenshot"] = path
    m["screenshot_size"] = png_size(shot)
    if name == "print":
        pdf = base64.b64decode(b.send("Page.printToPDF", {"printBackground": False},
                                      session=s)["data"])
        assert pdf[:5] == b"%PDF-", "not a PDF"
        with open(path[:-4] + ".pdf", "wb") as f:
            f.write(pdf)
        m["pdf_bytes"] = len(pdf)
    m["requests"] = [e["params"]["request"]["url"] for e in b.events
                     if e.get("method") == "Network.requestWillBeSent"
                     and e.get("sessionId") == s]
    m["console"] = [e["params"] for e in b.events
                    if e.get("sessionId") == s and e.get("method") in
                    ("Log.entryAdded", "Runtime.consoleAPICalled",
                     "Runtime.exceptionThrown")]
    return m

main()
