#!/bin/sh
test_description='plumb run: the build cache, identical trees built once, plumb cache list|prune'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

# A compiler that counts the compilations and links it does (not --version).
test_expect_success 'set up a project and a counting compiler' '
	make_project proj &&
	write_conf proj/plumb.conf run.pads=3 &&
	counting_cc
'

calls() { wc -l <"$TRASH/cc-calls" | tr -d " "; }

test_expect_success PYTHON 'a first run builds every variant and keeps all but the control' '
	run_build -c proj/plumb.conf --json >first.json 2>first.err &&
	test "$(calls)" -gt 0 &&
	test_json first.json "not any(v[\"cached\"] for v in j[\"variants\"])" &&
	plumb cache list --json >list.json &&
	test_json list.json "len(j[\"entries\"]) == 6 and j[\"folder\"].endswith(\"/plumb/builds\")" &&
	test_json list.json "sorted(e[\"what\"].split()[0] + e[\"what\"].split()[2] for e in j[\"entries\"]) == [\"base0\", \"base1\", \"base2\", \"candidate0\", \"candidate1\", \"candidate2\"]"
'

test_expect_success PYTHON 'a second run restores every base and candidate variant: no compiler runs' '
	before=$(calls) &&
	run_build -c proj/plumb.conf --json >second.json 2>second.err &&
	after=$(calls) &&
	test_grep "b00: restored from the build cache" second.err &&
	test_grep "c02: restored from the build cache" second.err &&
	test_json second.json "all(v[\"cached\"] == (not v[\"control\"]) for v in j[\"variants\"])" &&
	python3 - first.json second.json <<-\PY &&
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:])
	for x, y in zip(a["variants"], b["variants"]):
	    assert x["id"] == y["id"] and x["sha256"] == y["sha256"] and x["symbols"] == y["symbols"], (x, y)
	assert a["shift"] == b["shift"], (a["shift"], b["shift"])
	assert a["hot"] == b["hot"], (a["hot"], b["hot"])
	assert a["reproducible"] == b["reproducible"] and b["reproducible"]["value"] is True
	PY
	# Only the control linked (it is never restored): one call, no compilation.
	test "$after" -eq $((before + 1)) &&
	tail -n 1 cc-calls >last &&
	test_grep_not " -c " last
'

test_expect_success PYTHON 'a measured run records which variants were restored (build.variants[i].cached)' '
	(cd proj && plumb run --workdir "$TRASH/wd" --rounds 1 -o "$TRASH/r.plumb" >/dev/null 2>&1) &&
	plumb bundle extract r.plumb r >/dev/null &&
	test_json r/manifest.json "all(v.get(\"cached\", False) == (v[\"side\"] != \"control\") for v in j[\"build\"][\"variants\"])" &&
	test_json r/manifest.json "all(v[\"buildNs\"] == 0 for v in j[\"build\"][\"variants\"] if v.get(\"cached\"))" &&
	test_grep "restored from the build cache" r/logs/build-b00.log &&
	test_grep "cc-count" r/logs/build-b00.log
'

test_expect_success 'the nightly case: a new candidate misses, the unchanged base is restored' '
	(cd proj && echo "/* next night */" >>main.c && git commit -q -a -m "next night") &&
	run_build -c proj/plumb.conf 2>night.err >night.out &&
	test_grep "b00: restored from the build cache" night.err &&
	test_grep "b02: restored from the build cache" night.err &&
	test_grep "candidate pad 0 (c00): building" night.err &&
	test_grep "candidate pad 2 (c02): building" night.err &&
	test_grep_not "c0[0-2]: restored" night.err
'

