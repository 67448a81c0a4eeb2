#!/bin/sh
test_description='every view of bundle and archive strings escapes them: no control character or bidi override reaches the output'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

check="$TEST_SRCDIR/tests/integration/no-controls.py"
hostile="$FIXTURES/reports/inputs/hostile"
test_have_prereq PYTHON && test_set_prereq CHECK

# The hostile strings: a colour escape, an OSC hyperlink, BEL, a C1 CSI,
# a right-to-left override, a bidi isolate and a line separator.
evil=$(printf '\033[31mred\033[0m\033]8;;http://x\007\302\233\342\200\256evil\342\201\246\342\200\250')
export evil

# clean FILE...: none of the files holds a raw control or bidi character.
clean() {
	python3 "$check" "$@"
}

test_expect_success CHECK 'a bundle whose strings hold controls and bidi overrides' '
	mkdir h && cp "$hostile/samples.tsv" h/ &&
	python3 - "$hostile/manifest.json" h/manifest.json <<-\PY &&
	import json, os, sys
	evil = os.environ["evil"]
	m = json.load(open(sys.argv[1]))
	m["run"]["labels"] = {"k" + evil: "v" + evil}
	m["tool"]["version"] = "0.1" + evil
	m["repo"]["base"]["ref"] = "v1" + evil
	m["repo"]["candidate"]["subject"] = "subject " + evil
	m["host"]["start"]["kernel"]["release"] = "6.1" + evil
	failed = dict(m["benches"][0])
	for k in ("sides", "ratio", "verdict", "notes"):
	    failed.pop(k, None)
	failed["name"] = "failed" + evil
	failed["failure"] = "crashed: " + evil
	m["benches"].append(failed)
	# A parameter family whose names and values are evil, and a spec
	# (commands, hooks, labels) that the configuration table shows.
	rows = open("h/samples.tsv").read().splitlines(True)
	fam = []
	# (samples.tsv refuses controls in a name: the evil values are the
	# params of the spec, which the family table shows.)
	for v in ("1", "2"):
	    b = dict(m["benches"][1])
	    b["name"] = "fam/k=" + v
	    e = evil.replace(";", "")    # ";" separates the parameters
	    b["params"] = "k" + e + "=" + v + e
	    fam.append(b)
	    rows += [b["name"] + r[r.index("\t"):] for r in rows[1:] if r.startswith(m["benches"][1]["name"] + "\t")]
	m["benches"] += fam
	open("h/samples.tsv", "w").write("".join(rows))
	m["spec"]["run"]["setup"] = "setup " + evil
	m["spec"]["build"]["command"] = "make " + evil
	m["spec"]["bench"] += [{"name": b["name"], "command": "{artifact} " + evil,
	                        "prepare": "prepare " + evil,
	                        "params": b.pop("params")} for b in fam]
	json.dump(m, open(sys.argv[2], "w"), indent=2)
	PY
	python3 "$TEST_SRCDIR/tests/integration/fingerprint.py" h/manifest.json &&
	plumb bundle pack h -o h.plumb >/dev/null
'

