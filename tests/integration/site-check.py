#!/usr/bin/env python3
# tests/integration/site-check.py DIR: the structural checks of the pages
# `plumb report --archive-index -o DIR/` wrote.  Exits non-zero naming the
# first broken rule.
#   - every file name is plain ASCII ([a-z0-9.-], no path), and every page
#     is well-formed XML with balanced HTML elements;
#   - nothing can load: a Content-Security-Policy of default-src 'none', no
#     script, frame, image, link or embedded object, no event handler, no
#     url() or @import in the CSS, no "http://", "https://" or "//" in any
#     attribute;
#   - every href is the name of a file written in DIR (with an optional
#     "#fragment" naming an id of that page), and every page is reachable
#     from index.html through them.
# Prints "pages N links M" on success.
import html.parser, os, re, sys
import xml.etree.ElementTree as ET

root = sys.argv[1]
pages = sorted(f for f in os.listdir(root) if f.endswith(".html"))

def fail(msg):
    sys.exit("site-check: %s" % msg)

if "index.html" not in pages:
    fail("no index.html")
for f in os.listdir(root):
    if not re.fullmatch(r"\.?[a-z0-9][a-z0-9.-]*", f):
        fail("file name %r is not plain" % f)
    if not os.path.isfile(os.path.join(root, f)):
        fail("%s is not a regular file" % f)

FORBIDDEN = {"script", "iframe", "frame", "img", "link", "object", "embed", "image",
             "audio", "video", "source", "base", "form", "use", "foreignobject"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}

class Page(html.parser.HTMLParser):
    def __init__(self, name):
        super().__init__(convert_charrefs=True)
        self.name, self.stack, self.hrefs, self.ids, self.csp = name, [], [], set(), None
    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)
    def check(self, tag, attrs):
        if tag in FORBIDDEN:
            fail("%s: <%s> can load something" % (self.name, tag))
        for k, v in attrs:
            v = v or ""
            if k.startswith("on"):
                fail("%s: event handler %s" % (self.name, k))
            if re.search(r"https?:|//|url\(", v, re.I) and not (tag == "meta" and k == "content"):
                fail("%s: attribute %s=%r points somewhere" % (self.name, k, v))
            if k == "id":
                self.ids.add(v)
            if k in ("href", "src", "xlink:href", "action", "srcset", "poster", "data"):
                if k != "href":
                    fail("%s: attribute %s" % (self.name, k))
                self.hrefs.append(v)
        d = dict(attrs)
        if tag == "meta" and (d.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = d.get("content", "")
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            fail("%s: </%s> closes <%s>" % (self.name, tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()

parsed, links = {}, 0
for name in pages:
    text = open(os.path.join(root, name), encoding="utf-8").read()
    try:
        ET.fromstring(text)
    except ET.ParseError as e:
        fail("%s: not well-formed XML: %s" % (name, e))
    for css in re.findall(r"<style>(.*?)</style>", text, flags=re.S):
        if re.search(r"url\(|@import|https?:", css, re.I):
            fail("%s: the CSS can load something" % name)
    p = Page(name)
    p.feed(text)
    p.close()
    if p.stack:
        fail("%s: unclosed elements %s" % (name, p.stack))
    if not p.csp or not re.match(r"default-src 'none'(;|$)", p.csp):
        fail("%s: no Content-Security-Policy of default-src 'none' (%r)" % (name, p.csp))
    parsed[name] = p

for name, p in parsed.items():
    for h in p.hrefs:
        links += 1
        target, _, frag = h.partition("#")
        if target == "":
            target = name
        if "/" in target or target not in parsed:
            fail("%s: href %r is no page of the folder" % (name, h))
        if frag and frag not in parsed[target].ids:
            fail("%s: href %r: no id %r in %s" % (name, h, frag, target))

seen, todo = {"index.html"}, ["index.html"]
while todo:
    for h in parsed[todo.pop()].hrefs:
        t = h.partition("#")[0]
        if t and t not in seen:
            seen.add(t)
            todo.append(t)
if seen != set(parsed):
    fail("pages no link reaches from index.html: %s" % sorted(set(parsed) - seen))
print("pages %d links %d" % (len(parsed), links))