test_expect_success 'the key holds no path: the cache copied under another XDG_CACHE_HOME, with repo.url for repo.path, restores every variant' '
	write_conf proj/moved.conf &&
	run_build -c proj/moved.conf >/dev/null 2>&1 &&
	mkdir -p moved/plumb &&
	cp -a "$XDG_CACHE_HOME/plumb/builds" moved/plumb/ &&
	git config -f proj/moved.conf repo.url "file://$TRASH/proj" &&
	XDG_CACHE_HOME="$TRASH/moved" run_build -c proj/moved.conf >/dev/null 2>moved.err &&
	test_grep "fetching file://" moved.err &&
	test "$(grep -c ": restored from the build cache" moved.err)" = 4 &&
	test_grep_not "warning" moved.err &&
	test_grep_not "pad [0-9] (.0[0-9]): building" moved.err
'

test_expect_success 'a run in another work folder builds each variant there once (its paths differ), reproducibly, then restores it' '
	plumb run --build-only --workdir "$TRASH/wd-other" -c proj/moved.conf >other.out 2>other.err &&
	test_grep "b00: the build cache entry [0-9a-f]\{12\} was built in $TRASH/wd/build/[0-9a-f]*, not in $TRASH/wd-other/build/[0-9a-f]*: built here, and kept for this folder" other.err &&
	test_grep "base pad 0 (b00): building" other.err &&
	test_grep_not "restored" other.err &&
	test_grep_not "warning" other.err &&
	test_grep "^reproducible: yes" other.out &&
	plumb run --build-only --workdir "$TRASH/wd-other" -c proj/moved.conf >/dev/null 2>again.err &&
	test "$(grep -c ": restored from the build cache" again.err)" = 4
'

test_expect_success 'a changed command misses' '
	write_conf proj/cmd.conf run.pads=2 "build.command=make CFLAGS=\"-O2 -g\"" &&
	run_build -c proj/cmd.conf 2>cmd.err >/dev/null &&
	test_grep "base pad 0 (b00): building" cmd.err &&
	test_grep_not "restored" cmd.err
'

test_expect_success 'a changed environment value misses' '
	write_conf proj/env.conf run.pads=2 &&
	run_build -c proj/env.conf 2>/dev/null >/dev/null &&
	run_build -c proj/env.conf 2>env1.err >/dev/null &&
	test_grep "b00: restored" env1.err &&
	CFLAGS=-O1 run_build -c proj/env.conf 2>env2.err >/dev/null &&
	test_grep "base pad 0 (b00): building" env2.err &&
	test_grep_not "restored" env2.err
'

test_expect_success 'a changed compiler misses' '
	echo "# another compiler" >>bin/cc-count &&
	run_build -c proj/env.conf 2>cc.err >/dev/null &&
	test_grep "base pad 0 (b00): building" cc.err &&
	test_grep_not "restored" cc.err
'

test_expect_success '--no-cache builds every variant and keeps none' '
	plumb cache list >before.list &&
	n=$(calls) &&
	run_build -c proj/env.conf --no-cache 2>nc.err >/dev/null &&
	test_grep_not "restored" nc.err &&
	test "$(calls)" -gt "$n" &&
	plumb cache list >after.list &&
	test "$(wc -l <before.list)" = "$(wc -l <after.list)"
'

test_expect_success 'a damaged entry is refused, said so naming it, evicted and built again' '
	run_build -c proj/env.conf 2>/dev/null >/dev/null &&
	for f in "$XDG_CACHE_HOME"/plumb/builds/*/tree/bench; do
		printf x >>"$f" || return 1
	done &&
	run_build -c proj/env.conf 2>dmg.err >dmg.out &&
	test_grep "warning: b00: build cache entry $XDG_CACHE_HOME/plumb/builds/[0-9a-f]\{64\}: tree/bench: [0-9]* bytes, the manifest says [0-9]*; the entry is evicted and b00 built instead" dmg.err &&
	test_grep "base pad 0 (b00): building" dmg.err &&
	test_grep "^shift check: ok" dmg.out &&
	run_build -c proj/env.conf 2>again.err >/dev/null &&
	test_grep "b00: restored" again.err
'

test_expect_success 'an entry a killed run left half-stored is never restored, and prune removes it' '
	run_build -c proj/env.conf >/dev/null 2>e.err &&
	short=$(sed -n "s/.* b00: restored from the build cache (\([0-9a-f]*\);.*/\1/p" e.err) &&
	dir="$XDG_CACHE_HOME/plumb/builds" &&
	key=$(ls "$dir" | grep "^$short") &&
	mv "$dir/$key" "$dir/tmp-999999-0" &&
	rm "$dir/tmp-999999-0/entry" &&
	plumb cache list >l && test_grep_not "^$short" l &&
	plumb cache prune >p &&
	! test -e "$dir/tmp-999999-0" &&
	mkdir "$dir/$key" &&
	run_build -c proj/env.conf 2>half.err >/dev/null &&
	test_grep "warning: b00: build cache entry $dir/$key: no readable entry file; the entry is evicted" half.err &&
	test_grep "base pad 0 (b00): building" half.err
