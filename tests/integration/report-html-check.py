#!/usr/bin/env python3
# tests/integration/report-html-check.py REPORT.html REPORT.json: the
# structural checks of an HTML report, against the JSON report of the same
# comparison.  Exits non-zero naming the first broken rule.
#   - the page is well-formed XML as a whole, every <svg> on its own too,
#     and the HTML parser sees balanced elements;
#   - it can load nothing: no script, no frame, no image, no link, no
#     embedded object; no attribute pointing anywhere but an anchor of the
#     page itself; no event handler; no url() or @import in the CSS; a
#     Content-Security-Policy of default-src 'none';
#   - "http://" and "https://" appear in no attribute and no CSS (the SVG
#     has no xmlns: an HTML parser gives <svg> its namespace), only in text
#     copied from the bundle;
#   - every benchmark has its section with its name, its verdict badge and,
#     when both sides were measured, a chart whose label is the verdict;
#     samples-mode benchmarks with samples have a distribution chart.
import html.parser, json, re, sys
import xml.etree.ElementTree as ET

page_path, json_path = sys.argv[1:3]
text = open(page_path, encoding="utf-8").read()
report = json.load(open(json_path))

def fail(msg):
    sys.exit("%s: %s" % (page_path, msg))

try:
    root = ET.fromstring(text)
except ET.ParseError as e:
    fail("not well-formed XML: %s" % e)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}

class Balance(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        pass
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            fail("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()

p = Balance()
p.feed(text)
p.close()
if p.stack:
    fail("unclosed elements: %s" % p.stack)

svgs = re.findall(r"<svg\b.*?</svg>", text, flags=re.S)
for s in svgs:
    try:
        e = ET.fromstring(s)
    except ET.ParseError as err:
        fail("an <svg> is not well-formed XML on its own: %s" % err)
    if e.tag != "svg" or "viewBox" not in e.attrib:
        fail("an <svg> without a viewBox")

FORBIDDEN = {"script", "iframe", "frame", "frameset", "object", "embed", "img", "image",
             "link", "base", "form", "audio", "video", "source", "picture", "use",
             "foreignObject", "meta-refresh"}
URL_ATTRS = {"href", "src", "srcset", "action", "formaction", "poster", "background",
             "data", "xlink:href", "ping", "manifest"}
styles = 0
for el in root.iter():
    tag = el.tag.split("}")[-1]
    if tag in FORBIDDEN:
        fail("a <%s> element" % tag)
    if tag == "style":
        styles += 1
        css = el.text or ""
        if re.search(r"url\s*\(|@import|://|expression\s*\(", css, flags=re.I):
            fail("CSS that can load something")
    for k, v in el.attrib.items():
        k = k.split("}")[-1]
        if k.lower().startswith("on"):
            fail("an event handler attribute %s" % k)
        if k.lower() in URL_ATTRS and not v.startswith("#"):
            fail("%s=%r points outside the page" % (k, v))
        if re.search(r"https?:|//|javascript:|data:", v, flags=re.I) and not (
                tag == "meta" and k in ("content", "http-equiv")):
            fail("attribute %s=%r holds a URL" % (k, v))
        if k == "style":
            fail("an inline style attribute")
    if tag == "meta" and el.attrib.get("http-equiv", "").lower() == "refresh":
        fail("a meta refresh")
if styles != 1:
    fail("%d <style> elements, expected one" % styles)
csp = [m for m in root.iter() if m.tag == "meta" and
       m.attrib.get("http-equiv") == "Content-Security-Policy"]
if not csp or "default-src 'none'" not in csp[0].attrib.get("content", ""):
    fail("no Content-Security-Policy of default-src 'none'")

def shown(s):
    """The name as the reports show it (reports/escape.c: unsafe() becomes '?')."""
    out = []
    for ch in s:
        cp = ord(ch)
        if (cp < 0x20 or cp == 0x7F or 0x80 <= cp <= 0x9F or cp in (0x061C, 0x200E, 0x200F,
                0x2028, 0x2029, 0xFFFE, 0xFFFF) or 0x202A <= cp <= 0x202E or
                0x2066 <= cp <= 0x2069):
            out.append("?")
        else:
            out.append(ch)
    return "".join(out)

sections = {s.attrib["id"]: s for s in root.iter("section") if "id" in s.attrib}
for i, b in enumerate(report["benches"]):
    sec = sections.get("bench-%d" % i)
    if sec is None:
        fail("no section for %r" % b["name"])
    h2 = sec.find("h2")
    if h2 is None or (h2.text or "").strip() != shown(b["name"]).strip():
        fail("section %d is not headed %r" % (i, b["name"]))
    badge = [e for e in h2.iter("span") if "verdict" in e.attrib.get("class", "").split()]
    word = b["verdict"] or ("withheld" if b["withheld"] else
                            "failed" if b["failure"] or b["baselineFailure"] else "not compared")
    if len(badge) != 1 or badge[0].text != word:
        fail("%r: verdict badge %r, expected %r" % (b["name"], badge and badge[0].text, word))
    charts = [e for e in sec.iter("svg") if e.attrib.get("class") == "chart"]
    if b["old"] and b["new"]:
        if len(charts) != 1:
            fail("%r: %d charts" % (b["name"], len(charts)))
        labels = [t for t in charts[0].iter("text") if "verdictlabel" in t.attrib.get("class", "")]
        if len(labels) != 1 or labels[0].text != word:
            fail("%r: chart label %r, expected %r" % (b["name"], labels and labels[0].text, word))
        bars = [r for r in charts[0].iter("rect") if "range" in r.attrib.get("class", "")]
        pads = [c for c in charts[0].iter("circle") if "pad" in c.attrib.get("class", "")]
        if len(bars) != 2 or len(pads) != len(b["old"]["pads"]) + len(b["new"]["pads"]):
            fail("%r: %d range bars and %d pad points" % (b["name"], len(bars), len(pads)))
        overlap = [r for r in charts[0].iter("rect") if r.attrib.get("class") == "overlap"]
        touching = (b["new"]["min"] <= b["old"]["max"] and b["new"]["max"] >= b["old"]["min"])
        if bool(overlap) != touching:
            fail("%r: overlap shading %s, ranges %s" % (b["name"], bool(overlap), touching))
    elif charts:
        fail("%r: a chart without two sides" % b["name"])
print("ok %s: %d benchmarks, %d svg" % (page_path, len(report["benches"]), len(svgs)))
