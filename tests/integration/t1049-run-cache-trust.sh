#!/bin/sh
test_description='plumb run: the build cache proves what it restores (owner, modes, every file hashed, no links); an entry that fails a check then or later is evicted, named, built again from clean'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test "$(id -u)" = 0 && test_set_prereq ROOT
CACHE="$XDG_CACHE_HOME/plumb/builds"

# entry WHAT: the folder of the entry whose description is WHAT ("base pad 0").
entry() {
	f=$(grep -l "^what $1 of tree" "$CACHE"/*/entry) &&
	test "$(echo "$f" | wc -l)" = 1 &&
	dirname "$f"
}

# forge ENTRY PATH [artifact]: make ENTRY's manifest and entry file agree
# with its tree/PATH as it is now (what only someone with this user's
# rights can do); with "artifact" also its recorded artifact hash and size.
forge() {
	size=$(wc -c <"$1/tree/$2" | tr -d " ") &&
	sha=$(sha256sum "$1/tree/$2" | cut -d" " -f1) &&
	mode=$(printf %04o "0$(stat -c %a "$1/tree/$2")") &&
	sed -i "s|^file [0-7]* [0-9]* [0-9a-f]* $2\$|file $mode $size $sha $2|" "$1/manifest" &&
	grep -q "^file $mode $size $sha $2\$" "$1/manifest" &&
	msha=$(sha256sum "$1/manifest" | cut -d" " -f1) &&
	sed -i "1,/^material\$/ s/^manifest .*/manifest $msha/" "$1/entry" &&
	if test "${3:-}" = artifact; then
		sed -i "1,/^material\$/ { s/^sha256 .*/sha256 $sha/; s/^size .*/size $size/; }" "$1/entry"
	fi
}

# same_result JSON: every variant has the bytes of a clean build (ref.json).
same_result() {
	python3 - ref.json "$1" <<-\PY
	import json, sys
	a, b = (json.load(open(f)) for f in sys.argv[1:])
	for x, y in zip(a["variants"], b["variants"]):
	    assert x["id"] == y["id"] and x["sha256"] == y["sha256"] and x["symbols"] == y["symbols"], (x, y)
	assert b["shift"]["status"] == "exact", b["shift"]
	PY
}

# clean_run: the next run restores every variant but the control and warns of nothing.
clean_run() {
	run_build -c proj/plumb.conf --json >clean.json 2>clean.err &&
	test_grep_not "warning" clean.err &&
	test "$(grep -c ": restored from the build cache" clean.err)" = 4 &&
	same_result clean.json
}

test_expect_success PYTHON 'a run fills the cache: each entry has a manifest of every file, nobody else may write it' '
	make_project proj &&
	write_conf proj/plumb.conf &&
	run_build -c proj/plumb.conf --no-cache --json >ref.json 2>/dev/null &&
	run_build -c proj/plumb.conf >/dev/null 2>&1 &&
	e=$(entry "base pad 0") &&
	test_grep "^file 0644 [0-9]* [0-9a-f]\{64\} Makefile$" "$e/manifest" &&
	test_grep "^file 0755 [0-9]* [0-9a-f]\{64\} bench$" "$e/manifest" &&
	test_grep "^manifest $(sha256sum "$e/manifest" | cut -d" " -f1)$" "$e/entry" &&
	find "$CACHE" -perm /022 >writable &&
	! test -s writable &&
	clean_run
'

test_expect_success PYTHON 'a planted file in a restored tree (a GNUmakefile make would run) is refused: named, evicted, built again' '
	e=$(entry "base pad 0") &&
	printf "bench:\n\ttouch $TRASH/planted-ran\n" >"$e/tree/GNUmakefile" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: b00: build cache entry $e: tree/GNUmakefile: not in the entry.s manifest; the entry is evicted and b00 built instead" err &&
	test_grep "base pad 0 (b00): building" err &&
	! test -e planted-ran &&
	! test -e "$e/tree/GNUmakefile" &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'a file of a restored tree changed in place (same size) is refused by its hash' '
	e=$(entry "base pad 0") &&
	sed -i "s/-O2 -g/-O3 -g/" "$e/tree/Makefile" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: b00: build cache entry $e: tree/Makefile: its SHA-256 is not the one the manifest records" err &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'an artifact swapped for another real binary, its recorded hash updated, is refused' '
	e=$(entry "base pad 1") &&
	cp "$(entry "candidate pad 1")/tree/bench" "$e/tree/bench" &&
	sha=$(sha256sum "$e/tree/bench" | cut -d" " -f1) &&
	size=$(wc -c <"$e/tree/bench" | tr -d " ") &&
	sed -i "1,/^material\$/ { s/^sha256 .*/sha256 $sha/; s/^size .*/size $size/; }" "$e/entry" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: b01: build cache entry $e: tree/bench: " err &&
	test_grep "base pad 1 (b01): building" err &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'a symbolic link as the artifact is refused' '
	e=$(entry "candidate pad 1") &&
	mv "$e/tree/bench" "$TRASH/real-bench" &&
	ln -s "$TRASH/real-bench" "$e/tree/bench" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: c01: build cache entry $e: tree/bench: a symbolic link (an entry holds only regular files and folders)" err &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'a group-writable entry, or a group-writable file in it, is refused' '
	e=$(entry "candidate pad 0") &&
	chmod g+w "$e" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: c00: build cache entry $e: its folder: group-writable (mode 0775)" err &&
	same_result out.json &&
	clean_run &&
	e=$(entry "candidate pad 0") &&
	chmod o+w "$e/tree/work.c" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: c00: build cache entry $e: tree/work.c: world-writable (mode 0646)" err &&
	same_result out.json &&
	clean_run
'

test_expect_success ROOT,PYTHON 'an entry owned by another user is refused (chown nobody, as root)' '
	e=$(entry "base pad 0") &&
	chown -R nobody "$e" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: b00: build cache entry $e: its folder: owned by uid $(id -u nobody), not by this user (uid 0)" err &&
	same_result out.json &&
	clean_run &&
	e=$(entry "base pad 1") &&
	chown nobody "$e/log" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: b01: build cache entry $e: log: owned by uid $(id -u nobody)" err &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'a cache folder others may write is not used at all: said, the run builds, plumb cache list exits 3' '
	chmod g+w "$CACHE" &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "warning: build cache: $CACHE: group-writable (mode 0775): not used (make it yours and writable by you alone, or remove it)" err &&
	test_grep_not "restored" err &&
	same_result out.json &&
	test_expect_code 3 plumb cache list 2>list.err &&
	test_grep "$CACHE: group-writable" list.err &&
	test_expect_code 3 plumb cache prune --all 2>prune.err &&
	test -d "$(entry "base pad 0")" &&
	chmod g-w "$CACHE" &&
	clean_run
'

test_expect_success ROOT,PYTHON 'a cache folder owned by another user is not used (chown nobody, as root)' '
	chown nobody "$CACHE" &&
	run_build -c proj/plumb.conf >/dev/null 2>err &&
	test_grep "warning: build cache: $CACHE: owned by uid $(id -u nobody), not by this user (uid 0): not used" err &&
	test_grep_not "restored" err &&
	chown root "$CACHE" &&
	clean_run
'

test_expect_success PYTHON 'an entry that passes every check but fails the shift proof is evicted and every variant built again from clean' '
	e=$(entry "base pad 1") &&
	cp "$(entry "base pad 0")/tree/bench" "$e/tree/bench" &&
	forge "$e" bench artifact &&
	run_build -c proj/plumb.conf --json >out.json 2>err &&
	test_grep "b01: restored from the build cache" err &&
	test_grep "warning: build cache entry $e (restored as b01) failed a later check: pad 1 did not move the code" err &&
	test_grep "it and the other entries this run restored (2 in all) are evicted, and the variants are built again from clean" err &&
	test_grep "base pad 0 (b00): building" err &&
	test_grep "candidate pad 1 (c01): building" err &&
	same_result out.json &&
	clean_run
'

test_expect_success PYTHON 'a restored tree whose build fails is built again from clean; a measured run exits 0' '
	e=$(entry "base pad 0") &&
	printf "bench:\n\techo broken on purpose; exit 1\n" >"$e/tree/Makefile" &&
	forge "$e" Makefile &&
	run_conf proj/run.conf &&
	run_plumb -c proj/run.conf -o r.plumb >out 2>err &&
	test_grep "b00: restored from the build cache" err &&
	test_grep "warning: build cache entry $e (restored as b00) failed a later check: the control, base pad 0 built again (k00): the build failed" err &&
	test_grep "base pad 0 (b00): building" err &&
	manifest r.plumb r &&
	test_json r/manifest.json "not any(v.get(\"cached\") for v in j[\"build\"][\"variants\"])" &&
	clean_run
'

test_expect_success 'when the build from clean fails too, the run fails (exit 4) and the message names the cache entry' '
	printf "test ! -e \"%s/fail-now\" || { echo failing on purpose; exit 1; }\nexec make\n" "$TRASH" >build.sh &&
	write_conf proj/fail.conf "build.command=sh $TRASH/build.sh" &&
	run_build -c proj/fail.conf >/dev/null 2>&1 &&
	touch fail-now &&
	test_expect_code 4 run_build -c proj/fail.conf >/dev/null 2>err &&
	test_grep "warning: build cache entry $CACHE/[0-9a-f]* (restored as b00) failed a later check: the control, base pad 0 built again (k00): the build failed" err &&
	test_grep "plumb: base pad 0 (b00): the build failed: exit status 1; .* (built from clean, after a build with build cache entry $CACHE/[0-9a-f]\{12\} failed first)" err &&
	rm fail-now
'

test_done