'

test_expect_success PYTHON 'the cache prunes to build.cacheSize, least recently used first' '
	plumb cache prune --all >all.out &&
	test_grep "removed [0-9]* entries" all.out &&
	plumb cache list --json >empty.json &&
	test_json empty.json "j[\"entries\"] == []" &&
	write_conf proj/small.conf run.pads=3 build.cacheSize=60K &&
	run_build -c proj/small.conf 2>/dev/null >/dev/null &&
	plumb cache list --json >small.json &&
	test_json small.json "0 < sum(e[\"bytes\"] for e in j[\"entries\"]) <= 60 * 1024 and len(j[\"entries\"]) < 6" &&
	plumb cache prune --size 1 >one.out &&
	plumb cache list --json >none.json &&
	test_json none.json "j[\"entries\"] == []" &&
	test_expect_code 2 plumb cache prune --size lots 2>bad.err &&
	test_grep "\-\-size: .lots. is not a size" bad.err &&
	git config -f proj/small.conf build.cacheSize 9Q &&
	test_expect_code 3 run_build -c proj/small.conf 2>q.err &&
	test_grep "build.cacheSize: .9Q. is not a size" q.err
'

test_expect_success 'build.cacheSize = 0 turns the cache off' '
	write_conf proj/off.conf run.pads=2 build.cacheSize=0 &&
	run_build -c proj/off.conf 2>/dev/null >/dev/null &&
	run_build -c proj/off.conf 2>off.err >/dev/null &&
	test_grep_not "restored" off.err &&
	plumb cache list >off.list &&
	test_grep "0 entries" off.list
'

test_expect_success 'an A/A run builds its tree once: the candidate is a copy of the base' '
	: >cc-calls &&
	write_conf proj/aa.conf run.pads=2 run.candidate=v1 &&
	run_build -c proj/aa.conf --no-cache --json >aa.json 2>aa.err &&
	test_grep "base and candidate are the same tree" aa.err &&
	test_grep "c00: the same tree as the base: copied from b00" aa.err &&
	test "$(grep -c -- "-c -o work.o work.c" cc-calls)" = 1 &&
	test_json aa.json "[v[\"copy_of\"] for v in j[\"variants\"]] == [None, None, \"b00\", \"b01\", None]" &&
	test_json aa.json "j[\"variants\"][2][\"sha256\"] == j[\"variants\"][0][\"sha256\"]"
'

test_expect_success 'a tree holding a symbolic link is not kept: the warning says every run builds it again' '
	write_conf proj/link.conf run.pads=2 "build.command=make && ln -sf bench bench.link" &&
	run_build -c proj/link.conf >/dev/null 2>link1.err &&
	test_grep "warning: b00: not kept in the build cache, so every run builds it again: .*tree/bench.link: a symbolic link" link1.err &&
	run_build -c proj/link.conf >/dev/null 2>link2.err &&
	test_grep "b00: built in" link2.err &&
	test_grep_not "b00: restored from the build cache" link2.err
'

test_done
