#!/bin/sh
test_description='plumb report --format html in real headless Chromium: desktop, phone, print'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports"
chromium=$(command -v chromium || command -v chromium-browser || true)
test -n "$chromium" && test_set_prereq CHROMIUM

# Loads each page through the DevTools protocol at 1280x900, 390x844 and as
# printed (tests/integration/report-browser.py), keeping the screenshots
# and the PDF in the trash folder (look at them: *-top.png is the first
# screenful).
cases="placement baseline not-comparable hostile family"

test_expect_success CHROMIUM 'the pages load in Chromium at desktop and phone widths' '
	for c in $cases; do
		(cd "$golden" && "$PLUMB" report $(cat "$c/args") --format html \
			-o "$TRASH/$c.html") 2>/dev/null
		test -s "$c.html" || return 1
	done &&
	python3 "$TEST_SRCDIR/tests/integration/report-browser.py" "$chromium" "$TRASH" \
		$(for c in $cases; do echo "$c.html"; done) >measured.json &&
	test -s measured.json
'

for c in $cases; do
	test_expect_success CHROMIUM "$c: every chart drawn, every verdict visible, nothing loaded" '
		python3 - measured.json "$c.html" "$golden/$c/expect.json" <<-\PY
		import json, sys
		m = json.load(open(sys.argv[1]))[sys.argv[2]]
		report = json.load(open(sys.argv[3]))
		assert m["print"]["pdf_bytes"] > 1000, m["print"]
		for view, width in (("desktop", 1280), ("phone", 390), ("print", 680)):
		    v = m[view]
		    assert v["vw"] == width, (view, v["vw"])
		    # Nothing but the page itself was requested; nothing complained.
		    assert len(v["requests"]) == 1 and v["requests"][0].startswith("file://"), v["requests"]
		    assert v["console"] == [], v["console"]
		    # No sideways scrolling of the page (wide tables scroll in their box).
		    assert v["sw"] <= v["vw"], (view, v["sw"], v["vw"])
		    assert v["screenshot_size"][0] >= width - 20, v["screenshot_size"]
		    assert len(v["benches"]) == len(report["benches"]), view
		    for b, want in zip(v["benches"], report["benches"]):
		        word = want["verdict"] or ("withheld" if want["withheld"] else
		               "failed" if want["failure"] or want["baselineFailure"] else "not compared")
		        badge = b["badge"]
		        assert badge["visible"] and badge["w"] > 0 and badge["h"] > 0, (view, b)
		        assert badge["text"] == word, (view, badge["text"], word)
		        assert badge["right"] <= v["vw"] + 0.5, (view, "badge off screen", b)
		        if want["old"] and want["new"]:
		            ch, lab = b["chart"], b["label"]
		            assert ch and ch["w"] > 100 and ch["h"] > 40, (view, b["id"], ch)
		            assert ch["right"] <= v["vw"] + 0.5, (view, "chart off screen", ch)
		            assert lab["visible"] and lab["text"] == word and lab["h"] >= 10, (view, lab)
		        else:
		            assert b["chart"] is None, (view, b)
		print("ok")
		PY
	'
done

# 1280 and 390 pixels wide: every verdict on the page (badges, and the
# cells of every verdict column) lies within the viewport, the summary
# table fits a desktop without scrolling sideways, and commits are shown
# by 12 digits with the whole id on hover.
test_expect_success CHROMIUM 'layout: no verdict off-screen, the summary fits 1280 px, short ids with the whole on hover' '
	python3 - measured.json $cases <<-\PY
	import json, re, sys
	m = json.load(open(sys.argv[1]))
	for c in sys.argv[2:]:
	    for view in ("desktop", "phone"):
	        v = m[c + ".html"][view]
	        assert v["verdicts"] > 0, (c, view)
	        assert v["offscreen"] == [], (c, view, v["offscreen"])
	        assert v["longhex"] == [], (c, view, v["longhex"])
	        assert v["ids"], (c, view)
	        for i in v["ids"]:
	            assert re.fullmatch(r"[0-9a-f]{40}", i["title"]) and i["text"] == i["title"][:12], (c, view, i)
	    assert "benches" not in m[c + ".html"]["desktop"]["scrolling"], (c, m[c + ".html"]["desktop"]["scrolling"])
	print("ok")
	PY
'

test_done
