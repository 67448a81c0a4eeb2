#!/bin/sh
test_description='plumb run --from: a spec read from a bundle cannot redirect anything (run.lock, build.cacheSize, archive.url, a path out of the tree), signed by a trusted key or not'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT

test_expect_success 'a bundle, a trusted key' '
	make_project proj &&
	run_conf proj/plumb.conf run.pads=1 run.control=false run.rounds=1 \
		"run.lock=$TRASH/mine.lock" build.cacheSize=8G &&
	run_plumb -c proj/plumb.conf -o one.plumb >/dev/null 2>&1 &&
	plumb bundle keygen -o k >/dev/null &&
	mkdir -p "$HOME/.config/plumb/trusted" && cp k.pub "$HOME/.config/plumb/trusted/"
'

test_expect_success PYTHON 'a bundle records neither this machine'\''s lock, cache nor archive' '
	manifest one.plumb one &&
	test_json one/manifest.json "(\"lock\" not in j[\"spec\"][\"run\"] and
		\"cacheSize\" not in j[\"spec\"][\"build\"] and \"archive\" not in j[\"spec\"])" &&
	plumb run --from one.plumb --dry-run >conf &&
	test_grep "^	; lock: " conf
'

# spec_set NAME SECTION KEY VALUE: one.plumb with spec.SECTION.KEY = VALUE,
# signed by the trusted key.
spec_set() {
	rm -rf s && plumb bundle extract one.plumb s >/dev/null &&
	python3 - s/manifest.json "$2" "$3" "$4" <<-\PY &&
	import json, sys
	path, sec, key, value = sys.argv[1:]
	with open(path) as f:
	    m = json.load(f)
	m["spec"].setdefault(sec, {})[key] = value
	with open(path, "w") as f:
	    json.dump(m, f)
	PY
	python3 "$craft" "$1" --from one.plumb --file manifest.json=@s/manifest.json --resum &&
	plumb bundle sign "$1" -k k.key >/dev/null
}

# refused NAME KEY: run --from NAME exits 3 naming the bundle and the key,
# with --dry-run too; nothing is built.
refused() {
	test_expect_code 3 plumb run --from "$1" --trust-commands --workdir "$TRASH/wd-x" \
		--archive -o x.plumb >out 2>err &&
	test_grep "^plumb: $1: spec: $2 = .*: refused: a bundle may not choose this machine's lock, build cache or archive" err &&
	test_expect_code 3 plumb run --from "$1" --dry-run >out 2>err &&
	test_grep "^plumb: $1: spec: $2 = " err &&
	! test -e x.plumb && ! test -e wd-x
}

test_expect_success CRAFT 'run.lock: refused; a file at that path keeps its bytes and mode' '
	printf "secret\n" >victim && chmod 600 victim &&
	spec_set lock.plumb run lock "$TRASH/victim" &&
	refused lock.plumb run.lock &&
	test "$(cat victim)" = secret &&
	test "$(stat -c %a victim)" = 600
'

test_expect_success CRAFT 'archive.url: refused; nothing is sent there' '
	spec_set archive.plumb archive url "$TRASH/elsewhere" &&
	refused archive.plumb archive.url &&
	! test -e elsewhere &&
	! test -e "$XDG_DATA_HOME/plumb"
'

test_expect_success CRAFT 'build.cacheSize: refused; its default, as older bundles record it, is not' '
	spec_set cache.plumb build cacheSize 1T &&
	refused cache.plumb build.cacheSize &&
	spec_set old.plumb build cacheSize 4G &&
	plumb run --from old.plumb --dry-run >out &&
	test_grep "^	cacheSize = 4G$" out
'

test_expect_success CRAFT 'build.artifact: a path out of the tree is refused' '
	spec_set artifact.plumb build artifact /etc/passwd &&
	test_expect_code 3 plumb run --from artifact.plumb --trust-commands -o x.plumb 2>err &&
	test_grep "^plumb: artifact.plumb: spec: build.artifact: ./etc/passwd. is not a relative path inside the tree" err &&
	spec_set up.plumb build artifact ../../x &&
	test_expect_code 3 plumb run --from up.plumb --trust-commands -o x.plumb 2>err &&
	test_grep "^plumb: up.plumb: spec: build.artifact: .\.\./\.\./x. is not a relative path inside the tree" err &&
	! test -e x.plumb
'

test_done