test_expect_success CHECK 'the fixture does hold the raw strings (the check can fail)' '
	python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(m[\"benches\"][2][\"name\"]); print(m[\"repo\"][\"candidate\"][\"subject\"])" h/manifest.json >raw &&
	! clean raw >/dev/null
'

test_expect_success CHECK 'bundle show' '
	plumb bundle show h.plumb >show &&
	test_grep "^bundle " show &&
	test_grep "failed: crashed: " show &&
	clean show
'

test_expect_success CHECK 'bundle pack, verify, extract, keygen and sign: paths that hold them' '
	name=$(printf "b\033[31mred\302\233\342\200\256.plumb") &&
	dir=$(printf "x\033[2J\342\201\246") &&
	key=$(printf "k\033]8;;\007") &&
	plumb bundle pack h -o "$name" >pack &&
	test_grep "^b?\[31mred??\.plumb: bundle " pack &&
	plumb bundle verify "$name" >verify &&
	test_grep ": ok$" verify &&
	plumb bundle extract "$name" "$dir" >extract &&
	test_grep " members into x?\[2J?$" extract &&
	plumb bundle keygen -o "$key" >keygen &&
	plumb bundle sign "$name" -k "$key.key" >sign &&
	test_grep ": signed with key " sign &&
	clean pack verify extract keygen sign
'

test_expect_success CHECK 'archive list, show, trend and baselines' '
	plumb archive add h.plumb --archive-dir A >add &&
	id=$(cut -c1-64 add) &&
	plumb archive list --archive-dir A >list &&
	test_grep "^$(printf %.12s "$id")" list &&
	plumb archive show "$id" --archive-dir A >ashow &&
	test_grep "^candidate " ashow &&
	plumb archive trend "$(printf "\342\200\256evil")" --archive-dir A >trend &&
	test_grep "1 point" trend &&
	plumb archive baseline set nightly "$id" --note "note $evil" --archive-dir A >/dev/null &&
	plumb archive baseline list --archive-dir A >bls &&
	test_grep "^nightly " bls &&
	plumb archive baseline show nightly --archive-dir A >bl &&
	test_grep "^note " bl &&
	clean list ashow trend bls bl
'

test_expect_success CHECK 'report in every format, of the bundle and of the trend' '
	for f in text md html; do
		plumb report h.plumb --format $f -o "report.$f" &&
		plumb report --trend "$(printf "\342\200\256evil")" \
			--format $f --archive-dir A -o "trend.$f" || return 1
	done &&
	test_grep "subject" report.text &&
	test_grep "by parameter" report.md &&
	test_grep "<section class=\"families\">" report.html &&
	test_grep "run.setup</td><td class=\"fact\">setup " report.html &&
	test_grep "prepare</td><td class=\"fact\">prepare " report.html &&
	test_grep "^| label k" report.md &&
	clean report.text report.md report.html trend.text trend.md trend.html
'

test_expect_success CHECK 'the csv and bmf exports: no raw control, the names intact or quoted' '
	plumb report h.plumb --format csv -o report.csv &&
	plumb report h.plumb --format bmf -o report.bmf &&
	test_grep "^\"failed?\[31mred" report.csv &&
	python3 -c "import json,os,sys; b=json.load(open(sys.argv[1])); assert \"\\u202eevil\" in b and \"<script>alert(1)</script>\" in b, list(b)" report.bmf &&
	test_grep "^\"?evil\"," report.csv &&
	clean report.csv report.bmf
'

test_expect_success CHECK 'every --json escapes them too (the same values, as \\uXXXX)' '
	id=$(cut -c1-64 add) &&
	plumb bundle show --json h.plumb >show.json &&
	plumb archive list --json --archive-dir A >list.json &&
	plumb archive show "$id" --json --archive-dir A >ashow.json &&
	plumb archive trend "$(printf "\342\200\256evil")" --json \
		--archive-dir A >trend.json &&
	plumb report h.plumb --format json -o report.json &&
	python3 -c "import json,os,sys; m=json.load(open(sys.argv[1])); assert m[\"manifest\"][\"repo\"][\"candidate\"][\"subject\"] == \"subject \" + os.environ[\"evil\"]" show.json &&
	clean show.json list.json ashow.json trend.json report.json
'

test_expect_success CHECK 'analyze: a name with a bidi override (valid in samples.tsv) is escaped' '
	name=$(printf "x\342\200\256y\342\201\246z") &&
	{
		printf "bench\tside\tpad\tround\titer\tmetric\tvalue\n" &&
		for side in base candidate; do
			for pad in 0 1; do
				for r in 1 2 3; do
					printf "%s\t%s\t%s\t%s\t-\twall\t1%s%s\n" "$name" $side $pad $r $pad $r
				done
			done
		done
	} >bidi.tsv &&
	plumb analyze bidi.tsv >analyze.txt &&
	test_grep "^x?y?z  wall" analyze.txt &&
	plumb analyze bidi.tsv --format csv >analyze.csv &&
	test_grep "^\"x?y?z\",\"process\",\"wall\"" analyze.csv &&
	clean analyze.txt analyze.csv
'

test_expect_success CHECK 'run: the report it prints of a commit whose subject holds them' '
	make_project proj &&
	(cd proj && git commit -q --allow-empty -m "subject $evil") &&
	run_conf proj/plumb.conf &&
	run_plumb -c proj/plumb.conf -o run.plumb >run.out 2>run.err &&
	test_grep "subject ?\[31mred" run.out &&
	run_plumb -c proj/plumb.conf -o run2.plumb --json >run.json 2>/dev/null &&
	plumb run --build-only --workdir "$TRASH/wd" -c proj/plumb.conf >build.out 2>build.err &&
	test_grep "subject ?\[31mred" build.out &&
	clean run.out run.err run.json build.out build.err
'

test_expect_success CHECK 'bisect: commit subjects and author names that hold them, in every format' '
	(cd proj && GIT_AUTHOR_NAME="author $evil" git commit -q --allow-empty -m "<script>alert(1)</script> $evil") &&
	test_expect_code 1 plumb bisect --good v1 --bad main -c proj/plumb.conf --workdir "$TRASH/wd" -o bis \
		>bisect.txt 2>bisect.err &&
	test_grep "^not found: the good end is not faster" bisect.txt &&
	plumb bisect --show bis --format md >bisect.md &&
	plumb bisect --show bis --format html >bisect.html &&
	plumb bisect --show bis --format json >bisect.json &&
	test_grep "&lt;script&gt;alert(1)&lt;/script&gt; ?\[31mred" bisect.html &&
	test_grep "author ?\[31mred" bisect.html &&
	test_grep_not "<script" bisect.html &&
	test_grep "alert(1)</script> ?\[31mred" bisect.err &&
	clean bisect.txt bisect.err bisect.md bisect.html bisect.json bis/bisect.json
'

test_expect_success CHECK 'bisect --show: a forged bisect.json whose ids and words hold them, in every format' '
	mkdir forged &&
	python3 - bis/bisect.json forged/bisect.json <<-\PY &&
	import json, os, sys
	evil = os.environ["evil"]
	d = json.load(open(sys.argv[1]))
	d["good"]["commit"] = "<b>" + evil
	d["commits"][0]["commit"] = "<i>" + evil
	d["commits"][-1]["commit"] = evil + "<s>"
	for s in d["steps"]:
	    s["kind"] = "<script>" + evil
	    s["verdict"] = "<u>" + evil
	json.dump(d, open(sys.argv[2], "w"))
	PY
	for f in text md html json; do
		plumb bisect --show forged --format $f >forged.$f || return 1
	done &&
	test_grep "&lt;script&gt;?\[31mred" forged.html &&
	test_grep_not "<script\|<[biu]>\|<s>" forged.html &&
	clean forged.text forged.md forged.html forged.json
'

test_expect_success CHECK 'host: a CPU model with a bidi override (valid in /proc/cpuinfo) is escaped' '
	cp -R "$FIXTURES/hosts/intel-laptop" sysroot &&
	sed "s/^model name\t: /&$(printf "\342\200\256")/" "$FIXTURES/hosts/intel-laptop/proc/cpuinfo" \
		>sysroot/proc/cpuinfo &&
	PLUMB_SYSROOT=sysroot PLUMB_HOST_NO_CC=1 plumb host --check >host.txt &&
	test_grep "^cpu  *?11th Gen" host.txt &&
	PLUMB_SYSROOT=sysroot PLUMB_HOST_NO_CC=1 plumb host --json >host.json &&
	clean host.txt host.json || { cat host.txt; false; }
'

test_done
